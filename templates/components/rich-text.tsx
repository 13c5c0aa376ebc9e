/**
 * Rich text from Prismic as HTML. Links to documents go through the route table; images go through
 * the image pipeline; headings keep their levels. The serializer (./rich-text-html.ts) escapes text
 * and matches @prismicio/client's asHTML byte for byte, only faster.
 */
import type { RichTextField } from "@prismicio/client";
import { renderToStaticMarkup } from "react-dom/server";
import type { TemplateContext } from "../../src/template-kit/types.js";
import { Picture } from "./picture.js";
import { richTextToHtml } from "./rich-text-html.js";

export function richTextHtml(field: RichTextField, ctx: Pick<TemplateContext, "link" | "images">): string {
  if (!field?.length) return "";
  return richTextToHtml(field, {
    linkResolver: (doc) => ctx.link({ ...doc, link_type: "Document" }),
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
