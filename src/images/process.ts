/**
 * The one place sharp is used. Each source is decoded once (auto-rotated by its EXIF orientation,
 * metadata dropped) into raw pixels; every width, format and the placeholder are `clone()`s of that
 * one raw pipeline, so a 6000 px JPEG is not decompressed eight times. Every sharp call goes through
 * `run()`, which counts it (tests prove a warm build does no sharp work) and bounds it to the core
 * count.
 */
import type { Sharp } from "sharp";
import { NzfError } from "../core/errors.js";
import { EXTENSION, JPEG, PLACEHOLDER_WEBP, PNG, WEBP, type OutputType } from "./formats.js";
import { PLACEHOLDER_BLUR, PLACEHOLDER_WIDTH } from "./sizes.js";

type SharpFactory = typeof import("sharp");
let sharpModule: Promise<SharpFactory> | undefined;
/** sharp is heavy: load it only when an image actually needs processing. */
const loadSharp = () => (sharpModule ??= import("sharp").then((m) => (m.default ?? m) as SharpFactory));

let operations = 0;
/** sharp operations run by this process so far (metadata reads, decodes, encodes). */
export function sharpOperationCount(): number {
  return operations;
}

export type Limit = <T>(fn: () => Promise<T>) => Promise<T>;

export interface SourceInfo {
  format: string;
  /** After EXIF auto-rotation. */
  width: number;
  height: number;
  hasAlpha: boolean;
  /** More than one frame (animated GIF/WebP): published as is, not resized. */
  animated: boolean;
  /** SVG only: the density it is drawn at (72 is its own size), so the largest width needed is sharp. */
  density?: number;
}

/**
 * SVGs are drawn into pixels (librsvg, through sharp) and published as WebP and PNG like any
 * picture: an SVG published as it is runs its scripts when opened as a document, and no scrubbing
 * of an XML language with scripts, events, foreign objects and external references is as sure as
 * publishing none of it. librsvg runs no script and, given bytes without a base URL, loads nothing
 * (test/images/svg.test.ts). A vector is drawn at least 1600 px wide (2 × the constrained width),
 * so a small logo stays sharp, within a quarter of the pixel cap.
 */
export function svgDensity(width: number, height: number): number {
  const wanted = Math.max(1, 1600 / width);
  const allowed = Math.sqrt(MAX_INPUT_PIXELS / 4 / (width * height));
  // librsvg takes 1 to 100000; an SVG too large even at 1 is then refused by the pixel cap.
  return Math.max(1, 72 * Math.max(Math.min(wanted, allowed, 16), Math.min(1, allowed)));
}

export interface EncodedOutput {
  type: OutputType;
  width: number;
  height: number;
  bytes: Buffer;
}

const METADATA_MESSAGE = "Something went wrong fetching the image metadata";

/**
 * The most pixels a source may have: 50 megapixels (8000 × 6000 is 48). A 750 KB PNG can declare
 * 256 megapixels and take gigabytes to decode; the header says so before any decoding, and sharp is
 * also given the cap (`limitInputPixels`) for every decode, in case a header understates it.
 */
export const MAX_INPUT_PIXELS = 50_000_000;

/** Reads the header; a clear error when it cannot be read or the dimensions are not positive. */
export async function readSourceInfo(bytes: Buffer, limit: Limit): Promise<SourceInfo> {
  const sharp = await loadSharp();
  let meta: Awaited<ReturnType<Sharp["metadata"]>>;
  try {
    meta = await limit(() => {
      operations += 1;
      // The header only (no decoding): the pixel count is checked below, with the dimensions named.
      return sharp(bytes, { limitInputPixels: false }).metadata();
    });
  } catch (error) {
    throw new NzfError("IMAGE_METADATA", METADATA_MESSAGE, { cause: error });
  }
  const width = meta.autoOrient?.width ?? meta.width;
  const height = meta.autoOrient?.height ?? meta.height;
  if (!meta.format || width === undefined || height === undefined)
    throw new NzfError("IMAGE_METADATA", METADATA_MESSAGE);
  if (!(width > 0 && height > 0))
    throw new NzfError("IMAGE_DIMENSIONS", `Image dimensions must be positive (the file says ${width}×${height})`);
  if (meta.format === "svg") {
    const density = svgDensity(width, height);
    const scale = density / 72;
    return {
      format: "svg",
      width: Math.max(1, Math.round(width * scale)),
      height: Math.max(1, Math.round(height * scale)),
      hasAlpha: true,
      animated: false,
      density,
    };
  }
  const pixels = width * height;
  if (pixels > MAX_INPUT_PIXELS)
    throw new NzfError(
      "IMAGE_TOO_LARGE",
      `Image is ${width}×${height} pixels (${(pixels / 1e6).toFixed(0)} megapixels): more than the ${MAX_INPUT_PIXELS / 1e6} the build decodes`,
    );
  return { format: meta.format, width, height, hasAlpha: Boolean(meta.hasAlpha), animated: (meta.pages ?? 1) > 1 };
}

