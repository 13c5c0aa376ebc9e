/**
 * Output formats and encoder settings, chosen from measurements of each format's encode time and
 * bytes at the site's widths (bench/images.ts prints them; the figures are in the commit that chose
 * these). AVIF only wins at the largest width and costs several times the WebP time, so:
 * WebP (effort 4) as the modern format, plain JPEG as the fallback for opaque images and PNG for
 * images with transparency (JPEG would flatten the alpha to black). Changing any value here changes
 * TRANSFORM_VERSION's hash, so every image is made again once.
 */
export const WEBP = { quality: 75, effort: 4 } as const;
export const JPEG = { quality: 75, mozjpeg: false } as const;
export const PNG = { compressionLevel: 6 } as const;
export const PLACEHOLDER_WEBP = { quality: 50, effort: 4 } as const;

export type OutputType = "image/webp" | "image/jpeg" | "image/png" | "image/gif" | "image/svg+xml";

export const EXTENSION: Record<OutputType, string> = {
  "image/webp": "webp",
  "image/jpeg": "jpg",
  "image/png": "png",
  "image/gif": "gif",
  "image/svg+xml": "svg",
};

/** Bump when the processing changes in a way the settings above do not capture. */
export const TRANSFORM_VERSION = JSON.stringify({ v: 1, WEBP, JPEG, PNG, PLACEHOLDER_WEBP });
