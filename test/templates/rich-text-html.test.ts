/**
 * The rich text serializer (templates/components/rich-text-html.ts) against the library it replaces:
 * @prismicio/client's asHTML is the reference, never our own earlier output. Every rich text field
 * of the sample snapshot, hand-written edge cases and a few thousand seeded random fields must give
 * byte-identical HTML and the same link resolver and image calls, in the same order (the link
 * resolver records page dependencies, so its calls matter as much as the markup).
 */
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { asHTML, type FilledContentRelationshipField, type RichTextField, type RTImageNode } from "@prismicio/client";
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { createContentGraph } from "../../src/content/graph.js";
import { readSnapshot } from "../../src/content/snapshot.js";
import type { ImageLookup, TemplateContext } from "../../src/template-kit/types.js";
import { Picture } from "../../templates/components/picture.js";
import { outlinedHeadings, RichText, richTextHtml } from "../../templates/components/rich-text.js";
import { embedHtml, richTextToHtml, type RichTextHtmlOptions } from "../../templates/components/rich-text-html.js";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "../..");

type Call = [kind: "link" | "image", arg: unknown];
type Outcome = { html: string; calls: Call[] };
type Options = Required<Omit<RichTextHtmlOptions, "linkExtra">>;
type Any = any;

const NOTHING = "<!--nothing-->";

/** asHTML with the given link resolver and image serializer, recording what they were called with. */
function reference(field: unknown, options: Partial<Options>): Outcome {
  const calls: Call[] = [];
  const { linkResolver, image } = options;
  // Embeds are ours by design (a link card, never the provider's HTML: embedHtml, tested below).
  const html = asHTML(field as RichTextField, {
    linkResolver: linkResolver && ((doc) => (calls.push(["link", doc]), linkResolver(doc))),
    serializer: {
      ...(image && { image: ({ node }) => (calls.push(["image", node]), image(node)) }),
      // asHTML takes "" as "use the default": an empty card is marked, then removed.
      embed: ({ node }) => embedHtml(node) || NOTHING,
    },
  }).replaceAll(NOTHING, "");
  return { html, calls };
}

function ours(field: unknown, options: Partial<Options>): Outcome {
  const calls: Call[] = [];
  const { linkResolver, image } = options;
  const html = richTextToHtml(field as RichTextField, {
    linkResolver: linkResolver && ((doc) => (calls.push(["link", doc]), linkResolver(doc))),
    image: image && ((node) => (calls.push(["image", node]), image(node))),
  });
  return { html, calls };
}

/** Why the two differ (null when they don't): the HTML, or the calls (compared by identity). */
function difference(a: Outcome, b: Outcome): string | null {
  if (a.html !== b.html) return `html differs:\n  asHTML: ${a.html}\n  ours:   ${b.html}`;
  if (
    a.calls.length !== b.calls.length ||
    a.calls.some(([kind, arg], i) => kind !== b.calls[i][0] || arg !== b.calls[i][1])
  ) {
    return `calls differ:\n  asHTML: ${JSON.stringify(a.calls)}\n  ours:   ${JSON.stringify(b.calls)}`;
  }
  return null;
}

function expectSame(field: unknown, options: Partial<Options> = EDGE_OPTIONS): string {
  const expected = reference(field, options);
  const actual = ours(field, options);
  expect(difference(expected, actual), JSON.stringify(field)).toBeNull();
  return actual.html;
}

// Resolved, null (falls back to the link's url), undefined, empty, and a URL that needs escaping.
function linkResolver(doc: FilledContentRelationshipField): string | null | undefined {
  const id = doc.id ?? "";
  if (id.endsWith("0")) return null;
  if (id.endsWith("1")) return undefined;
  if (id.endsWith("2")) return "";
  return `/docs/${doc.uid ?? id}/?a=1&b="2"`;
}

// An empty result makes asHTML fall back to its default image markup; ours must too.
function image(node: RTImageNode): string {
  return node.id?.endsWith("0") ? "" : `<figure data-id="${node.id}">${node.alt ?? ""}</figure>`;
}

const EDGE_OPTIONS: Options = { linkResolver, image };

// ---------------------------------------------------------------------------------------------
// Field builders for the hand-written cases.

