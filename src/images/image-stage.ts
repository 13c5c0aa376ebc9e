/**
 * The image stage: every image the content uses, downloaded once, made with sharp into the widths
 * and formats of src/images/sizes.ts and formats.ts, with an inline blurred placeholder, and cached
 * under `.nzf-cache/images` by the hash of the source bytes plus the transform, so a second build
 * runs no sharp operation at all. Failures are collected and reported together, each naming the
 * document and field. See src/images/README.md.
 */
import { availableParallelism } from "node:os";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import pLimit from "p-limit";
import type { PrismicDocument } from "@prismicio/client";
import { NzfAggregateError, NzfError } from "../core/errors.js";
import { formatMs, type Logger } from "../core/logger.js";
import { realSleep } from "../core/retry.js";
import { reportWarnings, type BuildWarning } from "../core/warnings.js";
import type { ImageLayout, ImageLookup } from "./types.js";
import { ImageCache, sha256, type CachedOutput, type Manifest } from "./cache.js";
import { collectImages, originalUrl, type ImageUse } from "./collect.js";
import { locateOriginal, type DownloadDeps } from "./download.js";
import type { ImageSourcePolicy } from "./source-policy.js";
import { TRANSFORM_VERSION } from "./formats.js";
import { createImageLookup } from "./image-lookup.js";
import { layoutsFor, mergeLayouts } from "./layout-policy.js";
import {
  encodeAll,
  extensionOf,
  outputTypes,
  passThroughType,
  readSourceInfo,
  sharpOperationCount,
  type Limit,
} from "./process.js";
import { widthsForLayouts } from "./sizes.js";
import { cacheKey } from "../cache/entry.js";

export { sharpOperationCount } from "./process.js";

/** What the lookup holds for an image the build refused: the templates leave it out. */
/** Originals downloaded at once: enough to hide a CDN's latency, few enough not to look like a flood. */
const DOWNLOAD_CONCURRENCY = 6;

const REFUSED: Manifest = { width: 0, height: 0, hasAlpha: false, format: "", outputs: [], refused: true };

export interface ImageStageOptions {
  /** Folder of local originals, by file name (content-cache/<snapshot>/images). */
  localDir?: string;
  /** The cache folder that survives builds (`.nzf-cache/images`). */
  cacheDir: string;
  /** Where images may come from (source-policy.ts): the content's Prismic repository and NZF_IMAGE_HOSTS. */
  policy: ImageSourcePolicy;
}

export interface ImageStageDeps {
  logger: Logger;
}

export interface ImageStageResult {
  lookup: ImageLookup;
  /** What the lookup is made from (source URL → manifest), for render workers to make their own. */
  manifests: [string, Manifest][];
  /** Files to publish: source path → path inside dist. Only what this build uses. */
  files: { from: string; to: string }[];
  count: number;
  stats: { made: number; cached: number; sharpOperations: number; ms: number };
}

interface Job {
  url: string;
  uses: ImageUse[];
  layouts: ImageLayout[];
}

function where(job: Pick<Job, "uses">): string {
  const first = job.uses[0]!;
  const more = job.uses.length > 1 ? ` (and ${job.uses.length - 1} more use${job.uses.length > 2 ? "s" : ""})` : "";
  return `document ${first.documentId}, field ${first.field}${more}`;
}

/** Content errors (declared zero or negative sizes) found before any work. */
function checkDeclared(uses: readonly ImageUse[]): NzfError[] {
  return uses
    .filter((u) => (u.width !== undefined && !(u.width > 0)) || (u.height !== undefined && !(u.height > 0)))
    .map(
      (u) =>
        new NzfError(
          "IMAGE_DIMENSIONS",
          `Image dimensions must be positive: ${u.url} is declared ${u.width}×${u.height}`,
          { subject: `document ${u.documentId}, field ${u.field}` },
        ),
    );
}

async function makeOne(
  job: Job,
  options: ImageStageOptions,
  deps: DownloadDeps,
  cache: ImageCache,
  limit: Limit,
): Promise<{ manifest: Manifest; made: boolean }> {
  const path = await locateOriginal(job.url, options.localDir, options.cacheDir, deps);
  const source = await cache.sourceHash(path);
  const key = cacheKey("image", source.hash, TRANSFORM_VERSION, job.layouts);
  const cached = await cache.manifest(key);
  // An SVG published as it is (as builds did before SVGs were drawn into pixels) is made again.
  if (cached && !cached.outputs.some((o) => o.type === "image/svg+xml")) return { manifest: cached, made: false };

  const bytes = source.bytes ?? (await readFile(path));
  const info = await readSourceInfo(bytes, limit);
  // Output names depend on the source and the transform only, so layouts share equal files.
  const stem = sha256(`${source.hash} ${TRANSFORM_VERSION}`).slice(0, 16);
  const outputs: CachedOutput[] = [];
  let placeholder: string | undefined;
  const through = passThroughType(info);
  if (through) {
    const file = `${stem}.${extensionOf(through)}`;
    const hash = await cache.writeOutput(file, bytes);
    outputs.push({ file, type: through, width: info.width, height: info.height, bytes: bytes.length, sha256: hash });
  } else {
    const widths = widthsForLayouts(job.layouts, info.width);
    const made = await encodeAll(bytes, info, { widths, types: outputTypes(info) }, limit);
    placeholder = made.placeholder;
    for (const out of made.outputs) {
      const file = `${stem}-${out.width}w.${extensionOf(out.type)}`;
      const hash = await cache.writeOutput(file, out.bytes);
      outputs.push({
        file,
        type: out.type,
        width: out.width,
        height: out.height,
        bytes: out.bytes.length,
        sha256: hash,
      });
    }
  }
  const manifest: Manifest = {
    width: info.width,
    height: info.height,
    hasAlpha: info.hasAlpha,
    format: info.format,
    outputs,
    placeholder,
  };
  await cache.writeManifest(key, manifest);
  return { manifest, made: true };
}

