/** Reads and writes .nzf-cache records (src/cache/entry.ts) the way the build does, for tests that look inside them. */
import { readFile, writeFile } from "node:fs/promises";
import { decodeEntry, encodeEntry } from "../../src/cache/entry.js";

export async function readCacheJson<T = any>(file: string): Promise<T> {
  const entry = decodeEntry(await readFile(file));
  if ("bad" in entry) throw new Error(`${file} is not a whole cache record: ${entry.bad}`);
  return JSON.parse(entry.payload.toString("utf8")) as T;
}

export async function writeCacheJson(file: string, value: unknown): Promise<void> {
  await writeFile(file, encodeEntry(JSON.stringify(value)));
}