const p = (text: string, spans: Any[] = [], extra: Any = {}): Any => ({ type: "paragraph", text, spans, ...extra });
const block = (type: string, text: string, spans: Any[] = [], extra: Any = {}): Any => ({
  type,
  text,
  spans,
  ...extra,
});
const li = (text: string, extra: Any = {}): Any => block("list-item", text, [], extra);
const oli = (text: string, extra: Any = {}): Any => block("o-list-item", text, [], extra);
const span = (type: string, start: number, end: number, data?: Any): Any =>
  data === undefined ? { start, end, type } : { start, end, type, data };
const strong = (start: number, end: number) => span("strong", start, end);
const em = (start: number, end: number) => span("em", start, end);
const label = (start: number, end: number, name: string) => span("label", start, end, { label: name });
const web = (start: number, end: number, url: string, target?: string) =>
  span("hyperlink", start, end, target === undefined ? { link_type: "Web", url } : { link_type: "Web", url, target });
const doc = (start: number, end: number, id: string, extra: Any = {}) =>
  span("hyperlink", start, end, {
    link_type: "Document",
    id,
    type: "page",
    tags: [],
    lang: "en-au",
    uid: `uid-${id}`,
    slug: "s",
    isBroken: false,
    ...extra,
  });
const media = (start: number, end: number, url: string) =>
  span("hyperlink", start, end, { link_type: "Media", kind: "document", name: "f.pdf", size: "1", url });
const imageBlock = (id: string, extra: Any = {}): Any => ({
  type: "image",
  id,
  url: `https://images.prismic.io/x/${id}.jpg?auto=format&w=10`,
  alt: 'An "image" & more',
  copyright: "© NZF <2024>",
  dimensions: { width: 1600, height: 900 },
  edit: { x: 0, y: 0, zoom: 1, background: "transparent" },
  ...extra,
});
const embed = (oembed: Any, extra: Any = {}): Any => ({ type: "embed", oembed, ...extra });

