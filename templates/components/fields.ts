/**
 * Small readers for Prismic fields. Templates read loosely typed document data through these, so an
 * empty or missing field renders as nothing instead of throwing.
 */
import { asText } from "@prismicio/client";
import type { PrismicDocument, RichTextField } from "@prismicio/client";
import type { TemplateContext } from "../../src/render/types.js";

export type Data = Record<string, unknown>;

export function dataOf(doc: PrismicDocument | undefined): Data {
  return (doc?.data ?? {}) as Data;
}

/** A Key Text / Select / Number field as a string ("" when empty). */
export function str(data: Data, key: string): string {
  const value = data[key];
  return typeof value === "string" ? value : typeof value === "number" ? String(value) : "";
}

export function num(data: Data, key: string): number | undefined {
  const value = data[key];
  return typeof value === "number" && Number.isFinite(value) ? value : undefined;
}

export function rich(data: Data, key: string): RichTextField {
  const value = data[key];
  return Array.isArray(value) ? (value as RichTextField) : ([] as unknown as RichTextField);
}

/** Plain text of a Title or Rich Text field. */
export function plain(data: Data, key: string): string {
  const field = rich(data, key);
  return field.length ? asText(field) : str(data, key);
}

export function group(data: Data, key: string): Data[] {
  const value = data[key];
  return Array.isArray(value) ? (value as Data[]) : [];
}

export interface ImageValue {
  url: string;
  alt: string | null;
  width: number;
  height: number;
}

export function image(data: Data, key: string): ImageValue | undefined {
  const value = data[key] as { url?: string; alt?: string | null; dimensions?: { width: number; height: number } } | undefined;
  if (!value?.url) return undefined;
  return { url: value.url, alt: value.alt ?? null, width: value.dimensions?.width ?? 0, height: value.dimensions?.height ?? 0 };
}

// Intl formatters are expensive to create (about 2 ms each): make each once per bundle.
const dateFormats = new Map<string, Intl.DateTimeFormat>();

/** "2026-11-01" → "1 November 2026" (fixed locale and time zone so builds are deterministic). */
const formattedDates = new Map<string, string>();

export function formatDate(value: string, lang = "en-AU"): string {
  if (!/^\d{4}-\d{2}-\d{2}/.test(value)) return value;
  const locale = lang.startsWith("ar") ? "ar-AE" : "en-AU";
  const key = `${locale}|${value.slice(0, 10)}`;
  let text = formattedDates.get(key);
  if (text === undefined) {
    let format = dateFormats.get(locale);
    if (!format) dateFormats.set(locale, (format = new Intl.DateTimeFormat(locale, { day: "numeric", month: "long", year: "numeric", timeZone: "UTC" })));
    formattedDates.set(key, (text = format.format(new Date(value.slice(0, 10) + "T00:00:00Z"))));
  }
  return text;
}

const audWhole = new Intl.NumberFormat("en-AU", { style: "currency", currency: "AUD", maximumFractionDigits: 0 });
const audCents = new Intl.NumberFormat("en-AU", { style: "currency", currency: "AUD", minimumFractionDigits: 2 });

/** Dollars as "$1,250" (or "$12.50" when there are cents). */
export function aud(dollars: number): string {
  return (Number.isInteger(dollars) ? audWhole : audCents).format(dollars);
}

/** The page's visible title: a Title field, falling back to a given text. */
export function pageTitle(ctx: TemplateContext, fallback = ""): string {
  return plain(dataOf(ctx.doc), "title") || fallback;
}
