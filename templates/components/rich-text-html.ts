/**
 * Prismic rich text to HTML without @prismicio/client's asHTML, which builds a keyed tree and a
 * serializer payload per node and was a large share of render time. The output is meant to be
 * byte-for-byte what `asHTML(field, { linkResolver, serializer: { image } })` returns (v7.22), so
 * this follows its algorithm (asTree's span splitting and serializerHelpers' markup) step by step,
 * quirks included. test/templates/rich-text-html.test.ts holds the two to the same output.
 *
 * Two deliberate differences: a URL that would run script (javascript:, vbscript:, data: other than
 * an image; src/content/safe-url.ts) is never written. Its link's text stays, without the link; its
 * image or embed is left out. The build names each one (src/content/content-checks.ts). And an
 * embed is a link card (embedHtml), never the provider's HTML. `linkExtra` (not asHTML's) lets the
 * caller mark a link, as rich-text.tsx marks one that leads to a page in another language.
 */
import type { FilledContentRelationshipField, RichTextField, RTImageNode } from "@prismicio/client";
import { isSafeUrl, type UrlUse } from "../../src/content/safe-url.js";

export interface RichTextHtmlOptions {
  /** Resolves a link to a document; null or undefined falls back to the link's own `url`, as asLink does. */
  linkResolver?: (link: FilledContentRelationshipField) => string | null | undefined;
  /** HTML for an image block; a falsy result falls back to asHTML's default `<p class="block-img">`. */
  image?: (node: RTImageNode) => string | null | undefined;
  /** Attributes for a link's `<a>` and HTML after its text, by the link's URL; nothing by default. */
  linkExtra?: (url: string) => { attributes: string; after: string } | null | undefined;
}

// Fields come from JSON we don't validate, so nodes and spans are read loosely, as asHTML does.
type RawNode = Record<string, any>;

export function richTextToHtml(field: RichTextField | null | undefined, options: RichTextHtmlOptions = {}): string {
  if (!field) return "";
  let html = "";
  for (let i = 0; i < field.length; i++) {
    const node: RawNode = field[i];
    const type = node.type;
    if (type === "list-item" || type === "o-list-item") {
      // asTree groups consecutive items of the same kind; a list-item after o-list-items starts a new list.
      let items = block(node, options);
      while (field[i + 1] && field[i + 1].type === type) items += block(field[++i], options);
      html += type === "list-item" ? `<ul>${items}</ul>` : `<ol>${items}</ol>`;
    } else {
      html += block(node, options);
    }
  }
  return html;
}

function block(node: RawNode, options: RichTextHtmlOptions): string {
  // Children are serialized even where the markup ignores them (preformatted, unknown types),
  // because asHTML does and the link resolver records dependencies as a side effect.
  let children = "";
  if ("text" in node) children = spansHtml(node.spans, node.text, 0, options, isPlain(node.text) ? asIs : textHtml);
  else if ("items" in node) for (let i = 0; i < node.items.length; i++) children += block(node.items[i], options);
  return element(node, node.text, children, options);
}

/**
 * asTree's span splitting: spans sorted by start (longest first); each span takes the later spans
 * it contains as children, and a span crossing its end is cut in two, the head nested inside it.
 */
function spansHtml(
  spans: RawNode[],
  text: string,
  offset: number,
  options: RichTextHtmlOptions,
  escape: (text: string) => string,
): string {
  if (!spans.length) return escape(text);
  const rest = spans.slice().sort(bySpan);
  let html = "";
  for (let i = 0; i < rest.length; i++) {
    const span = rest[i];
    const start = span.start - offset;
    const end = span.end - offset;
    const inner = text.slice(start, end);
    const children: RawNode[] = [];
    for (let j = i; j < rest.length; j++) {
      const other = rest[j];
      if (other === span) continue;
      if (other.start >= span.start && other.end <= span.end) {
        children.push(other);
        rest.splice(j--, 1);
      } else if (other.start < span.end && other.end > span.start) {
        children.push({ ...other, end: span.end });
        rest[j] = { ...other, start: span.end };
      }
    }
    if (i === 0 && start > 0) html += escape(text.slice(0, start));
    html += element(span, inner, spansHtml(children, inner, span.start || 0, options, escape), options);
    if (end < text.length) html += escape(text.slice(end, rest[i + 1] ? rest[i + 1].start - offset : undefined));
  }
  return html;
}

function bySpan(a: RawNode, b: RawNode): number {
  return a.start - b.start || b.end - a.end;
}

// asHTML looks serializers up by name, so the camel-case names it uses internally work as types too.
const TAGS: Record<string, string> = Object.assign(Object.create(null), {
  heading1: "h1",
  heading2: "h2",
  heading3: "h3",
  heading4: "h4",
  heading5: "h5",
  heading6: "h6",
  paragraph: "p",
  strong: "strong",
  em: "em",
  label: "span",
  "list-item": "li",
  listItem: "li",
  "o-list-item": "li",
  oListItem: "li",
  "group-list-item": "ul",
  list: "ul",
  "group-o-list-item": "ol",
  oList: "ol",
});

/** One node's markup; `text` is the node's own text (a span's slice), `children` its content. */
function element(node: RawNode, text: unknown, children: string, options: RichTextHtmlOptions): string {
  const type = node.type;
  const tag = TAGS[type];
  if (tag) return `<${tag}${attrs(node)}>${children}</${tag}>`;
  switch (type) {
    case "span":
      return textHtml(text);
    case "hyperlink":
      return link(node, children, options);
    case "preformatted":
      return `<pre${attrs(node)}>${escapeHtml("" + text)}</pre>`;
    case "image":
      if (isUnsafe(node.url, "image")) return "";
      return options.image?.(node as RTImageNode) || defaultImage(node, options);
    case "embed":
      return embedHtml(node);
    default:
      return "";
  }
}