describe("richTextToHtml: hand-written edge cases match asHTML", () => {
  const cases: Record<string, Any[]> = {
    "empty field": [],
    "empty text": [p("")],
    "empty text with a zero-length span": [p("", [strong(0, 0)])],
    "characters that need escaping": [p(`Tom & Jerry's <b>"quote"</b> > 1 &amp; 'x'`)],
    "newlines, including leading, trailing and doubled": [p("\nline one\nline two\n\nend\n")],
    "newline inside a span": [p("ab\ncd\nef", [strong(1, 4)])],
    "preformatted keeps newlines, escapes, ignores spans": [
      block("preformatted", "a <b>\n  & 'c'\n", [strong(0, 3), doc(2, 5, "d3")]),
    ],
    "headings 1 to 6": [1, 2, 3, 4, 5, 6].map((n) => block(`heading${n}`, `Heading ${n}`, [em(0, 3)])),
    "a span over the whole text": [p("whole", [strong(0, 5)])],
    "nested spans": [p("0123456789", [doc(0, 10, "n3"), strong(2, 4), em(5, 9), strong(6, 7)])],
    "overlapping spans": [p("abcdef", [strong(0, 4), em(2, 6)])],
    "overlap where the later span starts first after sorting": [p("abcdefghij", [em(3, 9), strong(1, 5)])],
    "a chain of three overlapping spans": [p("0123456789abcdef", [strong(0, 5), em(1, 10), label(2, 12, "c")])],
    "spans with the same offsets, in given order": [p("abcdef", [strong(1, 4), em(1, 4), label(1, 4, "l")])],
    "spans with the same offsets, reversed": [p("abcdef", [label(1, 4, "l"), em(1, 4), strong(1, 4)])],
    "same start, different ends": [p("abcdefgh", [strong(2, 4), em(2, 7)])],
    "same end, different starts": [p("abcdefgh", [strong(1, 6), em(3, 6)])],
    "adjacent spans": [p("abcdef", [strong(0, 3), em(3, 6)])],
    "spans out of order with gaps": [p("one two three four", [em(14, 18), strong(0, 3), label(8, 13, "x")])],
    "zero-length spans at the start, middle and end": [p("abc", [strong(0, 0), em(1, 1), span("strong", 3, 3)])],
    "zero-length span at the end of another span": [p("abcdef", [strong(1, 4), em(4, 4)])],
    "spans past the end of the text": [p("abc", [strong(1, 10), em(5, 8)])],
    "a span whose start is after its end": [p("abcdef", [strong(4, 2), em(0, 3)])],
    "UTF-16 offsets around emoji and Arabic": [p("a😀b زكاة c", [strong(1, 3), em(2, 9), label(5, 12, "ar")])],
    "labels as classes, with escaping and an empty label": [
      p("abcdefghi", [label(0, 3, "highlight"), label(3, 6, 'x"&<y'), label(6, 9, "")]),
    ],
    "direction and label on one node (not something Prismic sends, but the attribute order is fixed)": [
      p("abc", [{ ...label(0, 2, "x"), direction: "rtl" }], { direction: "rtl", data: { label: "block" } }),
    ],
    "a legacy block-level label property is ignored": [p("abc", [], { label: "legacy" })],
    "a label on a link's overlap": [p("abcdefgh", [doc(0, 5, "l3"), label(3, 8, "note")])],
    "right-to-left blocks and list items": [
      p("مرحبا", [strong(0, 2)], { direction: "rtl" }),
      p("ltr", [], { direction: "ltr" }),
      block("heading2", "عنوان", [], { direction: "rtl" }),
      li("one", { direction: "rtl" }),
      li("two"),
      oli("واحد", { direction: "rtl" }),
    ],
    "a list at the start": [li("a"), li("b"), p("after")],
    "a list at the end": [p("before"), oli("a"), oli("b")],
    "a list between paragraphs": [p("before"), li("a"), p("between"), li("b"), li("c"), p("after")],
    "consecutive lists of different kinds": [li("a"), li("b"), oli("1"), oli("2"), li("c"), oli("3")],
    "a single-item list and only lists": [oli("only")],
    "list items with spans and newlines": [
      block("list-item", "a & b\nc", [strong(0, 1), web(4, 7, "https://x.org/?a&b")]),
    ],
    "web links with and without target": [
      p("abcdefgh", [
        web(0, 2, "https://example.org/a?b=1&c='2'", "_blank"),
        web(2, 4, "https://example.org/"),
        web(4, 6, "mailto:x@y.z", "_self"),
        web(6, 8, ""),
      ]),
    ],
    "document links: resolved, null with url, undefined without url, empty": [
      p("abcdefgh", [
        doc(0, 2, "r3"),
        doc(2, 4, "n0", { url: "/from-api?x&y" }),
        doc(4, 6, "u1"),
        doc(6, 8, "e2", { url: "/fallback" }),
      ]),
    ],
    "a broken document link": [p("broken link", [doc(0, 6, "b0", { isBroken: true, type: "broken_type" })])],
    "a document link without an id": [
      p("no id", [span("hyperlink", 0, 2, { link_type: "Document", url: "/only-url" })]),
    ],
    "media links": [
      p("pdf and image", [media(0, 3, "https://prismic-io.s3.amazonaws.com/x/a b.pdf?x=1&y=2"), media(8, 13, "")]),
    ],
    "an empty (Any) link": [p("any", [span("hyperlink", 0, 3, { link_type: "Any" })])],
    "an overlapping link, resolved once per piece": [p("abcdefgh", [strong(0, 4), doc(2, 8, "o3")])],
    "images through the callback, and the fallback": [
      imageBlock("i5"),
      imageBlock("i0"),
      imageBlock("i0", {
        alt: null,
        copyright: null,
        linkTo: { link_type: "Web", url: "https://x.org/", target: "_blank" },
      }),
      imageBlock("i0", {
        linkTo: { link_type: "Document", id: "img3", type: "page", tags: [], lang: "en-au", isBroken: false },
      }),
      imageBlock("i0", { alt: "", direction: "rtl" }),
    ],
    embeds: [
      embed({
        type: "video",
        embed_url: "https://youtu.be/x?a=1&b=2",
        provider_name: "YouTube",
        html: '<iframe src="https://www.youtube.com/embed/x"></iframe>',
      }),
      embed(
        { type: "rich", embed_url: "https://x.org/", provider_name: null, html: "<blockquote>'q'</blockquote>" },
        { direction: "rtl" },
      ),
      embed({ embed_url: "" }),
    ],
    "blocks of an unknown type are dropped": [p("kept"), block("table", "dropped", [doc(0, 3, "t3")]), p("kept too")],
    "spans of an unknown type drop their text": [p("abcdef", [span("underline", 2, 4), strong(3, 6)])],
    "type names asHTML's serializer map also answers to": [
      block("listItem", "li"),
      block("list", "ul"),
      block("span", "a\n<b>"),
      p("x", [span("paragraph", 0, 1)]),
    ],
    "a block without text or spans": [{ type: "paragraph" }, { type: "heading1", text: null, spans: [] }],
    "a mixed document": [
      block("heading1", "Pay your zakat & sadaqah"),
      p("Zakat is one of the five pillars. Read the guide.", [strong(0, 5), doc(34, 49, "g3")]),
      li("Calculate"),
      li("Pay", { direction: "rtl" }),
      imageBlock("m5"),
      oli("First"),
      embed({ type: "video", embed_url: "https://v.org/1", provider_name: "V", html: "<video></video>" }),
      block("preformatted", "code <x>"),
    ],
  };

  for (const [name, field] of Object.entries(cases)) {
    it(name, () => {
      expectSame(field);
      expectSame(field, { linkResolver });
      expectSame(field, {});
    });
  }

  // What asHTML does here is not obvious; these pin it down so a library upgrade that changes it is noticed.
  it("reproduces asHTML's less obvious choices", () => {
    expect(expectSame([p("abcdef", [strong(0, 4), em(2, 6)])])).toBe(
      "<p><strong>ab<em>cd</em></strong><em>ef</em></p>",
    );
    expect(expectSame([p("abcdef", [strong(1, 4), em(1, 4)])])).toBe("<p>a<strong><em>bcd</em></strong>ef</p>");
    expect(expectSame([p("abcdef", [span("underline", 2, 4)])])).toBe("<p>abef</p>");
    expect(expectSame([p("a'b\nc")])).toBe("<p>a&#39;b<br />c</p>");
    expect(expectSame([block("preformatted", "a\n<b>", [strong(0, 1)])])).toBe("<pre>a\n&lt;b&gt;</pre>");
    expect(expectSame([p("go", [web(0, 2, "https://x.org/?a&b")])])).toBe(
      '<p><a href="https://x.org/?a&amp;b" rel="noopener noreferrer">go</a></p>',
    );
    expect(expectSame([p("go", [web(0, 2, "https://x.org/", "_blank")])])).toBe(
      '<p><a href="https://x.org/" target="_blank" rel="noopener noreferrer">go</a></p>',
    );
    expect(expectSame([p("go", [doc(0, 2, "n0", { url: "/api-url" })])])).toBe('<p><a href="/api-url">go</a></p>');
    expect(expectSame([p("go", [doc(0, 2, "e2", { url: "/api-url" })])])).toBe("<p><a>go</a></p>");
    expect(expectSame([p("x", [label(0, 1, "big")], { direction: "rtl" })])).toBe(
      '<p dir="rtl"><span class="big">x</span></p>',
    );
    expect(expectSame([li("a"), oli("b")])).toBe("<ul><li>a</li></ul><ol><li>b</li></ol>");
  });

  it("writes an embed as a link card, never the provider's HTML", () => {
    const attack = embed(
      {
        type: "rich",
        embed_url: "https://evil.example/post?a=1&b=2",
        title: 'Look <img src=x onerror="alert(1)">',
        provider_name: "Evil <script>",
        html: '<script>alert(1)</script><img src=x onerror="alert(2)"><iframe src="https://evil.example/"></iframe>',
      },
      { direction: "rtl" },
    );
    expect(richTextToHtml([attack])).toBe(
      '<div data-oembed="https://evil.example/post?a=1&amp;b=2" data-oembed-type="rich" data-oembed-provider="Evil &lt;script&gt;" dir="rtl">' +
        '<p class="embed-card"><a href="https://evil.example/post?a=1&amp;b=2" rel="noopener noreferrer">Look &lt;img src=x onerror=&quot;alert(1)&quot;&gt;</a>' +
        ' <span class="embed-provider">(Evil &lt;script&gt;)</span></p></div>',
    );
    expect(richTextToHtml([embed({ type: "video", embed_url: "u", provider_name: null, html: null })])).toBe(
      '<div data-oembed="u" data-oembed-type="video"><p class="embed-card"><a href="u" rel="noopener noreferrer">u</a></p></div>',
    );
    expect(richTextToHtml([embed({ embed_url: "", html: "<script>x</script>" })])).toBe("");
    expect(richTextToHtml([embed({ embed_url: "javascript:alert(1)", html: "<b>x</b>" })])).toBe("");
  });
});

