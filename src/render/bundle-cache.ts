/**
 * Caches an esbuild result by the content of its inputs. esbuild's metafile lists every file a bundle
 * read; when none of them changed (and the lock file did not), the previous output is reused and
 * esbuild is not run at all. This is what makes a no-change rebuild cheap.
 */
import { createHash } from "node:crypto";
import { readFile, writeFile, mkdir, rm } from "node:fs/promises";
import { identityOf } from "../core/fs.js";
import { join, resolve } from "node:path";

export interface BundleRecord<T> {
  /** Input file (relative to the project root) → sha1 of its content. */
  inputs: Record<string, string>;
  /** What the bundler produced, as the caller describes it. */
  result: T;
}

/**
 * Hashes by file, with the file's identity when hashed: a long-running process (watch mode, the
 * webhook server) checks hundreds of bundle inputs every build, and a stat is much cheaper than
 * reading and hashing a file that did not change.
 */
const hashMemo = new Map<string, { identity: string; hash: string }>();

export async function hashFile(file: string): Promise<string | null> {
  const identity = await identityOf(file);
  if (identity === null) return null;
  try {
    const known = hashMemo.get(file);
    if (known?.identity === identity) return known.hash;
    const hash = createHash("sha1").update(await readFile(file)).digest("hex");
    hashMemo.set(file, { identity, hash });
    return hash;
  } catch {
    return null;
  }
}

/** Hashes of the given inputs; node_modules inputs are summarised by the lock file. */
export async function hashInputs(root: string, inputs: string[]): Promise<Record<string, string>> {
  const hashes: Record<string, string> = {};
  const own = inputs.filter((i) => !i.includes("node_modules/") && !i.includes(":")).sort();
  await Promise.all(
    own.map(async (input) => {
      hashes[input] = (await hashFile(resolve(root, input))) ?? "missing";
    }),
  );
  hashes["package-lock.json"] = (await hashFile(join(root, "package-lock.json"))) ?? "missing";
  return hashes;
}

export async function readBundleRecord<T>(file: string, root: string): Promise<BundleRecord<T> | null> {
  let record: BundleRecord<T>;
  try {
    record = JSON.parse(await readFile(file, "utf8")) as BundleRecord<T>;
  } catch {
    return null;
  }
  const current = await hashInputs(root, Object.keys(record.inputs));
  for (const [input, hash] of Object.entries(record.inputs)) {
    if (current[input] !== hash) return null;
  }
  return record;
}

export async function writeBundleRecord<T>(file: string, record: BundleRecord<T>): Promise<void> {
  await mkdir(join(file, ".."), { recursive: true });
  await writeFile(file, JSON.stringify(record, null, 1));
}

export async function clearDir(dir: string): Promise<void> {
  await rm(dir, { recursive: true, force: true });
  await mkdir(dir, { recursive: true });
}