export async function runImageStage(
  documents: readonly PrismicDocument[],
  options: ImageStageOptions,
  deps: ImageStageDeps,
): Promise<ImageStageResult> {
  return runImageStageFor(collectImages(documents), options, deps);
}

/** runImageStage for the images collectImages found (a build plan carries them; see src/render/content-plan.ts). */
export async function runImageStageFor(
  uses: readonly ImageUse[],
  options: ImageStageOptions,
  deps: ImageStageDeps,
): Promise<ImageStageResult> {
  const started = performance.now();
  const opsBefore = sharpOperationCount();
  const failures = checkDeclared(uses);
  const bad = new Set(failures.map((f) => f.subject));

  const byUrl = new Map<string, Job>();
  for (const use of uses) {
    if (bad.has(`document ${use.documentId}, field ${use.field}`)) continue;
    const url = originalUrl(use.url);
    const job = byUrl.get(url) ?? { url, uses: [], layouts: [] };
    job.uses.push(use);
    byUrl.set(url, job);
  }
  const jobs = [...byUrl.values()].sort((a, b) => a.url.localeCompare(b.url));
  for (const job of jobs) job.layouts = mergeLayouts(job.uses.map(layoutsFor));

  // Parallel sharp operations: one per core.
  const cores = availableParallelism();
  const sharpLimit = pLimit(cores);
  // Twice the cores of images in flight keeps the CPU busy while bounding decoded pixels in memory.
  const imageLimit = pLimit(cores * 2);
  const downloadLimit = pLimit(DOWNLOAD_CONCURRENCY);
  const limitedDownloads: DownloadDeps = {
    logger: deps.logger,
    policy: options.policy,
    sleep: realSleep,
    random: Math.random,
    limit: downloadLimit,
  };
  const cache = new ImageCache(options.cacheDir);
  await cache.open();

  const manifests = new Map<string, Manifest>();
  const refusals: BuildWarning[] = [];
  let made = 0;
  let done = 0;
  // On a terminal, how far the images are: making them is most of a cold build.
  const progress = () => deps.logger.progress?.("images", `${done} of ${jobs.length}, ${made} made`);
  await Promise.all(
    jobs.map((job) =>
      imageLimit(async () => {
        try {
          const result = await makeOne(job, options, limitedDownloads, cache, sharpLimit);
          manifests.set(job.url, result.manifest);
          if (result.made) made += 1;
          done += 1;
          progress();
        } catch (error) {
          // Refused, not failed: the picture is left out and the rest of the site is still right to publish.
          if (error instanceof NzfError && error.code === "IMAGE_REFUSED") {
            manifests.set(job.url, REFUSED);
            refusals.push({ code: error.code, message: `${error.message} (${where(job)}): the picture is left out` });
            return;
          }
          const e =
            error instanceof NzfError
              ? error
              : new NzfError("IMAGE_METADATA", `Image ${job.url} could not be processed: ${(error as Error).message}`, {
                  cause: error,
                });
          failures.push(
            new NzfError(e.code, e.message.includes(job.url) ? e.message : `${e.message} (${job.url})`, {
              subject: where(job),
              cause: e.cause ?? (e === error ? undefined : error),
              hint: e.hint,
            }),
          );
        }
      }),
    ),
  );
  await cache.close();
  reportWarnings(deps.logger, "images", refusals);
  if (failures.length) throw failures.length === 1 ? failures[0] : new NzfAggregateError("image", failures);

  const files = new Map<string, { from: string; to: string }>();
  for (const manifest of manifests.values()) {
    for (const o of manifest.outputs)
      files.set(o.file, { from: join(cache.filesDir, o.file), to: `_images/${o.file}` });
  }
  const ms = performance.now() - started;
  const sharpOperations = sharpOperationCount() - opsBefore;
  const count = manifests.size - refusals.length;
  const refusedNote = refusals.length ? `, ${refusals.length} refused` : "";
  deps.logger.info(
    "images",
    `${count} images (${made} made, ${count - made} from cache${refusedNote}, ${files.size} files) in ${formatMs(ms)}`,
  );
  return {
    lookup: createImageLookup(manifests),
    manifests: [...manifests],
    files: [...files.values()].sort((a, b) => a.to.localeCompare(b.to)),
    count,
    stats: { made, cached: count - made, sharpOperations, ms },
  };
}