// ---------------------------------------------------------------------------------------------
// The committed sample snapshot, through richTextHtml itself.

/** richTextHtml as it was before the fast serializer: asHTML with the same resolver and <Picture>. */
/** asHTML over the field with its headings outlined, as richTextHtml renders it. */
function previousRichTextHtml(field: RichTextField, ctx: Pick<TemplateContext, "link" | "images">): string {
  if (!field?.length) return "";
  return asHTML(outlinedHeadings(field), {
    linkResolver: (d) => ctx.link({ ...d, link_type: "Document" }),
    serializer: {
      image: ({ node }) =>
        `<figure class="rt-image">${renderToStaticMarkup(
          createElement(Picture, {
            image: {
              url: node.url,
              alt: node.alt ?? null,
              width: node.dimensions.width,
              height: node.dimensions.height,
            },
            images: ctx.images,
          }),
        )}${node.copyright ? `<figcaption>${escapeHtml(node.copyright)}</figcaption>` : ""}</figure>`,
    },
  });
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"]/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" })[c]!);
}

/** Rich text fields anywhere in a value: arrays of blocks (text blocks, images, embeds). */
function richTextFields(value: unknown, found: RichTextField[] = []): RichTextField[] {
  if (Array.isArray(value)) {
    const isBlock = (v: Any) =>
      v &&
      typeof v === "object" &&
      typeof v.type === "string" &&
      ("spans" in v || v.type === "image" || v.type === "embed");
    if (value.length && value.every(isBlock)) found.push(value as RichTextField);
    else for (const v of value) richTextFields(v, found);
  } else if (value && typeof value === "object") {
    for (const v of Object.values(value)) richTextFields(v, found);
  }
  return found;
}

