import { describe, expect, it } from "vitest";
import {
  canonicalUrl,
  isFilePath,
  languagePrefix,
  normalizePath,
  outputFileFor,
  pathForDocument,
} from "../../src/content/routes.js";
import { createContentGraph } from "../../src/content/graph.js";
import type { PrismicDocument } from "@prismicio/client";

describe("trailing-slash policy", () => {
  it("adds a trailing slash to page paths", () => {
    expect(normalizePath("/about")).toBe("/about/");
    expect(normalizePath("/about/")).toBe("/about/");
    expect(normalizePath("about")).toBe("/about/");
    expect(normalizePath("/")).toBe("/");
    expect(normalizePath("//pay//zakat")).toBe("/pay/zakat/");
  });

  it("keeps the query string and fragment after the slash", () => {
    expect(normalizePath("/pay/zakat?amount=12.50")).toBe("/pay/zakat/?amount=12.50");
    expect(normalizePath("/faq#super")).toBe("/faq/#super");
  });

  it("never adds a slash to a file's extension, and removes one", () => {
    for (const ext of [".html", ".json", ".js", ".map", ".txt", ".xml", ".pdf"]) {
      expect(normalizePath(`/file${ext}`)).toBe(`/file${ext}`);
      expect(normalizePath(`/file${ext}/`)).toBe(`/file${ext}`);
      expect(isFilePath(`/x${ext.toUpperCase()}`)).toBe(true);
    }
    // Other extensions are pages like any other.
    expect(normalizePath("/guide.docx")).toBe("/guide.docx/");
  });

  it("maps paths to files in dist", () => {
    expect(outputFileFor("/")).toBe("index.html");
    expect(outputFileFor("/about")).toBe("about/index.html");
    expect(outputFileFor("/404.html")).toBe("404.html");
    expect(outputFileFor("/ar-ae/pay/zakat/")).toBe("ar-ae/pay/zakat/index.html");
  });

  it("builds canonical URLs with one slash between site and path", () => {
    expect(canonicalUrl("https://nzf.org.au/", "/faq")).toBe("https://nzf.org.au/faq/");
  });
});

describe("route table", () => {
  it("routes every content type of the route table", () => {
    const cases: [string, string | null, string][] = [
      ["home_page", null, "/"],
      ["about_page", null, "/about/"],
      ["account_page", null, "/account/"],
      ["apply_page", null, "/apply/"],
      ["calculate_page", null, "/calculate/"],
      ["cases_page", null, "/cases/"],
      ["contact_page", null, "/contact/"],
      ["faq_page", null, "/faq/"],
      ["guides_page", null, "/guides/"],
      ["learn_page", null, "/learn/"],
      ["pay_page", null, "/pay/"],
      ["privacy_policy_page", null, "/privacy/"],
      ["programs_page", null, "/programs/"],
      ["blog_article", "why-zakat", "/blog/why-zakat/"],
      ["case", "rent-help", "/case/rent-help/"],
      ["partner", "food-bank", "/partner/food-bank/"],
      ["program", "emergency", "/program/emergency/"],
      ["landing_page", "ramadan-appeal", "/ramadan-appeal/"],
      ["tainted_wealth", null, "/pay/tainted-wealth/"],
      ["dhul_hijjah", null, "/pay/dhul-hijjah/"],
      ["jumuah_giving", null, "/pay/jumuah-giving/"],
      ["fitr", null, "/pay/fitr/"],
      ["member", "aisha", "/about/"],
    ];
    for (const [type, uid, path] of cases) expect(pathForDocument({ type, uid, lang: "en-au" }), type).toBe(path);
  });

  it("prefixes other languages and leaves the master locale bare", () => {
    expect(languagePrefix("en-au")).toBe("");
    expect(pathForDocument({ type: "zakat", lang: "ar-ae" })).toBe("/ar-ae/pay/zakat/");
    expect(pathForDocument({ type: "home_page", lang: "ar-ae" })).toBe("/ar-ae/");
  });

  it("has no page for unknown types or repeatables without a uid", () => {
    expect(pathForDocument({ type: "mystery", uid: "x" })).toBeNull();
    expect(pathForDocument({ type: "case", uid: null })).toBeNull();
  });

  it("escapes uids that are not URL-safe", () => {
    expect(pathForDocument({ type: "case", uid: "a b" })).toBe("/case/a%20b/");
  });
});

describe("link resolution", () => {
  const doc = (id: string, type: string, uid: string | null, lang = "en-au") =>
    ({ id, type, uid, lang, data: {}, alternate_languages: [] }) as unknown as PrismicDocument;
  const graph = createContentGraph([doc("c1", "case", "new-uid"), doc("z1", "zakat", null)]);

  it("resolves document links through the live document, so a changed uid is followed", () => {
    expect(graph.resolveLink({ link_type: "Document", id: "c1", type: "case", uid: "old-uid" })).toBe("/case/new-uid/");
  });

  it("resolves links to documents not in the snapshot by their own type and uid", () => {
    expect(graph.resolveLink({ link_type: "Document", id: "zz", type: "program", uid: "p" })).toBe("/program/p/");
  });

  it("passes web and media links through and drops empty or broken ones", () => {
    expect(graph.resolveLink({ link_type: "Web", url: "https://example.org/" })).toBe("https://example.org/");
    expect(graph.resolveLink({ link_type: "Media", url: "https://x/doc.pdf" })).toBe("https://x/doc.pdf");
    expect(graph.resolveLink({ link_type: "Any" })).toBeNull();
    expect(graph.resolveLink({ link_type: "Document", id: "c1", type: "case", uid: "x", isBroken: true })).toBeNull();
    expect(graph.resolveLink(undefined)).toBeNull();
  });

  it("finds singles in a language and falls back to the master locale", () => {
    expect(graph.single("zakat", "ar-ae")?.id).toBe("z1");
    expect(graph.byUid("case", "new-uid")?.id).toBe("c1");
  });
});
