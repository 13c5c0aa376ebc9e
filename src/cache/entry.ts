/**
 * The one way the on-disk caches (.nzf-cache/) keep and read what they made. Every family (the
 * stylesheet, compiled templates and workers, island bundles, images, icons, the service worker,
 * document hashes, the last build's record) goes through here, so each entry is checked the same
 * way before it is used:
 *
 * - **Keys**: `cacheKey(...parts)`, the sha256 of the parts as JSON, 20 hex characters. A key names
 *   what an entry was made from; it says nothing about whether the bytes on disk are still those.
 * - **Records**: one file, a header line `nzf-cache 1 sha256:<hex> <bytes>` and the payload. Read
 *   back, the payload must have that length and that hash, or the entry is a miss: a truncated,
 *   overwritten or hand-edited entry is made again, never used (one garbage stylesheet used to leave
 *   the whole published site unstyled).
 * - **Files a record lists** (bundles Node imports or the site publishes, processed images): kept as
 *   plain files, with their sha256 in the record; `verifyFiles` hashes them before the record is
 *   trusted, remembering a hash by the file's identity (inode, size, times; ./file-hash-memo.ts) so
 *   that a file no one wrote since is not read again, in this process or the next.
 *
 * A bad entry is a miss with a reason; `NZF_DEBUG=cache` prints each miss and why (./debug.ts).
 * What cannot be recovered (the cache folder cannot be written) is CACHE_UNUSABLE, whose hint is
 * about the cache, not the content.
 */
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { mkdir, readFile, realpath } from "node:fs/promises";
import { dirname } from "node:path";
import { NzfError } from "../core/errors.js";
import { writeFileAtomic } from "../core/fs.js";
import { memoizedHash } from "./file-hash-memo.js";
import { cacheDebug } from "./debug.js";

const MAGIC = "nzf-cache 1 sha256:";
const HEADER = /^nzf-cache 1 sha256:([0-9a-f]{64}) (\d+)\n/;

/** The key scheme of every cache family: what an entry is made from, hashed. */
export function cacheKey(...parts: unknown[]): string {
  return createHash("sha256").update(JSON.stringify(parts)).digest("hex").slice(0, 20);
}

/** The content hash records carry. */
export function hashBytes(data: string | Uint8Array): string {
  return createHash("sha256").update(data).digest("hex");
}

/** A payload in the record format. */
export function encodeEntry(payload: string | Uint8Array): Buffer {
  const body =
    typeof payload === "string"
      ? Buffer.from(payload)
      : Buffer.from(payload.buffer, payload.byteOffset, payload.byteLength);
  return Buffer.concat([Buffer.from(`${MAGIC}${hashBytes(body)} ${body.length}\n`), body]);
}

/** The payload of a record, or why it is not one. */
export function decodeEntry(bytes: Buffer): { payload: Buffer } | { bad: string } {
  const head = HEADER.exec(bytes.subarray(0, 128).toString("latin1"));
  if (!head) return { bad: "no cache header (not written by this cache, or overwritten)" };
  const payload = bytes.subarray(head[0].length);
  if (payload.length !== Number(head[2]))
    return { bad: `${payload.length} bytes where the header says ${head[2]} (truncated or appended to)` };
  if (hashBytes(payload) !== head[1]) return { bad: "its bytes do not match the hash in its header (corrupt)" };
  return { payload };
}

/** Why an entry read as a miss: absent (a plain miss) or bad (a corrupt entry, made again). */
function readMiss(family: string, file: string, error: unknown): null {
  const code = (error as NodeJS.ErrnoException).code;
  cacheDebug?.(
    family,
    code === "ENOENT" ? `miss ${file}: not there` : `miss ${file}: unreadable (${code ?? String(error)})`,
  );
  return null;
}

function checked(family: string, file: string, bytes: Buffer): Buffer | null {
  const entry = decodeEntry(bytes);
  if ("bad" in entry) {
    cacheDebug?.(family, `corrupt ${file}: ${entry.bad}; making it again`);
    return null;
  }
  return entry.payload;
}

