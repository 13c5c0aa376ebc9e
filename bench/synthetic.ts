/**
 * The synthetic repository of the benchmark: the sample's single documents (global, pages) without
 * images, plus generated blog articles and cases with realistic rich text, 2,000 in all.
 */
import type { PrismicDocument } from "@prismicio/client";

const WORDS =
  "zakat nisab wealth year families rent grant community support dignity casework emergency relief education local mosque volunteers application assessment payment trust transparency receipt giving charity obligation purification".split(
    " ",
  );

function sentence(seed: number, words = 14): string {
  const out: string[] = [];
  for (let i = 0; i < words; i++) out.push(WORDS[(seed * 31 + i * 17) % WORDS.length]!);
  const text = out.join(" ");
  return text[0]!.toUpperCase() + text.slice(1) + ".";
}

function richText(seed: number, linkTo: { id: string; type: string; uid: string }) {
  const paragraphs = [];
  for (let p = 0; p < 8; p++) {
    const text = [sentence(seed + p), sentence(seed + p + 1, 18), sentence(seed + p + 2, 11)].join(" ");
    paragraphs.push({
      type: "paragraph",
      text,
      spans: [
        { start: 0, end: 12, type: "strong" },
        {
          start: 20,
          end: 40,
          type: "hyperlink",
          data: { link_type: "Document", ...linkTo, lang: "en-au", isBroken: false },
        },
      ],
    });
    if (p === 3) paragraphs.push({ type: "heading2", text: sentence(seed, 5), spans: [] });
    if (p === 5)
      for (let i = 0; i < 4; i++) paragraphs.push({ type: "list-item", text: sentence(seed + i, 7), spans: [] });
  }
  return paragraphs;
}

function stripImages(value: unknown): unknown {
  if (Array.isArray(value))
    return value
      .filter((v) => !(v && typeof v === "object" && (v as { type?: string }).type === "image"))
      .map(stripImages);
  if (!value || typeof value !== "object") return value;
  const record = value as Record<string, unknown>;
  if (typeof record.url === "string" && "dimensions" in record) return {};
  return Object.fromEntries(Object.entries(record).map(([k, v]) => [k, stripImages(v)]));
}

export function syntheticDocuments(sample: PrismicDocument[], total = 2000): PrismicDocument[] {
  // Keep the singles and the few repeatables the templates need, without images.
  const base = sample
    .filter((d) => d.type !== "blog_article" && d.type !== "case")
    .map((d) => ({ ...d, data: stripImages(d.data) }) as PrismicDocument);
  const program = sample.find((d) => d.type === "program")!;
  const count = total - base.length;
  const docs: PrismicDocument[] = [...base];
  for (let i = 0; i < count; i++) {
    const n = String(i).padStart(5, "0");
    const isCase = i % 2 === 1;
    const type = isCase ? "case" : "blog_article";
    const uid = `${isCase ? "case" : "article"}-${n}`;
    const date = `20${20 + (i % 7)}-${String((i % 12) + 1).padStart(2, "0")}-${String((i % 27) + 1).padStart(2, "0")}`;
    const previous =
      i > 1
        ? {
            id: `syn${String(i - 2).padStart(5, "0")}`,
            type,
            uid: `${isCase ? "case" : "article"}-${String(i - 2).padStart(5, "0")}`,
          }
        : { id: program.id, type: "program", uid: program.uid! };
    docs.push({
      id: `syn${n}`,
      uid,
      url: null,
      type,
      href: "",
      tags: [],
      first_publication_date: `${date}T00:00:00+0000`,
      last_publication_date: `${date}T00:00:00+0000`,
      slugs: [],
      linked_documents: [],
      lang: "en-au",
      alternate_languages: [],
      data: isCase
        ? {
            title: [{ type: "heading1", text: sentence(i, 6), spans: [] }],
            summary: sentence(i + 1, 16),
            location: "Western Sydney",
            published: date,
            body: richText(i, previous),
            program: {
              link_type: "Document",
              id: program.id,
              type: "program",
              uid: program.uid,
              lang: "en-au",
              isBroken: false,
            },
          }
        : {
            title: [{ type: "heading1", text: sentence(i, 6), spans: [] }],
            excerpt: sentence(i + 2, 16),
            author: "NZF team",
            published: date,
            category: "zakat",
            body: richText(i, previous),
          },
    } as unknown as PrismicDocument);
  }
  return docs;
}
