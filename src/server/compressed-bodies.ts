/**
 * Gzipped bodies kept for the next request that asks for the same bytes, shared by the static and
 * preview servers of a process. Each browser profile (a donor's fresh tab in a test, a developer's
 * private window) fetches the same islands, React chunks and pages, and gzip at level 6 spent about
 * 1 ms of CPU per 25 kB on each of them again (hosted-sign-in.test.ts: 471 bodies, 10 MB, 0.42 s).
 *
 * Kept by the SHA-256 of the uncompressed bytes, never by path or modification time: watch rewrites
 * files in place and by rename, sometimes twice within one tick of the file system's clock, and a
 * body whose bytes changed is simply another key, so nothing is ever served stale. Hashing costs
 * about a fiftieth of compressing. Memory is bounded: at most `budgetBytes` of compressed bodies,
 * the least recently served dropped first; a body larger than an eighth of the budget is compressed
 * each time and not kept.
 */
import { createHash } from "node:crypto";
import { gzipSync } from "node:zlib";

export interface CompressedBodies {
  /** `body` gzipped: from the cache when these bytes were compressed before. */
  gzip(body: Buffer | string): Buffer;
}

export const DEFAULT_BUDGET_BYTES = 32 * 1024 * 1024;

export function createCompressedBodies(budgetBytes = DEFAULT_BUDGET_BYTES): CompressedBodies {
  // A Map keeps insertion order: deleting and setting again on each hit makes the first key the least recent.
  const kept = new Map<string, Buffer>();
  let bytes = 0;
  return {
    gzip(body) {
      const key = createHash("sha256").update(body).digest("base64");
      const found = kept.get(key);
      if (found) {
        kept.delete(key);
        kept.set(key, found);
        return found;
      }
      const packed = gzipSync(body);
      if (packed.length > budgetBytes / 8) return packed;
      kept.set(key, packed);
      bytes += packed.length;
      for (const [oldest, value] of kept) {
        if (bytes <= budgetBytes) break;
        kept.delete(oldest);
        bytes -= value.length;
      }
      return packed;
    },
  };
}

/** The process's one cache: the servers it starts (and a test file's several) share its budget. */
export const compressedBodies: CompressedBodies = createCompressedBodies();