/**
 * An embed as a link card: the title linked to the embedded page, and the provider's name. Never
 * the provider's `html`: it comes through the CMS as any text does, and asHTML publishes it raw
 * (a `<script>`, an `onerror`, an iframe from anywhere); the site's CSP allows no frame from a
 * video host either, so an iframe would show an empty box. The wrapper keeps asHTML's
 * `data-oembed*` attributes. An embed without a URL to link to shows nothing.
 */
export function embedHtml(node: RawNode): string {
  const oembed: RawNode = node.oembed ?? {};
  const url = typeof oembed.embed_url === "string" ? oembed.embed_url.trim() : "";
  if (!url || isUnsafe(url, "link")) return "";
  const title = typeof oembed.title === "string" && oembed.title.trim() ? oembed.title.trim() : url;
  const provider = typeof oembed.provider_name === "string" ? oembed.provider_name.trim() : "";
  const from = provider ? ` <span class="embed-provider">(${escapeHtml(provider)})</span>` : "";
  return `<div${attr("data-oembed", url)}${attr("data-oembed-type", oembed.type)}${attr("data-oembed-provider", provider)}${attrs(node)}><p class="embed-card"><a${attr("href", url)} rel="noopener noreferrer">${escapeHtml(title)}</a>${from}</p></div>`;
}

/** A URL that is there and must not be written (an empty one is left to asHTML's behaviour). */
function isUnsafe(url: unknown, use: UrlUse): boolean {
  return typeof url === "string" && url !== "" && !isSafeUrl(url, use);
}

function link(node: RawNode, children: string, options: RichTextHtmlOptions): string {
  const data = node.data;
  let href = "";
  let resolvedUrl: unknown = null;
  switch (data.link_type) {
    case "Web":
      if (isUnsafe(data.url, "link")) return unlinked(node, children);
      // asHTML adds rel to every web link, whether or not it opens a new tab.
      href = attr("href", data.url) + attr("target", data.target) + ' rel="noopener noreferrer"';
      break;
    case "Document": {
      const resolved =
        "id" in data && options.linkResolver ? options.linkResolver(data as FilledContentRelationshipField) : null;
      const url = resolved ?? ("url" in data && data.url ? data.url : null);
      if (isUnsafe(url, "link")) return unlinked(node, children);
      href = attr("href", url);
      resolvedUrl = url;
      break;
    }
    case "Media":
      if (isUnsafe(data.url, "link")) return unlinked(node, children);
      href = attr("href", data.url);
      break;
  }
  const url = data.link_type === "Document" ? resolvedUrl : data.url;
  const extra = typeof url === "string" && url ? options.linkExtra?.(url) : null;
  if (extra) return `<a${href}${extra.attributes}${attrs(node)}>${children}${extra.after}</a>`;
  return `<a${href}${attrs(node)}>${children}</a>`;
}

/** A link's content without the link: plain text, in a span when the link had a label (class) or direction. */
function unlinked(node: RawNode, children: string): string {
  const attributes = attrs(node);
  return attributes ? `<span${attributes}>${children}</span>` : children;
}

function defaultImage(node: RawNode, options: RichTextHtmlOptions): string {
  let img = `<img${attr("src", node.url)}${attr("alt", node.alt)}${attr("copyright", node.copyright)}${attrs(node)} />`;
  if (node.linkTo) img = link({ data: node.linkTo }, img, options);
  return `<p class="block-img">${img}</p>`;
}

/** The attributes asHTML adds to every element: right-to-left direction and a label as class. */
function attrs(node: RawNode): string {
  const dir = node.direction === "rtl" ? ' dir="rtl"' : "";
  const label = node.data?.label;
  return label ? dir + attr("class", label) : dir;
}

function attr(name: string, value: unknown): string {
  if (!value) return "";
  return typeof value === "boolean" ? ` ${name}` : ` ${name}="${escapeHtml("" + value)}"`;
}

const ENTITIES: Record<string, string> = {
  '"': "&quot;",
  "&": "&amp;",
  "'": "&#39;",
  "<": "&lt;",
  ">": "&gt;",
  "\n": "<br />",
};

// Most blocks need no escaping at all: one check of the whole text (indexOf is much faster than a
// regular expression here) spares a check of every piece the spans cut it into.
function isPlain(text: unknown): boolean {
  return (
    typeof text === "string" &&
    text.indexOf("&") < 0 &&
    text.indexOf("<") < 0 &&
    text.indexOf(">") < 0 &&
    text.indexOf('"') < 0 &&
    text.indexOf("'") < 0 &&
    text.indexOf("\n") < 0
  );
}

function asIs(text: string): string {
  return text;
}

/** Text between and inside spans: escaped, with line breaks as `<br />`. */
function textHtml(text: unknown): string {
  if (!text) return "";
  const s = "" + text;
  return /["&'<>\n]/.test(s) ? s.replace(/["&'<>\n]/g, (c) => ENTITIES[c]) : s;
}

function escapeHtml(text: string): string {
  return /["&'<>]/.test(text) ? text.replace(/["&'<>]/g, (c) => ENTITIES[c]) : text;
}