describe("richTextHtml over the sample snapshot", async () => {
  const snapshot = await readSnapshot(join(root, "content-cache", "sample", "snapshot.json"));
  const graph = createContentGraph(snapshot.documents);
  const fields = snapshot.documents.flatMap((d) => richTextFields(d.data));
  // Some images processed (a full <picture>), some not, so both of Picture's paths are exercised.
  const images: ImageLookup = {
    get: (url) =>
      url.length % 2
        ? {
            src: `${url}&w=1200`,
            width: 1200,
            height: 750,
            placeholder: "data:image/webp;base64,AAAA",
            sources: [
              { type: "image/avif", srcset: `${url}&fm=avif 1200w` },
              { type: "image/jpeg", srcset: `${url}&w=1200 1200w` },
            ],
          }
        : undefined,
  };
  const recorder = () => {
    const calls: unknown[] = [];
    return { calls, ctx: { images, link: (l: Any) => (calls.push(l), graph.resolveLink(l)) } };
  };

  it("finds the sample's rich text, links and images", () => {
    expect(fields.length).toBeGreaterThan(150);
    const blocks = fields.flat() as Any[];
    expect(blocks.some((b) => b.spans?.some((s: Any) => s.data?.link_type === "Document"))).toBe(true);
    expect(blocks.some((b) => b.spans?.some((s: Any) => s.data?.link_type === "Web"))).toBe(true);
    expect(blocks.some((b) => b.type === "image")).toBe(true);
    expect(blocks.some((b) => b.type === "list-item") && blocks.some((b) => b.type === "o-list-item")).toBe(true);
  });

  it("renders every field exactly as asHTML did, resolving the same links", () => {
    const failures: string[] = [];
    for (const field of fields) {
      const a = recorder();
      const b = recorder();
      const expected = previousRichTextHtml(field, a.ctx);
      const actual = richTextHtml(field, b.ctx);
      if (actual !== expected) failures.push(`${JSON.stringify(field)}\n  asHTML: ${expected}\n  ours:   ${actual}`);
      else expect(JSON.stringify(b.calls)).toBe(JSON.stringify(a.calls));
    }
    expect(failures).toEqual([]);
  });

  it("matches asHTML on the same fields with the test resolver and image callbacks too", () => {
    for (const field of fields) expectSame(field);
  });

  it("keeps RichText's wrapper and empty handling", () => {
    const { ctx } = recorder();
    const field = fields.find((f) => f.length > 1)!;
    const html = renderToStaticMarkup(
      createElement(RichText, { field, ctx: ctx as unknown as TemplateContext, className: "lead" }),
    );
    expect(html).toBe(`<div class="lead">${previousRichTextHtml(field, ctx)}</div>`);
    expect(
      renderToStaticMarkup(
        createElement(RichText, { field: [] as unknown as RichTextField, ctx: ctx as unknown as TemplateContext }),
      ),
    ).toBe("");
    expect(richTextHtml(null as unknown as RichTextField, ctx)).toBe("");
  });
});

