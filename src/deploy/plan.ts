/**
 * What a deploy does, decided before anything is sent: which files differ from the bucket (by the
 * content hash each object carries in its metadata, so any machine can deploy with no local state),
 * in which order they go up, what is deleted, and which paths CloudFront must forget.
 *
 * Order, so that no donor is ever served a page whose files are not there yet: files that pages
 * reference (hashed bundles, images, styles, icons...) first, then the pages, then the service
 * worker (it precaches pages and assets), and deletions last.
 */
import { createHash } from "node:crypto";
import { headerRules, headersFor } from "../site-files/headers.js";
import { CONTENT_TYPES, contentTypeOf } from "./content-types.js";

/** The metadata key holding the hash (S3 sends it as `x-amz-meta-nzf-sha256`). */
export const HASH_METADATA = "nzf-sha256";

/** Files of the site that are instructions to other hosts, not served (docs/deploy.md). */
const NOT_UPLOADED = new Set(["_headers", "_redirects"]);

export type Phase = "assets" | "pages" | "worker";

export interface LocalFile {
  /** Relative to the site, with `/`: `about/index.html`. */
  key: string;
  hash: string;
}

export interface Upload extends LocalFile {
  phase: Phase;
  contentType: string;
  cacheControl: string;
}

/** What the bucket holds for a key, from its metadata. */
export interface RemoteObject {
  /** Null for an object nzf-build did not upload (no hash): it is replaced. */
  hash: string | null;
  /** When a deploy found this hashed file no longer used (ms since 1970). */
  retiredAt?: number;
  /**
   * The object's version as the bucket's listing shows it (ETag and last-modified time), when read:
   * an object listed with the same version as the last deploy recorded has the same bytes and
   * metadata (a copy that changes only the metadata changes the time), so it is not read again.
   */
  version?: string;
}

/** The metadata key marking a hashed file no longer used, with the time (ISO). */
export const RETIRED_METADATA = "nzf-retired";

/**
 * How long a hashed file (bundle, stylesheet, image) stays after the site stops using it: a donor
 * with a page open from before the deploy still loads its chunks and images from it.
 */
export const RETIRED_GRACE_MS = 48 * 3600_000;

export interface DeployPlan {
  /** In the order they are sent: assets, then pages, then the service worker. */
  uploads: Upload[];
  /** Files already in the bucket as they are here. */
  kept: number;
  /** Hashed files the site no longer uses, marked now and deleted once RETIRED_GRACE_MS has passed. */
  retire: string[];
  /** Objects no longer in the site (hashed ones retired long enough), deleted after every upload. */
  deletions: string[];
  /** CloudFront paths of the changed and deleted non-hashed files; `/*` when there are too many. */
  invalidations: string[];
}

/** Hashed names never change content, so CloudFront never needs to forget them. */
const IMMUTABLE = /^(_islands|_assets|_images)\//;

export function isUploaded(key: string): boolean {
  return !NOT_UPLOADED.has(key);
}

export function phaseOf(key: string): Phase {
  if (key === "sw.js") return "worker";
  return key.endsWith(".html") ? "pages" : "assets";
}

const RULES = headerRules("");

/** Cache-Control per docs/deploy.md, from the same rules as `_headers`; pages and the rest revalidate. */
export function cacheControlOf(key: string): string {
  return headersFor(RULES, `/${key}`)["Cache-Control"] ?? "no-cache";
}

/**
 * The hash stored with an object: of its bytes and of the headers it is served with, so a change of
 * cache policy uploads the files again with the new headers.
 */
export function objectHash(bytes: Buffer, key: string): string {
  return createHash("sha256")
    .update(bytes)
    .update(`\0${contentTypeOf(key)}\0${cacheControlOf(key)}`)
    .digest("hex");
}

/**
 * What an object's hash depends on besides its bytes: the rules that give each key its headers, and
 * the code applying them. A hash recorded under other rules is never reused (./site-hashes.ts).
 */
export const HASH_SCHEME = createHash("sha256")
  .update(JSON.stringify([RULES, CONTENT_TYPES]))
  .update([objectHash, contentTypeOf, cacheControlOf, headersFor].map(String).join("\n"))
  .digest("hex")
  .slice(0, 16);

/** The URLs a visitor uses for a file: a folder's index also by its folder (`/about/`). */
export function pathsOf(key: string): string[] {
  const url = `/${key}`;
  if (key === "index.html") return ["/", url];
  if (key.endsWith("/index.html")) return [url.slice(0, -"index.html".length), url];
  return [url];
}

/** More paths than this and the whole distribution is invalidated: one path, the same effect. */
export const MAX_INVALIDATION_PATHS = 100;

export function planDeploy(local: LocalFile[], remote: Map<string, RemoteObject>, now = Date.now()): DeployPlan {
  const order: Record<Phase, number> = { assets: 0, pages: 1, worker: 2 };
  const uploads: Upload[] = [];
  let kept = 0;
  const site = new Set<string>();
  for (const file of local) {
    if (!isUploaded(file.key)) continue;
    site.add(file.key);
    const there = remote.get(file.key);
    // A retired file the site uses again is uploaded again, which clears the mark.
    if (there?.hash === file.hash && there.retiredAt === undefined) {
      kept++;
      continue;
    }
    uploads.push({
      ...file,
      phase: phaseOf(file.key),
      contentType: contentTypeOf(file.key),
      cacheControl: cacheControlOf(file.key),
    });
  }
  uploads.sort((a, b) => order[a.phase] - order[b.phase] || a.key.localeCompare(b.key));
  const retire: string[] = [];
  const deletions: string[] = [];
  for (const [key, object] of [...remote].sort(([a], [b]) => a.localeCompare(b))) {
    if (site.has(key)) continue;
    if (!IMMUTABLE.test(key) || (object.retiredAt !== undefined && now - object.retiredAt >= RETIRED_GRACE_MS))
      deletions.push(key);
    else if (object.retiredAt === undefined) retire.push(key);
  }
  // A new object that was never served needs no invalidation, but CloudFront may have cached the
  // 404 for it: invalidating every changed non-hashed path covers both.
  const changed = [...uploads.map((u) => u.key), ...deletions].filter((key) => !IMMUTABLE.test(key));
  const paths = [...new Set(changed.flatMap(pathsOf))].sort();
  const invalidations = paths.length > MAX_INVALIDATION_PATHS ? ["/*"] : paths;
  return { uploads, kept, retire, deletions, invalidations };
}
