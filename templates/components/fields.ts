/**
 * Small readers for Prismic fields. Templates read loosely typed document data through these, so an
 * empty or missing field renders as nothing instead of throwing.
 */
import { CONTACT_FIELDS, type ContactField } from "../../src/content/field-values.js";
import { asText } from "@prismicio/client";
import type { PrismicDocument, RichTextField } from "@prismicio/client";
import type { TemplateContext } from "../../src/template-kit/types.js";
import { fallbackTitle } from "../../src/content/content-checks.js";
import { MONTHS } from "../../src/core/months.js";

export type Data = Record<string, unknown>;

export function dataOf(doc: PrismicDocument | undefined): Data {
  return (doc?.data ?? {}) as Data;
}

/** A Key Text / Select / Number field as a string ("" when empty). */
export function str(data: Data, key: string): string {
  const value = data[key];
  return typeof value === "string" ? value : typeof value === "number" ? String(value) : "";
}

/**
 * A contact fact of the global document (e-mail, phone, ABN), trimmed, or "" when it is not one: a
 * bad value is left out of every page and named by the build (src/content/field-values.ts).
 */
export function contactField(data: Data, key: ContactField): string {
  const value = str(data, key).trim();
  return value && CONTACT_FIELDS[key].valid(value) ? value : "";
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
  const value = data[key] as
    | { url?: string; alt?: string | null; dimensions?: { width: number; height: number } }
    | undefined;
  if (!value?.url) return undefined;
  return {
    url: value.url,
    alt: value.alt ?? null,
    width: value.dimensions?.width ?? 0,
    height: value.dimensions?.height ?? 0,
  };
}

// Australian English is formatted by hand: a thread's first Intl formatter loads ICU's data, which
// every render worker of a new process paid before its first page. Other languages use Intl, one
// formatter each per bundle. test/templates/fields-format.test.ts holds the two to the same text.
const dateFormats = new Map<string, Intl.DateTimeFormat>();

/** "2026-11-01" → "1 November 2026" (fixed locale and time zone so builds are deterministic). */
export function formatDate(value: string, lang = "en-AU"): string {
  if (!/^\d{4}-\d{2}-\d{2}/.test(value)) return value;
  const date = new Date(value.slice(0, 10) + "T00:00:00Z");
  if (!lang.startsWith("ar") && !Number.isNaN(date.getTime()))
    return `${date.getUTCDate()} ${MONTHS[date.getUTCMonth()]} ${date.getUTCFullYear()}`;
  const locale = lang.startsWith("ar") ? "ar-AE" : "en-AU";
  let format = dateFormats.get(locale);
  if (!format)
    dateFormats.set(
      locale,
      (format = new Intl.DateTimeFormat(locale, { day: "numeric", month: "long", year: "numeric", timeZone: "UTC" })),
    );
  return format.format(date);
}

const withCommas = (digits: string) => digits.replace(/\B(?=(\d{3})+(?!\d))/g, ",");

/** Dollars as "$1,250" (or "$12.50" when there are cents), as en-AU's currency format writes them. */
export function aud(dollars: number): string {
  const text = String(Math.abs(dollars));
  if (!Number.isFinite(dollars) || text.includes("e"))
    return (Number.isInteger(dollars) ? audWhole() : audCents()).format(dollars);
  const sign = dollars < 0 || Object.is(dollars, -0) ? "-" : "";
  if (Number.isInteger(dollars)) return `${sign}$${withCommas(text)}`;
  // Intl rounds the shortest decimal that reads back as the number ("1.005"), half away from zero.
  const [whole, fraction] = text.split(".") as [string, string];
  const cents = BigInt(whole + fraction.slice(0, 2).padEnd(2, "0")) + (fraction.charCodeAt(2) >= 53 ? 1n : 0n);
  const digits = cents.toString().padStart(3, "0");
  return `${sign}$${withCommas(digits.slice(0, -2))}.${digits.slice(-2)}`;
}

// Only for numbers too large or small to write by hand (never a real amount).
let intlWhole: Intl.NumberFormat | undefined;
let intlCents: Intl.NumberFormat | undefined;
const audWhole = () =>
  (intlWhole ??= new Intl.NumberFormat("en-AU", { style: "currency", currency: "AUD", maximumFractionDigits: 0 }));
const audCents = () =>
  (intlCents ??= new Intl.NumberFormat("en-AU", { style: "currency", currency: "AUD", minimumFractionDigits: 2 }));

/**
 * The page's visible title: a Title field, falling back to a given text, else to the document's
 * uid in words. A page never ships an empty <h1>; the build warns about the missing title
 * (src/content/content-checks.ts).
 */
export function pageTitle(ctx: TemplateContext, fallback = ""): string {
  return plain(dataOf(ctx.doc), "title").trim() || fallback || (ctx.doc ? fallbackTitle(ctx.doc) : "");
}

/** A document's title wherever it is shown (cards, links to it), with the same fallback as its page. */
export function docTitle(doc: PrismicDocument): string {
  return plain(dataOf(doc), "title").trim() || fallbackTitle(doc);
}
