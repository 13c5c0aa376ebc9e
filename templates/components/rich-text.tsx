/**
 * Rich text from Prismic as HTML. Links to documents go through the route table; images go through
 * the image pipeline; headings follow the page's outline (outlinedHeadings). The serializer (./rich-text-html.ts) escapes text
 * and matches @prismicio/client's asHTML byte for byte, only faster.
 */
import type { RichTextField } from "@prismicio/client";
import { renderToStaticMarkup } from "react-dom/server";
import type { TemplateContext } from "../../src/template-kit/types.js";
import { Picture } from "./picture.js";
import { richTextToHtml } from "./rich-text-html.js";
import { inEnglishWords } from "../i18n/in-english.js";
import { ENGLISH_HREFLANG, englishMarkHtml, leadsToEnglish } from "../../src/client/link-lang.js";

/**
 * Headings as the page's outline needs them: under the page's h1, a field's first heading is at
 * most an h2 and each next one at most one level below the one before ("Heading 3" straight after
 * the title is written as h2), so no level is skipped whatever levels the editor picked. Levels the
 * editor went back up to are kept.
 */
export function outlinedHeadings(field: RichTextField): RichTextField {
  let last = 1;
  let changed = false;
  const out = field.map((node) => {
    const match = /^heading([1-6])$/.exec(node.type);
    if (!match) return node;
    const level = Math.min(Math.max(Number(match[1]), 2), last + 1);
    last = level;
    if (`heading${level}` === node.type) return node;
    changed = true;
    return { ...node, type: `heading${level}` } as typeof node;
  });
  return changed ? (out as RichTextField) : field;
}

/**
 * On a page in another language than English, a link to a page only in English says so (the "EN"
 * mark, src/client/link-lang.tsx), as the menu's and the footer's do.
 */
export function richTextHtml(
  field: RichTextField,
  ctx: Pick<TemplateContext, "link" | "images"> & { page?: Pick<TemplateContext["page"], "lang"> },
): string {
  if (!field?.length) return "";
  const lang = ctx.page?.lang;
  const mark = lang ? englishMarkHtml(escapeHtml(inEnglishWords(lang))) : "";
  return richTextToHtml(outlinedHeadings(field), {
    linkResolver: (doc) => ctx.link({ ...doc, link_type: "Document" }),
    linkExtra: (url) =>
      lang && leadsToEnglish(url, lang) ? { attributes: ` hreflang="${ENGLISH_HREFLANG}"`, after: mark } : null,
    image: (node) =>
      `<figure class="rt-image">${renderToStaticMarkup(
        <Picture
          image={{ url: node.url, alt: node.alt ?? null, width: node.dimensions.width, height: node.dimensions.height }}
          images={ctx.images}
        />,
      )}${node.copyright ? `<figcaption>${escapeHtml(node.copyright)}</figcaption>` : ""}</figure>`,
  });
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"]/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" })[c]!);
}

export function RichText({
  field,
  ctx,
  className = "prose",
}: {
  field: RichTextField;
  ctx: TemplateContext;
  className?: string;
}) {
  const html = richTextHtml(field, ctx);
  if (!html) return null;
  return <div className={className} dangerouslySetInnerHTML={{ __html: html }} />;
}
