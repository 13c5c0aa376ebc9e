/**
 * Content problems the build survives but must name: a page whose title is empty (it is published
 * with a fallback title instead of an empty <h1>), a document routed by uid that has none (it has
 * no address, so it is left out), and a link or image whose URL would run script (dropped by the
 * templates, src/content/safe-url.ts), a contact e-mail, phone or ABN that is not one
 * (field-values.ts: left out of every page). Each names the document id, its type, the field and
 * the value, and says to fix it in Prismic.
 *
 * One is not a warning: calculator settings out of range (a rate of 20 %) make no calculator page,
 * so DOCUMENT_INVALID stops the build, after every problem of the run is listed, naming the document
 * rather than the template that would have thrown (src/pipeline/build.ts).
 *
 * They are warnings, not errors: the fix is an editor's, in Prismic, and the rest of the site is
 * still right to publish. Pure, so a render worker planning the build reports the same ones.
 */
import type { PrismicDocument } from "@prismicio/client";
import { DONATION_TYPES, REPEATABLE_TYPE_ROUTES, pathForDocument } from "./routes.js";
import { unsafeUrlReason, type UrlUse } from "./safe-url.js";
import { CONTACT_FIELDS } from "./field-values.js";
import { settingsFromPrismic, type CalculatePageData } from "../zakat/settings.js";

export interface ContentProblem {
  /**
   * DOCUMENT_INVALID and CONTENT_PRICE_INVALID stop the build (the page cannot be made from the
   * document: the calculator's settings, a price that cannot be charged; src/content/price-check.ts);
   * the others are warnings, the page made without the value.
   */
  code:
    | "DOCUMENT_FIELD_MISSING"
    | "DOCUMENT_UID_MISSING"
    | "UNSAFE_URL"
    | "DOCUMENT_FIELD_INVALID"
    | "DOCUMENT_INVALID"
    | "CONTENT_PRICE_INVALID";
  documentId: string;
  type: string;
  /** The field path inside the document's data, e.g. `body[2].spans[0].data`. */
  field: string;
  message: string;
}

/** Types whose page heading is the document's title, with nothing else to show in its place. */
const TITLED_TYPES = new Set<string>([...Object.keys(REPEATABLE_TYPE_ROUTES), ...DONATION_TYPES]);

/** The text of a Title field (or a plain string), trimmed. */
export function titleText(value: unknown): string {
  if (typeof value === "string") return value.trim();
  if (!Array.isArray(value)) return "";
  return value
    .map((block) =>
      block && typeof block === "object" && typeof (block as { text?: unknown }).text === "string"
        ? (block as { text: string }).text
        : "",
    )
    .join(" ")
    .trim();
}

/** What a page shows when its document has no title: its uid (or type) in words, `water-for-families` → `Water for families`. */
export function fallbackTitle(doc: { uid?: string | null; type: string }): string {
  const words = (doc.uid || doc.type).replace(/[-_\s]+/g, " ").trim();
  return words ? words[0]!.toUpperCase() + words.slice(1) : "Untitled";
}

function pathOf(keys: (string | number)[]): string {
  let path = "";
  for (const key of keys) path += typeof key === "number" ? `[${key}]` : path ? `.${key}` : key;
  return path;
}

const problemsByDocument = new WeakMap<PrismicDocument, ContentProblem[]>();

/** Every document's problems, in document order. Remembered per document object, as the image walk is (src/images/collect.ts). */
export function checkDocuments(documents: readonly PrismicDocument[]): ContentProblem[] {
  const out: ContentProblem[] = [];
  for (const doc of documents) {
    let found = problemsByDocument.get(doc);
    if (!found) problemsByDocument.set(doc, (found = checkDocument(doc)));
    out.push(...found);
  }
  return out;
}

export function checkDocument(doc: PrismicDocument): ContentProblem[] {
  const problems: ContentProblem[] = [];
  const about = `Document ${doc.id} (${doc.type})`;
  const add = (code: ContentProblem["code"], field: string, message: string) =>
    problems.push({ code, documentId: doc.id, type: doc.type, field, message });
  const data = (doc.data ?? {}) as Record<string, unknown>;
  if (doc.type in REPEATABLE_TYPE_ROUTES && !doc.uid) {
    add("DOCUMENT_UID_MISSING", "uid", `${about} has no uid, so it has no address: it is not published`);
  } else if (TITLED_TYPES.has(doc.type) && !titleText(data.title)) {
    add(
      "DOCUMENT_FIELD_MISSING",
      "title",
      `${about} has no title: its page ${pathForDocument(doc) ?? ""} shows "${fallbackTitle(doc)}" instead`,
    );
  }
  if (doc.type === "global") {
    for (const [field, rule] of Object.entries(CONTACT_FIELDS)) {
      const value = data[field];
      if (typeof value !== "string" || value.trim() === "" || rule.valid(value.trim())) continue;
      add(
        "DOCUMENT_FIELD_INVALID",
        field,
        `${about}, field ${field}: ${JSON.stringify(value)} is not ${rule.what}: every page leaves it out. Fix it in Prismic`,
      );
    }
  }
  if (doc.type === "calculate_page") {
    // The numbers the calculator works with, in range (the rates at most 10 %, the prices positive):
    // checked here so a bad one is the document's problem, named with the rest, not a template's.
    try {
      settingsFromPrismic(data as CalculatePageData, `${doc.type} ${doc.id}`);
    } catch (error) {
      const message = error instanceof Error ? error.message.replace(/^The calculator settings are invalid: /, "") : "";
      add(
        "DOCUMENT_INVALID",
        "calculator settings",
        `${about}: ${message} Fix it in Prismic; nothing is published until then`,
      );
    }
  }
  walkUrls(data, [], (field, url, use, what) => {
    const reason = unsafeUrlReason(url, use);
    if (reason) add("UNSAFE_URL", field, `${about}, field ${field}: ${reason} was dropped (${what})`);
  });
  return problems;
}

type OnUrl = (field: string, url: string, use: UrlUse, what: string) => void;

/** Finds the URLs the templates publish: link fields and rich-text links, images, embeds. */
function walkUrls(value: unknown, keys: (string | number)[], onUrl: OnUrl): void {
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      if (!value[i] || typeof value[i] !== "object") continue;
      keys.push(i);
      walkUrls(value[i], keys, onUrl);
      keys.pop();
    }
    return;
  }
  if (!value || typeof value !== "object") return;
  const record = value as Record<string, unknown>;
  if (typeof record.url === "string") {
    const image = record.type === "image" || ("dimensions" in record && typeof record.dimensions === "object");
    if (image) onUrl(pathOf(keys), record.url, "image", "the image is not shown");
    else if (typeof record.link_type === "string")
      onUrl(pathOf(keys), record.url, "link", "its text is kept without the link");
  }
  if (typeof record.embed_url === "string") onUrl(pathOf(keys), record.embed_url, "link", "the embed is not shown");
  for (const key in record) {
    const child = record[key];
    if (!child || typeof child !== "object" || key === "dimensions" || key === "edit") continue;
    keys.push(key);
    walkUrls(child, keys, onUrl);
    keys.pop();
  }
}
