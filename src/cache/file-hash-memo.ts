/**
 * The hashes of files, remembered by the file's identity (inode, size, modification and change
 * times; src/core/fs.ts) in this process and, once a file has settled, between processes in
 * `.nzf-cache/file-hashes.json`. Before a CLI build can use its bundles it checks about 300 files:
 * the bundles' sources and the compiled files their records list. Reading and hashing each of them
 * in every new process kept the build's thread busy while the render threads start on the same
 * cores; one stat a file tells the same.
 *
 * Any write to a file moves its change time, which no program can set, so a file with the identity
 * it had when hashed still holds those bytes (git's index trusts the same). The exception is a file
 * written again within the clock's granularity of being hashed: it may keep its identity with other
 * bytes (git's "racy" files). So a hash is kept between processes only for a file last modified
 * SETTLED_MS before it was read; a fresher one is kept in this process, as before, and hashed again
 * by the next. (A link or a change of mode moves only the change time: the identity changes, and
 * the file is read again, but its bytes did not change, so they need not have settled.)
 */
import { readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { identityOfStats } from "../core/fs.js";
import { readJsonEntrySync, writeJsonEntry } from "./entry.js";

/** Coarser than any file system's timestamps (FAT's are 2 s). */
const SETTLED_MS = 2000;
const FAMILY = "file-hashes";

export type HashKind = "sha1" | "sha256";

interface Known {
  identity: string;
  hashes: Partial<Record<HashKind, string>>;
  /** Whether the file had settled when read: only then is the hash written for the next process. */
  settled: boolean;
}

interface StoredHashes {
  files: Record<string, { identity: string; hashes: Partial<Record<HashKind, string>> }>;
}

const memo = new Map<string, Known>();
/** Where the memo is kept between processes, once a build named its work folder. */
let store: { file: string; changed: boolean } | null = null;
/** Files looked up or hashed by this process: what it writes back (files gone since are forgotten). */
const used = new Set<string>();

/** Reads what earlier processes hashed; a missing or damaged file is an empty memo. */
export function loadFileHashes(workDir: string): void {
  const file = join(workDir, "file-hashes.json");
  if (store?.file === file) return;
  store = { file, changed: false };
  const stored = readJsonEntrySync<StoredHashes>(file, FAMILY);
  if (!stored?.files || typeof stored.files !== "object") return;
  for (const [path, known] of Object.entries(stored.files)) {
    if (typeof known?.identity !== "string" || typeof known.hashes !== "object") continue;
    if (!memo.has(path)) memo.set(path, { identity: known.identity, hashes: { ...known.hashes }, settled: true });
  }
}

/** Writes the settled hashes this process used, when it learnt any new one. */
export async function saveFileHashes(): Promise<void> {
  if (!store?.changed) return;
  store.changed = false;
  const files: StoredHashes["files"] = {};
  for (const path of [...used].sort()) {
    const known = memo.get(path);
    if (known?.settled) files[path] = { identity: known.identity, hashes: known.hashes };
  }
  await writeJsonEntry(store.file, { files } satisfies StoredHashes);
}

/** The file's hash of this kind, from the memo when its identity is unchanged; null when it cannot be read. */
export function memoizedHash(path: string, kind: HashKind, hash: (bytes: Buffer) => string): string | null {
  try {
    const info = statSync(path);
    const identity = identityOfStats(info);
    used.add(path);
    let known = memo.get(path);
    const value = known?.identity === identity ? known.hashes[kind] : undefined;
    if (value !== undefined) return value;
    const settled = info.mtimeMs < Date.now() - SETTLED_MS;
    const bytes = readFileSync(path);
    // Read whole, then checked again: a file that changed meanwhile is hashed but not remembered.
    const after = statSync(path);
    const fresh = hash(bytes);
    if (identityOfStats(after) !== identity) return fresh;
    if (known?.identity !== identity) known = { identity, hashes: {}, settled };
    known.hashes[kind] = fresh;
    memo.set(path, known);
    if (settled && store) store.changed = true;
    return fresh;
  } catch {
    return null;
  }
}
