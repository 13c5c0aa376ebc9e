/**
 * The sha1 of a file's bytes, kept in memory with the file's identity (src/core/fs.ts identityOf):
 * the bundles' inputs, the stylesheet's source, the site files' own inputs and the tool's build id
 * are all checked this way. Null when the file cannot be read.
 */
import { createHash } from "node:crypto";
import { readFile } from "node:fs/promises";
import { identityOf } from "../core/fs.js";

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
    const hash = createHash("sha1")
      .update(await readFile(file))
      .digest("hex");
    hashMemo.set(file, { identity, hash });
    return hash;
  } catch {
    return null;
  }
}
