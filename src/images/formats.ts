/**
 * Output formats and encoder settings, chosen from measurements on this 2-core machine (sharp 0.34.5,
 * libvips 8.17, one 2000 px photo made into 200/400/800/1600 px; see bench/images.ts):
 *
 *   JPEG q75            369 ms   bytes 12k / 40k / 107k / 274k
 *   JPEG q75 mozjpeg   1326 ms   bytes 10k / 35k / 100k / 247k
 *   WebP q75 effort 4  1372 ms   bytes 13k / 42k /  99k / 208k
 *   WebP q75 effort 2   928 ms   bytes 13k / 43k / 103k / 216k
 *   AVIF q50 effort 0  1900 ms   bytes 20k / 52k / 102k / 200k
 *   AVIF q50 effort 2  7900 ms   bytes 19k / 50k / 100k / 193k
 *   AVIF default (4)   ~20 s per width at 1600 px (74 s for one 2000 px image)
 *
 * AVIF only wins at the largest width and costs 1.4× (effort 0) to 6× (effort 2) the WebP time, so:
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