/** A record's payload when it is there and whole, else null (made again by the caller). */
export async function readEntry(file: string, family: string): Promise<Buffer | null> {
  let bytes: Buffer;
  try {
    bytes = await readFile(file);
  } catch (error) {
    return readMiss(family, file, error);
  }
  return checked(family, file, bytes);
}

/** readEntry for callers that must not wait behind the event loop (starting a worker). */
export function readEntrySync(file: string, family: string): Buffer | null {
  let bytes: Buffer;
  try {
    bytes = readFileSync(file);
  } catch (error) {
    return readMiss(family, file, error);
  }
  return checked(family, file, bytes);
}

function parsed<T>(family: string, file: string, payload: Buffer | null): T | null {
  if (payload === null) return null;
  try {
    return JSON.parse(payload.toString("utf8")) as T;
  } catch {
    cacheDebug?.(family, `corrupt ${file}: not JSON; making it again`);
    return null;
  }
}

export async function readJsonEntry<T>(file: string, family: string): Promise<T | null> {
  return parsed<T>(family, file, await readEntry(file, family));
}

export function readJsonEntrySync<T>(file: string, family: string): T | null {
  return parsed<T>(family, file, readEntrySync(file, family));
}

/**
 * Writes a record whole or not at all (temporary file + rename). A cache that cannot be written is
 * CACHE_UNUSABLE: the build cannot go on without its folder, and the fix is the cache's, not the content's.
 */
export async function writeEntry(file: string, payload: string | Uint8Array): Promise<void> {
  try {
    await mkdir(dirname(file), { recursive: true });
    await writeFileAtomic(file, encodeEntry(payload));
  } catch (error) {
    throw cacheUnusable(file, error);
  }
}

export async function writeJsonEntry(file: string, value: unknown): Promise<void> {
  await writeEntry(file, JSON.stringify(value));
}

/**
 * A family's folder, made if missing, named by its real path. A work folder may link a family's
 * folder to one that several work folders share (the test suite's shared bundles, or a link a user
 * made): a record then lists its files by the path that holds for every work folder linking it,
 * and after the link it was written through is gone.
 */
export async function familyFolder(dir: string): Promise<string> {
  try {
    await mkdir(dir, { recursive: true });
    return await realpath(dir);
  } catch (error) {
    throw cacheUnusable(dir, error);
  }
}

/** The error for a cache folder the build cannot use. */
export function cacheUnusable(path: string, error: unknown): NzfError {
  const reason = (error as NodeJS.ErrnoException).code ?? (error instanceof Error ? error.message : String(error));
  return new NzfError("CACHE_UNUSABLE", `The build cache could not be written at ${path} (${reason}).`, {
    subject: path,
    cause: error,
  });
}

async function fileHash(path: string): Promise<string | null> {
  return memoizedHash(path, "sha256", hashBytes);
}

/** The hash of a file a record is about to list. */
export async function hashOfFile(path: string): Promise<string> {
  const hash = await fileHash(path);
  if (hash === null)
    throw new NzfError("INTERNAL", `A cache entry's file ${path} vanished while it was recorded`, { subject: path });
  return hash;
}

/** The hash of a file, or null when it cannot be read. */
export function hashOfFileOrNull(path: string): Promise<string | null> {
  return fileHash(path);
}

/** Null when every file has the hash its record lists, else why not (a miss: the entry is made again). */
export async function verifyFiles(
  files: Record<string, string>,
  family: string,
  entry: string,
): Promise<string | null> {
  const hashes = await Promise.all(Object.keys(files).map(fileHash));
  return explain(files, hashes, family, entry);
}

function explain(
  files: Record<string, string>,
  hashes: (string | null)[],
  family: string,
  entry: string,
): string | null {
  const paths = Object.keys(files);
  const index = hashes.findIndex((hash, i) => hash !== files[paths[i]!]);
  if (index < 0) return null;
  const reason =
    hashes[index] === null
      ? `${paths[index]} is missing`
      : `${paths[index]} does not match its recorded hash (corrupt)`;
  cacheDebug?.(family, `${hashes[index] === null ? "miss" : "corrupt"} ${entry}: ${reason}; making it again`);
  return reason;
}
