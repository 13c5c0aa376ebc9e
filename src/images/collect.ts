/**
 * Finds every image in the content: image fields (and their responsive views), images inside rich
 * text, slice images, the global logo and social image. Each is reported with the document and
 * field path it came from, so an error can name them.
 */
import type { PrismicDocument } from "@prismicio/client";

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

function walk(value: unknown, path: string, doc: PrismicDocument, out: ImageUse[]): void {
  if (Array.isArray(value)) {
    value.forEach((item, i) => walk(item, `${path}[${i}]`, doc, out));
    return;
  }
  if (!value || typeof value !== "object") return;
  const record = value as Record<string, unknown>;
  if (isImageField(record) || (record.type === "image" && typeof record.url === "string")) {
    const dims = record.dimensions as { width?: number; height?: number } | undefined;
    out.push({ url: record.url as string, documentId: doc.id, field: path, width: dims?.width, height: dims?.height, alt: (record.alt as string | null) ?? null });
  }
  for (const [key, child] of Object.entries(record)) {
    if (key === "url" || key === "dimensions" || key === "edit") continue;
    walk(child, path ? `${path}.${key}` : key, doc, out);
  }
}

export function collectImages(documents: readonly PrismicDocument[]): ImageUse[] {
  const uses: ImageUse[] = [];
  for (const doc of documents) walk(doc.data, "", doc, uses);
  return uses;
}

/** The original image: Prismic image URLs carry imgix parameters (auto, fit, w…); the pipeline works from the source. */
export function originalUrl(url: string): string {
  const u = new URL(url);
  u.search = "";
  u.hash = "";
  return u.toString();
}
