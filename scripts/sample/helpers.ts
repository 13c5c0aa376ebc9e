/**
 * Small builders for Prismic field JSON, so the sample content reads like content and not like
 * nested objects. Everything here returns exactly what the Prismic v2 API returns for a field,
 * except document links, which are placeholders until generate.ts resolves them against the real
 * documents (so a link to a document that does not exist fails the generation).
 */
import { createHash } from "node:crypto";

export type Lang = "en-au" | "ar-ae";
export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
export type Data = Record<string, Json>;

/** One document as authored; generate.ts turns it into the API shape. */
export interface DocSpec {
  type: string;
  uid?: string;
  lang?: Lang;
  tags?: string[];
  /** Day of first publication, YYYY-MM-DD. */
  published: string;
  /** Day of the last edit, YYYY-MM-DD; defaults to `published`. */
  updated?: string;
  /** The text Prismic derives the document's slug from (usually the title). */
  slugFrom: string;
  data: Data;
}

export const SAMPLE_REPOSITORY = "nzf-sample";
export const IMAGE_BASE = `https://images.prismic.io/${SAMPLE_REPOSITORY}/`;

export function hash(text: string, length = 16): string {
  return createHash("sha256")
    .update(text)
    .digest("base64")
    .replace(/[^A-Za-z0-9]/g, "")
    .slice(0, length);
}

/** Prismic document ids are 16 opaque characters; ours are derived from type, uid and language. */
export function documentId(type: string, uid: string | undefined, lang: Lang = "en-au"): string {
  return hash(`${type}/${uid ?? ""}/${lang}`);
}

// ---------- Rich text ----------

type Span = { start: number; end: number; type: "strong" | "em" | "hyperlink"; data?: Json };
type Block = { [key: string]: Json };

/**
 * Inline markup: **strong**, *em*, [text](target) where target is a URL, `doc:type` or
 * `doc:type/uid`, either with `@ar-ae` for the document in that language. Not nested; that is all the sample needs.
 */
function inline(markup: string): { text: string; spans: Span[] } {
  const pattern = /\*\*(.+?)\*\*|\*(.+?)\*|\[(.+?)\]\((.+?)\)/g;
  let text = "";
  const spans: Span[] = [];
  let last = 0;
  for (const match of markup.matchAll(pattern)) {
    text += markup.slice(last, match.index);
    const start = text.length;
    if (match[1] !== undefined) {
      text += match[1];
      spans.push({ start, end: text.length, type: "strong" });
    } else if (match[2] !== undefined) {
      text += match[2];
      spans.push({ start, end: text.length, type: "em" });
    } else {
      text += match[3];
      spans.push({ start, end: text.length, type: "hyperlink", data: target(match[4]!) });
    }
    last = match.index! + match[0].length;
  }
  text += markup.slice(last);
  return { text, spans };
}

function target(spec: string): Json {
  if (spec.startsWith("doc:")) {
    // "doc:type/uid@ar-ae": a document in another language than English.
    const [path, lang] = spec.slice(4).split("@");
    const [type, uid] = path!.split("/");
    return docLink(type!, uid || undefined, (lang as Lang | undefined) ?? "en-au");
  }
  return web(spec, !spec.startsWith("mailto:") && !spec.startsWith("tel:"));
}

const block =
  (type: string) =>
  (markup: string): Block => ({ type, ...inline(markup) });
export const p = block("paragraph");
export const h2 = block("heading2");
export const h3 = block("heading3");
export const h4 = block("heading4");
export const ul = (...items: string[]): Block[] => items.map(block("list-item"));
export const ol = (...items: string[]): Block[] => items.map(block("o-list-item"));

/** A rich text field from blocks (lists are arrays of blocks, flattened here). */
export function rt(...blocks: (Json | Json[])[]): Json[] {
  return blocks.flat(1) as Json[];
}

/** A Title field (heading1 only). */
export function title(text: string): Json[] {
  return [{ type: "heading1", text, spans: [] }];
}

/** Plain paragraphs, one per argument. */
export function paras(...texts: string[]): Json[] {
  return texts.map(p);
}

// ---------- Images ----------

const dimensions = new Map<string, { width: number; height: number }>();

/** generate.ts reads the real files first, so every image's stated size is its actual size. */
export function setImageDimensions(sizes: Map<string, { width: number; height: number }>): void {
  dimensions.clear();
  for (const [file, size] of sizes) dimensions.set(file, size);
}

/** An Image field. `alt: null` marks a deliberately decorative image. */
export function image(file: string, alt: string | null, copyright: string | null = null): Data {
  const size = dimensions.get(file);
  if (!size)
    throw new Error(`Sample image ${file} does not exist in content-cache/sample/images (run make-images.mjs)`);
  return {
    dimensions: { width: size.width, height: size.height },
    alt,
    copyright,
    url: `${IMAGE_BASE}${file}?auto=format,compress`,
    id: hash(`image/${file}`),
    edit: { x: 0, y: 0, zoom: 1, background: "transparent" },
  };
}

/** An image block inside rich text. */
export function imageBlock(file: string, alt: string | null): Block {
  const { dimensions: dims, alt: a, copyright, url, id, edit } = image(file, alt);
  return { type: "image", url, alt: a, copyright, dimensions: dims, id, edit } as Block;
}

export const emptyImage = (): Data => ({});

// ---------- Links ----------

/** A link to another sample document; resolved (and checked) by generate.ts. */
export function docLink(type: string, uid?: string, lang: Lang = "en-au"): Data {
  return { __link: { type, uid: uid ?? null, lang } };
}