// ---------------------------------------------------------------------------------------------
// Seeded random fields.

/** A small linear congruential generator, so every run sees the same fields. */
function random(seed: number) {
  let state = seed >>> 0;
  const next = () => (state = (Math.imul(state, 1664525) + 1013904223) >>> 0) / 2 ** 32;
  const int = (n: number) => Math.floor(next() * n);
  return {
    next,
    int,
    pick: <T>(items: readonly T[]): T => items[int(items.length)],
    chance: (p: number) => next() < p,
  };
}
type Random = ReturnType<typeof random>;

const CHARS = ["a", "b", "c", " ", " ", "x", "y", "z", "&", "<", ">", '"', "'", "\n", "é", "😀", "ز", "ك"];
const LABELS = ["highlight", "a b", 'q"&<', "", "rtl"];
const URLS = ["https://example.org/path?a=1&b=2", "http://x.org/'quoted'", "mailto:a@b.c", "", "/relative#frag"];

function randomText(r: Random): string {
  let text = "";
  const length = r.chance(0.1) ? 0 : r.int(40) + 1;
  for (let i = 0; i < length; i++) text += r.chance(0.55) ? "abcdefghij"[r.int(10)] : r.pick(CHARS);
  return text;
}

function randomLink(r: Random): Any {
  const id = `doc${r.int(30)}`;
  switch (r.int(5)) {
    case 0:
      return r.chance(0.5)
        ? { link_type: "Web", url: r.pick(URLS), target: "_blank" }
        : { link_type: "Web", url: r.pick(URLS) };
    case 1:
      return { link_type: "Media", kind: "document", name: "a.pdf", size: "10", url: r.pick(URLS) };
    case 2:
      return { link_type: "Any" };
    default: {
      const link: Any = {
        link_type: "Document",
        id,
        type: r.pick(["page", "blog_post"]),
        tags: [],
        lang: "en-au",
        slug: "s",
        isBroken: r.chance(0.1),
      };
      if (r.chance(0.7)) link.uid = `uid-${r.int(10)}`;
      if (r.chance(0.3)) link.url = r.pick(URLS);
      return link;
    }
  }
}

function randomSpans(r: Random, length: number): Any[] {
  const spans: Any[] = [];
  const count = r.chance(0.2) ? 0 : r.int(r.chance(0.3) ? 9 : 4);
  for (let i = 0; i < count; i++) {
    let start = r.int(length + 1);
    let end = start + r.int(length - start + 1);
    if (r.chance(0.05)) end = start;
    if (r.chance(0.03)) end = length + 1 + r.int(5);
    if (r.chance(0.02)) [start, end] = [end, start];
    if (spans.length && r.chance(0.1)) ({ start, end } = r.pick(spans));
    const type = r.pick(["strong", "em", "label", "hyperlink", "hyperlink", r.chance(0.1) ? "unknown" : "strong"]);
    const s: Any = { start, end, type };
    if (type === "label") s.data = { label: r.pick(LABELS) };
    if (type === "hyperlink") s.data = randomLink(r);
    spans.push(s);
  }
  return spans;
}

