/**
 * Originals: from the snapshot's local image folder when the file is there (the bundled sample needs
 * no network), otherwise downloaded once into the cache folder, keyed by URL (Prismic image URLs
 * are immutable: a changed image gets a new URL). Every URL is first checked against the source
 * policy (source-policy.ts), local copy or not. Downloads (image-request.ts: size cap, pace) retry
 * network errors, 429 and 5xx with the shared back-off (src/core/retry.ts), within a total time cap.
 */
import { createHash } from "node:crypto";
import { mkdir, stat } from "node:fs/promises";
import { basename, extname, join, resolve, sep } from "node:path";
import { NzfError } from "../core/errors.js";
import type { Logger } from "../core/logger.js";
import { writeFileAtomic } from "../core/fs.js";
import { backoffMs } from "../core/retry.js";
import { cacheUnusable, hashBytes, readJsonEntry, verifyFiles, writeJsonEntry } from "../cache/entry.js";
import { requestImage } from "./image-request.js";
import { imageUrlRefusal, refused, type ImageSourcePolicy } from "./source-policy.js";

export interface DownloadDeps {
  /** Where images may come from (source-policy.ts). */
  policy: ImageSourcePolicy;
  sleep: (ms: number) => Promise<void>;
  random: () => number;
  logger: Logger;
  /** Bounds parallel downloads; none by default. */
  limit?: <T>(fn: () => Promise<T>) => Promise<T>;
}

export const DOWNLOAD_ATTEMPTS = 4;

function fileName(url: string): string {
  return decodeURIComponent(basename(new URL(url).pathname));
}

/**
 * The original's path in the local images folder, or null when the file is not there. The name
 * comes from the content: `..%2F..%2Fetc%2Fhost.png` decodes to a path that leaves the folder, and
 * would publish a file of the build host. The name is resolved first, then must still be inside the
 * folder; a name that cannot be decoded or that leaves it is refused (IMAGE_REFUSED), never looked
 * up elsewhere.
 */
export async function localOriginal(url: string, localDir: string): Promise<string | null> {
  let name: string;
  try {
    name = fileName(url);
  } catch {
    throw new NzfError("IMAGE_REFUSED", `Image ${url} was refused: its file name is not valid percent-encoding`);
  }
  const folder = resolve(localDir);
  const local = resolve(folder, name);
  if (!local.startsWith(folder + sep))
    throw new NzfError(
      "IMAGE_REFUSED",
      `Image ${url} was refused: its file name ${JSON.stringify(name)} leaves the local images folder`,
    );
  return (await isFile(local)) ? local : null;
}

export function cachedOriginalPath(url: string, cacheDir: string): string {
  let name: string;
  try {
    name = fileName(url);
  } catch {
    name = basename(new URL(url).pathname);
  }
  const ext = extname(name)
    .toLowerCase()
    .replace(/[^.a-z0-9]/g, "")
    .slice(0, 6);
  return join(cacheDir, "originals", createHash("sha1").update(url).digest("hex") + ext);
}

async function isFile(path: string): Promise<boolean> {
  return stat(path).then(
    (s) => s.isFile(),
    () => false,
  );
}

/** The path of the original on disk, downloading it first if needed. */
export async function locateOriginal(
  url: string,
  localDir: string | undefined,
  cacheDir: string,
  deps: DownloadDeps,
): Promise<string> {
  // Checked first, whether or not a copy is at hand: the same content makes the same site.
  const why = imageUrlRefusal(url, deps.policy);
  if (why) throw refused(url, why);
  if (localDir) {
    const local = await localOriginal(url, localDir);
    if (local) return local;
  }
  const cached = cachedOriginalPath(url, cacheDir);
  // A kept original is used only with the bytes that were downloaded: a truncated one would fail in
  // sharp with a hint to replace an image that is fine in Prismic.
  const record = `${cached}.json`;
  const kept = (await isFile(cached)) ? await readJsonEntry<{ sha256?: string }>(record, "originals") : null;
  if (typeof kept?.sha256 === "string" && (await verifyFiles({ [cached]: kept.sha256 }, "originals", record)) === null)
    return cached;
  const bytes = await (deps.limit ?? ((fn) => fn()))(() => download(url, deps));
  try {
    await mkdir(join(cacheDir, "originals"), { recursive: true });
    await writeFileAtomic(cached, bytes);
  } catch (error) {
    throw cacheUnusable(cached, error);
  }
  await writeJsonEntry(record, { url, sha256: hashBytes(bytes) });
  return cached;
}

/** The whole download of one image, every attempt included, ends within this (a slow or stalled server). */
export const DOWNLOAD_TOTAL_MS = 30_000;

async function download(url: string, deps: DownloadDeps): Promise<Buffer> {
  const deadline = AbortSignal.timeout(DOWNLOAD_TOTAL_MS);
  let problem = "";
  for (let attempt = 1; ; attempt++) {
    let retryable = true;
    try {
      const response = await requestImage(url, deps.policy, deadline);
      if (response.ok) return response.bytes;
      problem = `HTTP ${response.status}`;
      retryable = response.status === 429 || response.status >= 500;
    } catch (error) {
      // Refused, too large or too slow: the same again would be, and a tarpit must not be given four chances.
      if (error instanceof NzfError) throw error;
      problem = `a network error (${(error as Error).message})`;
    }
    if (!retryable || attempt >= DOWNLOAD_ATTEMPTS) {
      throw new NzfError(
        "IMAGE_DOWNLOAD",
        `Image ${url} could not be downloaded after ${attempt} attempt${attempt === 1 ? "" : "s"}: ${problem}`,
      );
    }
    const wait = backoffMs(attempt, deps.random);
    deps.logger.warn("images", `${problem} for ${url}; retrying in ${wait} ms`);
    await deps.sleep(wait);
  }
}
