/**
 * Content problems are named, never swallowed: unsafe CMS URLs (src/content/safe-url.ts) are dropped
 * by the serializer, the link resolver and the picture, and the checks (src/content/content-checks.ts)
 * name each one, each missing title and each missing uid, by document id, type and field.
 */
import { describe, expect, it } from "vitest";
import type { PrismicDocument, RichTextField } from "@prismicio/client";
import { renderToStaticMarkup } from "react-dom/server";
import { createElement } from "react";
import { isSafeUrl, unsafeUrlReason } from "../../src/content/safe-url.js";
import { checkDocuments, fallbackTitle } from "../../src/content/content-checks.js";
import { createContentGraph } from "../../src/content/graph.js";
import { richTextToHtml } from "../../templates/components/rich-text-html.js";
import { Picture } from "../../templates/components/picture.js";
import { collectImages } from "../../src/images/collect.js";

const HOSTILE = [
  "javascript:alert(1)",
  "JavaScript:alert(1)",
  " \u0001javascript:alert(1)",
  "java\tscript:alert(1)",
  "java\nscript:alert(1)",
  "vbscript:msgbox(1)",
  "data:text/html,<script>alert(1)</script>",
  "DATA:text/html;base64,PHNjcmlwdD4=",
];
const FINE = [
  "https://nzf.org.au/pay/",
  "http://example.org",
  "/pay/zakat/",
  "#main",
  "mailto:info@nzf.org.au",
  "tel:+61299999999",
  "relative/path",
  "https://x.org/?q=javascript:1",
];

describe("safe URLs", () => {
  it("refuses script and document URLs however they are spelled, and allows web, mail, phone and relative ones", () => {
    for (const url of HOSTILE) expect(isSafeUrl(url), url).toBe(false);
    for (const url of FINE) expect(isSafeUrl(url), url).toBe(true);
  });

  it("allows data: images only where an image goes", () => {
    expect(isSafeUrl("data:image/png;base64,iVBORw0KGgo=", "image")).toBe(true);
    expect(isSafeUrl("data:image/png;base64,iVBORw0KGgo=", "link")).toBe(false);
    expect(unsafeUrlReason("data:text/html,x", "image")).toBe("a data: URL that is not an image");
    expect(unsafeUrlReason("javascript:x", "image")).toBe("a javascript: URL");
  });
});

const para = (text: string, spans: unknown[]) => ({ type: "paragraph", text, spans });
const web = (url: string) => ({ link_type: "Web", url });

describe("rich text with hostile links", () => {
  it("keeps the link text and drops the link, for web, media and document links", () => {
    for (const data of [
      web("javascript:alert(1)"),
      { link_type: "Media", url: "data:text/html,x", kind: "document" },
      { link_type: "Document", url: "vbscript:x" },
    ]) {
      const field = [
        para("Click here now", [{ start: 6, end: 10, type: "hyperlink", data }]),
      ] as unknown as RichTextField;
      expect(richTextToHtml(field)).toBe("<p>Click here now</p>");
    }
  });

  it("keeps a labelled link's class on a span, and leaves safe links as they were", () => {
    const field = [
      para("a b", [
        { start: 0, end: 1, type: "hyperlink", data: { ...web("javascript:x"), label: "cta" } },
        { start: 2, end: 3, type: "hyperlink", data: web("https://nzf.org.au/") },
      ]),
    ];
    expect(richTextToHtml(field as unknown as RichTextField)).toBe(
      '<p><span class="cta">a</span> <a href="https://nzf.org.au/" rel="noopener noreferrer">b</a></p>',
    );
  });

  it("leaves out an image or an embed whose URL could run script", () => {
    const field = [
      { type: "image", url: "javascript:alert(1)", alt: "x", dimensions: { width: 10, height: 10 } },
      { type: "embed", oembed: { embed_url: "javascript:alert(1)", type: "video", html: "<iframe></iframe>" } },
      para("kept", []),
    ];
    expect(richTextToHtml(field as unknown as RichTextField)).toBe("<p>kept</p>");
  });

  it("the link resolver gives no URL for a hostile link field; the picture renders no hostile image", () => {
    const graph = createContentGraph([]);
    expect(graph.resolveLink({ link_type: "Web", url: "javascript:alert(1)" })).toBeNull();
    expect(graph.resolveLink({ link_type: "Media", url: "data:text/html,x" })).toBeNull();
    expect(graph.resolveLink({ link_type: "Web", url: "https://nzf.org.au/" })).toBe("https://nzf.org.au/");
    const images = { get: () => undefined } as never;
    expect(
      renderToStaticMarkup(
        createElement(Picture, { image: { url: "javascript:alert(1)", alt: null, width: 10, height: 10 }, images }),
      ),
    ).toBe("");
  });
});

const doc = (id: string, type: string, uid: string | null, data: Record<string, unknown>) =>
  ({ id, type, uid, lang: "en-au", data }) as unknown as PrismicDocument;