function randomBlock(r: Random, type: string): Any {
  if (type === "image") {
    const node = imageBlock(`img${r.int(20)}`, {
      alt: r.pick([null, "", 'alt "x" & <y>']),
      copyright: r.pick([null, "© x & y"]),
    });
    if (r.chance(0.3)) node.linkTo = randomLink(r);
    if (r.chance(0.1)) node.direction = "rtl";
    return node;
  }
  if (type === "embed") {
    return embed({
      type: r.pick(["video", "rich"]),
      embed_url: r.pick(URLS),
      provider_name: r.pick(["YouTube", null, "A & B"]),
      html: r.pick(['<iframe src="x"></iframe>', "<p>'rich'</p>", null]),
    });
  }
  const text = randomText(r);
  const node: Any = { type, text, spans: randomSpans(r, text.length) };
  if (r.chance(0.15)) node.direction = r.pick(["rtl", "ltr"]);
  return node;
}

const BLOCK_TYPES = [
  "paragraph",
  "paragraph",
  "paragraph",
  "heading1",
  "heading2",
  "heading3",
  "heading4",
  "heading5",
  "heading6",
  "preformatted",
  "image",
  "embed",
];

function randomField(r: Random): Any[] {
  const field: Any[] = [];
  const blocks = r.int(8) + 1;
  while (field.length < blocks) {
    if (r.chance(0.35)) {
      // A run of list items, usually of one kind, so lists group and split.
      const kind = r.pick(["list-item", "o-list-item"]);
      for (let n = r.int(4) + 1; n > 0; n--)
        field.push(randomBlock(r, r.chance(0.85) ? kind : r.pick(["list-item", "o-list-item"])));
    } else {
      field.push(randomBlock(r, r.pick(BLOCK_TYPES)));
    }
  }
  return field;
}

