/**
 * The image stage (foundation version): every image the content uses is copied once into
 * `dist/_images/`, named by the hash of its bytes, with its real dimensions. The sharp pipeline
 * (responsive sizes, modern formats, placeholders) builds on this; see src/images/README.md.
 *
 * Originals come from the snapshot's local image folder when present (the bundled sample needs no
 * network), otherwise from the URL.
 */
import { createHash } from "node:crypto";
import { copyFile, mkdir, readFile, writeFile } from "node:fs/promises";
import { basename, extname, join } from "node:path";
import { NzfAggregateError, NzfError } from "../core/errors.js";
import type { Logger } from "../core/logger.js";
import type { ImageLookup, ImageSource } from "../render/types.js";
import { collectImages, originalUrl, type ImageUse } from "./collect.js";
import type { PrismicDocument } from "@prismicio/client";

export interface ImageStageOptions {
  /** Folder of local originals, by file name (content-cache/<snapshot>/images). */
  localDir?: string;
  /** Where originals downloaded from the network are kept between builds. */
  cacheDir: string;
}

export interface ImageStageDeps {
  fetch?: typeof globalThis.fetch;
  logger: Logger;
}

export interface ImageStageResult {
  lookup: ImageLookup;
  /** Files to publish: source path → path inside dist. */
  files: { from: string; to: string }[];
  count: number;
}

async function readOriginal(url: string, options: ImageStageOptions, deps: ImageStageDeps): Promise<{ bytes: Buffer; file: string }> {
  const name = decodeURIComponent(basename(new URL(url).pathname));
  if (options.localDir) {
    const local = join(options.localDir, name);
    try {
      return { bytes: await readFile(local), file: local };
    } catch {
      // not a local image: fall through to the download cache
    }
  }
  const cached = join(options.cacheDir, "originals", createHash("sha1").update(url).digest("hex") + extname(name));
  try {
    return { bytes: await readFile(cached), file: cached };
  } catch {
    const response = await (deps.fetch ?? fetch)(url);
    if (!response.ok) throw new Error(`HTTP ${response.status} for ${url}`);
    const bytes = Buffer.from(await response.arrayBuffer());
    await mkdir(join(options.cacheDir, "originals"), { recursive: true });
    await writeFile(cached, bytes);
    return { bytes, file: cached };
  }
}

export async function runImageStage(documents: readonly PrismicDocument[], options: ImageStageOptions, deps: ImageStageDeps): Promise<ImageStageResult> {
  const uses = collectImages(documents);
  const byUrl = new Map<string, ImageUse>();
  for (const use of uses) if (!byUrl.has(originalUrl(use.url))) byUrl.set(originalUrl(use.url), use);
  const sources = new Map<string, ImageSource>();
  const files: ImageStageResult["files"] = [];
  const failures: NzfError[] = [];
  for (const [url, use] of [...byUrl].sort(([a], [b]) => a.localeCompare(b))) {
    try {
      if (!use.width || !use.height || use.width <= 0 || use.height <= 0) {
        throw new NzfError("IMAGE_DIMENSIONS", `Image dimensions must be positive (got ${use.width}×${use.height})`, { subject: `${use.documentId} ${use.field}` });
      }
      const { bytes, file } = await readOriginal(url, options, deps);
      const ext = extname(new URL(url).pathname).toLowerCase() || ".jpg";
      const name = `${createHash("sha1").update(bytes).digest("hex").slice(0, 16)}${ext}`;
      files.push({ from: file, to: `_images/${name}` });
      const src = `/_images/${name}`;
      sources.set(url, { src, width: use.width, height: use.height, sources: [] });
    } catch (error) {
      failures.push(
        error instanceof NzfError
          ? error
          : new NzfError("IMAGE_DOWNLOAD", `Image ${url} could not be read`, { subject: `document ${use.documentId}, field ${use.field}`, cause: error }),
      );
    }
  }
  if (failures.length) throw failures.length === 1 ? failures[0] : new NzfAggregateError("image", failures);
  deps.logger.debug("images", `${sources.size} images`);
  return { lookup: { get: (url) => sources.get(originalUrl(url)) }, files, count: sources.size };
}

export async function publishImageFiles(files: ImageStageResult["files"], siteDir: string): Promise<void> {
  await mkdir(join(siteDir, "_images"), { recursive: true });
  await Promise.all(files.map((f) => copyFile(f.from, join(siteDir, f.to))));
}