export function web(url: string, blank = false): Data {
  return blank ? { link_type: "Web", url, target: "_blank" } : { link_type: "Web", url };
}

export const emptyLink = (): Data => ({ link_type: "Any" });

// ---------- SEO tab and slices ----------

export function seo(meta: { title?: string; description?: string; image?: Data } = {}): Data {
  return {
    meta_title: meta.title ?? null,
    meta_description: meta.description ?? null,
    meta_image: meta.image ?? {},
  };
}

/** A shared slice; its id is assigned by generate.ts from the document and position. */
export function slice(sliceType: string, primary: Data, items: Data[] = []): Data {
  return { slice_type: sliceType, slice_label: null, variation: "default", version: "initial", primary, items };
}

export const textBlock = (heading: string | null, content: Json[]) => slice("text_block", { heading, content });
export const imageWithText = (img: Data, heading: string, content: Json[], side: "left" | "right") =>
  slice("image_with_text", { image: img, heading, content, image_side: side });
export const callToAction = (heading: string, text: Json[], label: string, link: Data) =>
  slice("call_to_action", { heading, text, button_label: label, button_link: link });
export const faqList = (heading: string, faqs: [string, Json[]][]) =>
  slice(
    "faq_list",
    { heading },
    faqs.map(([question, answer]) => ({ question, answer })),
  );
export const cardGrid = (heading: string, cards: { title: string; text: Json[]; image: Data; link: Data }[]) =>
  slice(
    "card_grid",
    { heading },
    cards.map((c) => ({ card_title: c.title, card_text: c.text, card_image: c.image, card_link: c.link })),
  );
export const quote = (text: string, attribution: string) => slice("quote", { quote: [p(text)], attribution });
export const stats = (heading: string, figures: [string, string][]) =>
  slice(
    "stats",
    { heading },
    figures.map(([value, label]) => ({ value, label })),
  );

/** Alt text for the generated scenes: what each picture actually shows. */
export const ALT: Record<string, string> = {
  "hero-home.jpg": "Purple gradient with golden arches",
  "hero-about.jpg": "Teal gradient with arches",
  "hero-apply.jpg": "Sand-coloured arches",
  "hero-cases.jpg": "Violet gradient with soft circles",
  "hero-learn.jpg": "Olive gradient with arches",
  "hero-programs.jpg": "Teal gradient with circles",
  "hero-zakat.jpg": "Purple arches and circles",
  "hero-ramadan.jpg": "Gold accents over a night-blue gradient",
  "hero-qurban.jpg": "Sand-coloured arches with circles",
  "hero-sadaqah.jpg": "Rose-coloured gradient with soft circles",
  "hero-purify.jpg": "Olive-green gradient with arches",
  "feature-emergency.jpg": "Rose-red gradient with overlapping circles",
  "feature-education.jpg": "Violet and navy gradient with circles",
  "feature-housing.jpg": "Olive-green gradient with arch shapes",
  "feature-family.jpg": "Teal gradient with soft circles",
};

/** The same descriptions in Arabic, for the Arabic documents (arabic.ts): an Arabic page describes its pictures in Arabic. */
export const ALT_AR: Record<string, string> = {
  "hero-home.jpg": "تدرّج بنفسجي مع أقواس ذهبية",
  "hero-about.jpg": "تدرّج أزرق مخضرّ مع أقواس",
  "hero-apply.jpg": "أقواس بلون الرمل",
  "hero-cases.jpg": "تدرّج بنفسجي مع دوائر ناعمة",
  "hero-learn.jpg": "تدرّج زيتوني مع أقواس",
  "hero-programs.jpg": "تدرّج أزرق مخضرّ مع دوائر",
  "hero-zakat.jpg": "أقواس ودوائر بنفسجية",
  "hero-ramadan.jpg": "لمسات ذهبية فوق تدرّج أزرق ليلي",
  "hero-qurban.jpg": "أقواس بلون الرمل مع دوائر",
  "hero-sadaqah.jpg": "تدرّج وردي مع دوائر ناعمة",
  "hero-purify.jpg": "تدرّج أخضر زيتوني مع أقواس",
  "feature-emergency.jpg": "تدرّج أحمر وردي مع دوائر متداخلة",
  "feature-education.jpg": "تدرّج بنفسجي وكحلي مع دوائر",
  "feature-housing.jpg": "تدرّج أخضر زيتوني مع أشكال أقواس",
  "feature-family.jpg": "تدرّج أزرق مخضرّ مع دوائر ناعمة",
};

/** An image with its standard alt text. */
export const scene = (file: string): Data => image(file, ALT[file] ?? null);

/** An image with its Arabic alt text (an English picture description has no place on an Arabic page). */
export const sceneAr = (file: string): Data => image(file, ALT_AR[file] ?? null);

/**
 * The Arabic document's copy of an English document's image: its Arabic description, or none where
 * the English one has none (decoration). An English description with no Arabic one stops the generator.
 */
export function arabicImage(english: Data): Data {
  const file = String(english.url ?? "")
    .split("/")
    .pop()!
    .split("?")[0]!;
  if (english.alt === null || english.alt === undefined) return { ...english, alt: null };
  const alt = ALT_AR[file];
  if (!alt) throw new Error(`No Arabic alt text for ${file} (add it to ALT_AR in scripts/sample/helpers.ts)`);
  return { ...english, alt };
}