describe("richTextToHtml over seeded random fields", () => {
  const r = random(20240611);
  const corpus = Array.from({ length: 3000 }, () => randomField(r));
  // A third each: our resolver and image callback, resolver only (default images), nothing.
  const optionsFor = (i: number): Partial<Options> => [EDGE_OPTIONS, { linkResolver }, {}][i % 3];
  let expected: string[] | undefined;
  const expectedHtml = () => (expected ??= corpus.map((field, i) => reference(field, optionsFor(i)).html));

  it("covers the hard cases", () => {
    const blocks = corpus.flat();
    const spans = blocks.flatMap((b) => b.spans ?? []);
    const overlapping = blocks.filter((b) =>
      b.spans?.some((a: Any, i: number) =>
        b.spans.some((c: Any, j: number) => i !== j && a.start < c.start && c.start < a.end && a.end < c.end),
      ),
    );
    expect(overlapping.length).toBeGreaterThan(500);
    expect(spans.filter((s) => s.start === s.end).length).toBeGreaterThan(100);
    expect(spans.filter((s) => s.type === "label").length).toBeGreaterThan(1000);
    expect(new Set(spans.filter((s) => s.type === "hyperlink").map((s) => s.data.link_type))).toEqual(
      new Set(["Web", "Document", "Media", "Any"]),
    );
    expect(blocks.filter((b) => b.type === "list-item").length).toBeGreaterThan(1000);
    expect(blocks.filter((b) => b.type === "o-list-item").length).toBeGreaterThan(1000);
    expect(blocks.filter((b) => /[&<>"'\n]/.test(b.text ?? "")).length).toBeGreaterThan(2000);
    expect(blocks.filter((b) => b.direction === "rtl").length).toBeGreaterThan(500);
  });

  it("gives byte-identical HTML and the same calls as asHTML for 3,000 fields", () => {
    const failures: string[] = [];
    corpus.forEach((field, i) => {
      const why = difference(reference(field, optionsFor(i)), ours(field, optionsFor(i)));
      if (why) failures.push(`field ${i}: ${JSON.stringify(field)}\n${why}`);
    });
    expect(failures.slice(0, 3)).toEqual([]);
  });

  it("would notice a difference: small changes to the output or the calls are caught", () => {
    const mismatches = (change: (html: string) => string, options: (i: number) => Partial<Options> = optionsFor) =>
      corpus.filter((field, i) => expectedHtml()[i] !== change(ours(field, options(i)).html)).length;
    expect(mismatches((html) => html)).toBe(0);
    expect(mismatches((html) => html.replaceAll("&#39;", "&apos;"))).toBeGreaterThan(0);
    expect(mismatches((html) => html.replaceAll("<br />", "<br>"))).toBeGreaterThan(0);
    expect(mismatches((html) => html.replaceAll(' rel="noopener noreferrer"', ""))).toBeGreaterThan(0);
    expect(mismatches((html) => html.replace(/<\/li><li>/g, "</li></ul><ul><li>"))).toBeGreaterThan(0);
    expect(mismatches((html) => html.replace(/<strong><em>/g, "<em><strong>"))).toBeGreaterThan(0);
    expect(
      mismatches(
        (html) => html,
        (i) => ({ ...optionsFor(i), linkResolver: (d) => linkResolver({ ...d, id: `${d.id}9` }) }),
      ),
    ).toBeGreaterThan(0);
    // The comparison itself is strict: a one-character difference or a different call fails it.
    const same: Outcome = { html: "<p>a</p>", calls: [["link", {}]] };
    expect(difference(same, { ...same, html: "<p>a</p> " })).not.toBeNull();
    expect(difference(same, { ...same, calls: [["link", {}]] })).not.toBeNull();
    expect(difference(same, same)).toBeNull();
  });
});

describe("outlinedHeadings: rich text's headings under the page's h1", () => {
  const heading = (level: number, text: string) => ({ type: `heading${level}`, text, spans: [] });
  const levels = (field: RichTextField) => field.map((n) => n.type);

  it("writes a first Heading 3 after the title as h2, and never skips a level going down", () => {
    const field = [
      heading(3, "How much"),
      { type: "paragraph", text: "…", spans: [] },
      heading(5, "Detail"),
      heading(2, "Next part"),
      heading(4, "Its detail"),
    ] as unknown as RichTextField;
    expect(levels(outlinedHeadings(field))).toEqual(["heading2", "paragraph", "heading3", "heading2", "heading3"]);
    // The editor's text and spans are kept; only the level changes.
    expect(outlinedHeadings(field)[0]).toMatchObject({ text: "How much", spans: [] });
  });

  it("makes a Heading 1 in the body an h2 (the page has its own h1) and leaves a good outline as it is", () => {
    expect(levels(outlinedHeadings([heading(1, "Title again")] as unknown as RichTextField))).toEqual(["heading2"]);
    const good = [heading(2, "A"), heading(3, "B"), heading(2, "C")] as unknown as RichTextField;
    expect(outlinedHeadings(good)).toBe(good);
  });
});

describe("richTextHtml: a link to a page only in English, from another language's page", () => {
  const field = [
    {
      type: "paragraph",
      text: "انظر المقال والصفحة",
      spans: [
        {
          type: "hyperlink",
          start: 5,
          end: 11,
          data: { link_type: "Document", id: "en1", uid: "a", type: "blog_article" },
        },
        { type: "hyperlink", start: 12, end: 19, data: { link_type: "Document", id: "ar1", uid: "b", type: "zakat" } },
      ],
    },
  ] as unknown as RichTextField;
  const ctx = (lang: string) => ({
    page: { lang },
    images: undefined as never,
    link: (doc: { id?: string }) => (doc.id === "en1" ? "/blog/a/" : "/ar-ae/pay/zakat/"),
  });

  it("marks the link to English (hreflang, 'EN' marked English, and said in the page's language), not the one in the page's language", () => {
    expect(richTextHtml(field, ctx("ar-ae"))).toBe(
      '<p>انظر <a href="/blog/a/" hreflang="en-au">المقال<span class="visually-hidden"> (بالإنجليزية)</span><span class="link-lang" lang="en" dir="ltr">EN</span></a> <a href="/ar-ae/pay/zakat/">والصفحة</a></p>',
    );
  });

  it("leaves English pages' links as asHTML writes them", () => {
    expect(richTextHtml(field, ctx("en-au"))).not.toContain("link-lang");
  });
});
