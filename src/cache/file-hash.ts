/**
 * The sha1 of a file's bytes, remembered by the file's identity (./file-hash-memo.ts): the bundles'
 * inputs, the stylesheet's source, the site files' own inputs and the tool's build id are all checked
 * this way. Null when the file cannot be read.
 */
import { createHash } from "node:crypto";
import { memoizedHash } from "./file-hash-memo.js";

const sha1 = (bytes: Buffer) => createHash("sha1").update(bytes).digest("hex");

export async function hashFile(file: string): Promise<string | null> {
  return memoizedHash(file, "sha1", sha1);
}