export interface EncodePlan {
  widths: number[];
  /** Modern format first, then the fallback. */
  types: OutputType[];
}

/** The formats for a source: WebP plus JPEG, or PNG when there is transparency to keep. */
export function outputTypes(info: SourceInfo): OutputType[] {
  return ["image/webp", info.hasAlpha ? "image/png" : "image/jpeg"];
}

function encoder(pipeline: Sharp, type: OutputType): Sharp {
  if (type === "image/webp") return pipeline.webp(WEBP);
  if (type === "image/png") return pipeline.png(PNG);
  return pipeline.jpeg(JPEG);
}

/** Decodes once, then makes every width in every format and the placeholder from clones of the pixels. */
export async function encodeAll(
  bytes: Buffer,
  info: SourceInfo,
  plan: EncodePlan,
  limit: Limit,
): Promise<{ outputs: EncodedOutput[]; placeholder?: string }> {
  const sharp = await loadSharp();
  let raw: { data: Buffer; info: { width: number; height: number; channels: 1 | 2 | 3 | 4 } };
  try {
    raw = await limit(() => {
      operations += 1;
      // failOn "error": a truncated file fails here instead of publishing a half-grey picture.
      return sharp(bytes, { failOn: "error", limitInputPixels: MAX_INPUT_PIXELS, density: info.density })
        .rotate()
        .raw()
        .toBuffer({ resolveWithObject: true }) as Promise<typeof raw>;
    });
  } catch (error) {
    throw new NzfError("IMAGE_METADATA", `${METADATA_MESSAGE}: the file could not be decoded (corrupt or truncated?)`, {
      cause: error,
    });
  }
  const pixels = sharp(raw.data, {
    raw: { width: raw.info.width, height: raw.info.height, channels: raw.info.channels },
  });
  const encode = (width: number, type: OutputType): Promise<EncodedOutput> =>
    limit(async () => {
      operations += 1;
      const out = await encoder(pixels.clone().resize({ width, withoutEnlargement: true }), type).toBuffer({
        resolveWithObject: true,
      });
      return { type, width: out.info.width, height: out.info.height, bytes: out.data };
    });
  const jobs = plan.widths.flatMap((w) => plan.types.map((t) => encode(w, t)));
  // No placeholder behind transparent images: it would show through the transparent parts.
  const placeholderJob = info.hasAlpha
    ? Promise.resolve(undefined)
    : limit(async () => {
        operations += 1;
        const small = pixels
          .clone()
          .resize({ width: Math.min(PLACEHOLDER_WIDTH, info.width), withoutEnlargement: true })
          .blur(PLACEHOLDER_BLUR);
        return `data:image/webp;base64,${(await small.webp(PLACEHOLDER_WEBP).toBuffer()).toString("base64")}`;
      });
  const [outputs, placeholder] = await Promise.all([Promise.all(jobs), placeholderJob]);
  return { outputs, placeholder };
}

/** Animated images are published as they are (resizing would lose the animation); SVGs never are (svgDensity). */
export function passThroughType(info: SourceInfo): OutputType | undefined {
  if (info.animated && info.format === "gif") return "image/gif";
  if (info.animated && info.format === "webp") return "image/webp";
  return undefined;
}

export function extensionOf(type: OutputType): string {
  return EXTENSION[type];
}