describe("the content checks", () => {
  const docs = [
    doc("art-ok", "blog_article", "fine", { title: [{ type: "heading1", text: "Fine", spans: [] }] }),
    doc("art-untitled", "blog_article", "ramadan-giving-guide", {
      title: [{ type: "heading1", text: "  ", spans: [] }],
    }),
    doc("case-no-uid", "case", null, { title: [{ type: "heading1", text: "A case", spans: [] }] }),
    doc("zakat-untitled", "zakat", null, { title: [] }),
    doc("home", "home_page", null, {}),
    doc("prog-hostile", "program", "water", {
      title: [{ type: "heading1", text: "Water", spans: [] }],
      body: [para("x", []), para("Click", [{ start: 0, end: 5, type: "hyperlink", data: web("javascript:alert(1)") }])],
      slices: [
        {
          primary: { button_link: web("vbscript:x") },
          items: [{ card_image: { url: "data:text/html,x", dimensions: { width: 1, height: 1 } } }],
        },
      ],
    }),
  ];

  it("names every problem by document id, type and field, not just the first", () => {
    const problems = checkDocuments(docs);
    expect(problems.map((p) => [p.code, p.documentId, p.type, p.field])).toEqual([
      ["DOCUMENT_FIELD_MISSING", "art-untitled", "blog_article", "title"],
      ["DOCUMENT_UID_MISSING", "case-no-uid", "case", "uid"],
      ["DOCUMENT_FIELD_MISSING", "zakat-untitled", "zakat", "title"],
      ["UNSAFE_URL", "prog-hostile", "program", "body[1].spans[0].data"],
      ["UNSAFE_URL", "prog-hostile", "program", "slices[0].primary.button_link"],
      ["UNSAFE_URL", "prog-hostile", "program", "slices[0].items[0].card_image"],
    ]);
    expect(problems[0]!.message).toBe(
      'Document art-untitled (blog_article) has no title: its page /blog/ramadan-giving-guide/ shows "Ramadan giving guide" instead',
    );
    expect(problems[1]!.message).toBe(
      "Document case-no-uid (case) has no uid, so it has no address: it is not published",
    );
    expect(problems[3]!.message).toBe(
      "Document prog-hostile (program), field body[1].spans[0].data: a javascript: URL was dropped (its text is kept without the link)",
    );
    expect(problems[5]!.message).toContain("a data: URL that is not an image was dropped (the image is not shown)");
  });

  it("falls back to the uid, else the type, in words", () => {
    expect(fallbackTitle({ uid: "water-for-families", type: "case" })).toBe("Water for families");
    expect(fallbackTitle({ uid: null, type: "tainted_wealth" })).toBe("Tainted wealth");
  });

  it("hostile image URLs are not fetched by the image stage", () => {
    expect(collectImages([docs[5]!]).map((u) => u.url)).toEqual([]);
  });
});

describe("field values the templates publish", () => {
  const global = (data: Record<string, unknown>) =>
    ({ id: "g1", type: "global", uid: null, lang: "en-au", data }) as unknown as PrismicDocument;

  it("names a contact e-mail, phone or ABN that is not one, with its value, and says to fix it in Prismic", () => {
    const problems = checkDocuments([
      global({ contact_email: "Nisl pretium fusce", contact_phone: "call us", abn: "12 345" }),
    ]);
    expect(problems.map((p) => [p.code, p.documentId, p.type, p.field])).toEqual([
      ["DOCUMENT_FIELD_INVALID", "g1", "global", "contact_email"],
      ["DOCUMENT_FIELD_INVALID", "g1", "global", "contact_phone"],
      ["DOCUMENT_FIELD_INVALID", "g1", "global", "abn"],
    ]);
    expect(problems[0]!.message).toBe(
      'Document g1 (global), field contact_email: "Nisl pretium fusce" is not an e-mail address: every page leaves it out. Fix it in Prismic',
    );
  });

  it("names an ABN whose check digits do not add up, with the rule and where to copy it from", () => {
    const problems = checkDocuments([global({ abn: "41 600 273 915" })]);
    expect(problems.map((p) => [p.code, p.field])).toEqual([["DOCUMENT_FIELD_INVALID", "abn"]]);
    expect(problems[0]!.message).toBe(
      'Document g1 (global), field abn: "41 600 273 915" is not an ABN: 11 digits whose check digits add up (copy it from abr.business.gov.au, e.g. 51 824 753 556): every page leaves it out. Fix it in Prismic',
    );
    expect(checkDocuments([global({ abn: "51824753556" })])).toEqual([]);
    expect(checkDocuments([global({ abn: "51 824 753 55x" })]).map((p) => p.field)).toEqual(["abn"]);
  });

  it("takes real contact values and empty ones", () => {
    expect(
      checkDocuments([
        global({ contact_email: "info@nzf.org.au", contact_phone: "1300 975 707", abn: "51 824 753 556" }),
      ]),
    ).toEqual([]);
    expect(checkDocuments([global({ contact_email: "", contact_phone: null })])).toEqual([]);
  });

  it("names a calculator rate out of range as the document's problem, with every bad field", () => {
    const calculate = {
      id: "c1",
      type: "calculate_page",
      uid: null,
      lang: "en-au",
      data: { nisab_basis: "silver", silver_price_per_gram: -1, lunar_rate_percent: 20 },
    } as unknown as PrismicDocument;
    const [problem, ...rest] = checkDocuments([calculate]).filter((p) => p.code === "DOCUMENT_INVALID");
    expect(rest).toEqual([]);
    expect(problem).toMatchObject({ documentId: "c1", type: "calculate_page" });
    expect(problem!.message).toMatch(
      /^Document c1 \(calculate_page\): .*lunar_rate_percent is 20; it must be a percentage above 0 and at most 10/,
    );
    expect(problem!.message).toContain("silver_price_per_gram");
    expect(problem!.message).toContain("Fix it in Prismic");
    expect(problem!.message).not.toContain("settings.ts");
  });
});
