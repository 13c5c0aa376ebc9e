/**
 * Finds every image in the content: image fields (and their responsive views), images inside rich
 * text, slice images, the global logo and social image. Each is reported with the document and
 * field path it came from, so an error can name them.
 */
import type { PrismicDocument } from "@prismicio/client";
import { isSafeUrl } from "../content/safe-url.js";

export interface ImageUse {
  url: string;
  documentId: string;
  /** Field path inside `data`, e.g. `slices[2].primary.image`. */
  field: string;
  width?: number;
  height?: number;
  alt?: string | null;
}

function isImageField(value: Record<string, unknown>): boolean {
  return typeof value.url === "string" && "dimensions" in value && typeof value.dimensions === "object";
}

/** Field path inside `data` from the walk's key stack, e.g. `slices[2].primary.image`. */
function pathOf(keys: (string | number)[]): string {
  let path = "";
  for (const key of keys) path += typeof key === "number" ? `[${key}]` : path ? `.${key}` : key;
  return path;
}

// The path is a stack of keys, joined only when an image is found: building a string for every
// node cost most of the walk's time on a large repository.
function walk(value: unknown, keys: (string | number)[], doc: PrismicDocument, out: ImageUse[]): void {
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const item: unknown = value[i];
      if (!item || typeof item !== "object") continue;
      keys.push(i);
      walk(item, keys, doc, out);
      keys.pop();
    }
    return;
  }
  if (!value || typeof value !== "object") return;
  const record = value as Record<string, unknown>;
  // An image URL that could run script is not an image to fetch: the templates leave it out and the build names it (src/content/content-checks.ts).
  if (
    (isImageField(record) || (record.type === "image" && typeof record.url === "string")) &&
    isSafeUrl(record.url, "image")
  ) {
    const dims = record.dimensions as { width?: number; height?: number } | undefined;
    out.push({
      url: record.url as string,
      documentId: doc.id,
      field: pathOf(keys),
      width: dims?.width,
      height: dims?.height,
      alt: (record.alt as string | null) ?? null,
    });
  }
  for (const key in record) {
    if (key === "url" || key === "dimensions" || key === "edit") continue;
    const child = record[key];
    if (!child || typeof child !== "object") continue;
    keys.push(key);
    walk(child, keys, doc, out);
    keys.pop();
  }
}

/**
 * Each document's images, remembered for as long as the document object lives: the webhook server
 * and watch mode keep unchanged documents between builds (src/content/snapshot.ts, loadSnapshot),
 * so only changed documents are walked again. Documents are never modified after they are loaded.
 */
const imagesByDocument = new WeakMap<PrismicDocument, ImageUse[]>();

export function collectImages(documents: readonly PrismicDocument[]): ImageUse[] {
  const uses: ImageUse[] = [];
  for (const doc of documents) {
    let found = imagesByDocument.get(doc);
    if (!found) {
      found = [];
      walk(doc.data, [], doc, found);
      imagesByDocument.set(doc, found);
    }
    uses.push(...found);
  }
  return uses;
}

/** The original image: Prismic image URLs carry imgix parameters (auto, fit, w…); the pipeline works from the source. */
export function originalUrl(url: string): string {
  const u = new URL(url);
  u.search = "";
  u.hash = "";
  return u.toString();
}
