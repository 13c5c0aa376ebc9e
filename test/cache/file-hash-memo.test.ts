/**
 * File hashes kept between processes by the file's identity (src/cache/file-hash-memo.ts). Each
 * "process" here is a fresh copy of the module (vi.resetModules), as a new CLI run would load it.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { createHash } from "node:crypto";
import { mkdtemp, readFile, rm, utimes, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { tmpdir } from "node:os";
import { encodeEntry } from "../../src/cache/entry.js";

type Memo = typeof import("../../src/cache/file-hash-memo.js");
const newProcess = async (): Promise<Memo> => {
  vi.resetModules();
  return import("../../src/cache/file-hash-memo.js");
};
const sha1 = (bytes: Buffer | string) => createHash("sha1").update(bytes).digest("hex");

let dir: string;
let workDir: string;
let file: string;
const anHourAgo = () => new Date(Date.now() - 3_600_000);

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "nzf-file-hashes-"));
  workDir = join(dir, ".nzf-cache");
  file = join(dir, "layout.tsx");
  await writeFile(file, "export const layout = 1;");
  await utimes(file, anHourAgo(), anHourAgo());
});
afterEach(() => rm(dir, { recursive: true, force: true }));

/** Rewrites the stored hash of `file`: a later process that returns it did not read the file. */
async function forgeStoredHash(forged: string): Promise<void> {
  const store = join(workDir, "file-hashes.json");
  const text = (await readFile(store, "utf8")).split("\n").slice(1).join("\n");
  const stored = JSON.parse(text) as { files: Record<string, { hashes: { sha1: string } }> };
  stored.files[file]!.hashes.sha1 = forged;
  await writeFile(store, encodeEntry(JSON.stringify(stored)));
}

describe("file hashes between processes", () => {
  it("a later process trusts a settled file's recorded hash until the file is written again", async () => {
    const first = await newProcess();
    first.loadFileHashes(workDir);
    expect(first.memoizedHash(file, "sha1", sha1)).toBe(sha1("export const layout = 1;"));
    await first.saveFileHashes();

    await forgeStoredHash("f".repeat(40));
    const second = await newProcess();
    second.loadFileHashes(workDir);
    expect(second.memoizedHash(file, "sha1", sha1)).toBe("f".repeat(40));

    // Same size, times set back: the change time still moves, so the file is read again.
    await writeFile(file, "export const layout = 2;");
    await utimes(file, anHourAgo(), anHourAgo());
    const third = await newProcess();
    third.loadFileHashes(workDir);
    expect(third.memoizedHash(file, "sha1", sha1)).toBe(sha1("export const layout = 2;"));
  });

  it("does not keep the hash of a file written moments ago for the next process", async () => {
    await writeFile(file, "export const layout = 3;");
    const first = await newProcess();
    first.loadFileHashes(workDir);
    expect(first.memoizedHash(file, "sha1", sha1)).toBe(sha1("export const layout = 3;"));
    await first.saveFileHashes();
    await expect(readFile(join(workDir, "file-hashes.json"))).rejects.toMatchObject({ code: "ENOENT" });
  });

  it("reads every file again when the stored hashes are damaged, and keeps kinds apart", async () => {
    const first = await newProcess();
    first.loadFileHashes(workDir);
    first.memoizedHash(file, "sha1", sha1);
    await first.saveFileHashes();
    const store = join(workDir, "file-hashes.json");
    await writeFile(store, (await readFile(store, "utf8")).replace('"sha1":"', '"sha1":"0'));

    const second = await newProcess();
    second.loadFileHashes(workDir);
    expect(second.memoizedHash(file, "sha1", sha1)).toBe(sha1("export const layout = 1;"));
    const sha256 = (bytes: Buffer) => createHash("sha256").update(bytes).digest("hex");
    expect(second.memoizedHash(file, "sha256", sha256)).toBe(sha256(Buffer.from("export const layout = 1;")));
    expect(second.memoizedHash(join(dir, "missing.tsx"), "sha1", sha1)).toBeNull();
  });
});
