import { describe, expect, it } from "vitest";
import type { PrismicDocument } from "@prismicio/client";
import { createContentGraph } from "../../src/content/graph.js";
import { planPages } from "../../src/render/pages.js";
import { NzfAggregateError, NzfError } from "../../src/core/errors.js";

const doc = (
  id: string,
  type: string,
  uid: string | null = null,
  lang = "en-au",
  alternates: { id: string; type: string; lang: string; uid?: string }[] = [],
) => ({ id, type, uid, lang, data: {}, alternate_languages: alternates }) as unknown as PrismicDocument;

describe("page plan", () => {
  it("plans a thank-you page in each other language that has a donation page, and only there", () => {
    const pages = planPages(
      createContentGraph([
        doc("h", "home_page"),
        doc("z", "zakat", null, "ar-ae"),
        doc("a", "about_page", null, "fr-fr"),
      ]),
    );
    const thanks = pages.filter((p) => p.template === "thank-you").map((p) => [p.path, p.lang, p.indexable]);
    expect(thanks).toEqual([
      ["/ar-ae/pay/thank-you/", "ar-ae", false],
      ["/pay/thank-you/", "en-au", false],
    ]);
  });

  it("plans the registry's static pages, the redirect and the documents' pages", () => {
    const pages = planPages(createContentGraph([doc("h", "home_page"), doc("c", "case", "one")]));
    const paths = pages.map((p) => p.path);
    expect(paths).toEqual(
      expect.arrayContaining([
        "/",
        "/case/one/",
        "/404.html",
        "/500.html",
        "/preview/",
        "/styleguide/",
        "/ramadan-calendars/",
        "/right-to-zakat-draft/",
        "/pay/tainted_wealth/",
      ]),
    );
    expect(pages.find((p) => p.path === "/pay/tainted_wealth/")?.redirectTo).toBe("/pay/tainted-wealth/");
    expect(pages.find((p) => p.path === "/preview/")?.indexable).toBe(false);
    // Sorted, so output order never depends on the API's order.
    expect([...paths].sort()).toEqual(paths);
  });

  it("rejects a landing page whose uid equals a static route, naming both documents", () => {
    const graph = createContentGraph([doc("about1", "about_page"), doc("landing1", "landing_page", "about")]);
    let error: unknown;
    try {
      planPages(graph);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(NzfError);
    expect((error as NzfError).code).toBe("ROUTE_COLLISION");
    expect((error as NzfError).message).toContain("landing1");
    expect((error as NzfError).message).toContain("about1");
    expect((error as NzfError).message).toContain("/about/");
  });

  it("rejects a landing page that shadows a section like /blog/ or /pay/", () => {
    const graph = createContentGraph([doc("b1", "blog_article", "hello"), doc("l1", "landing_page", "blog")]);
    expect(() => planPages(graph)).toThrow(/l1.*uid "blog".*b1/);
  });

  it("reports every collision at once", () => {
    const graph = createContentGraph([
      doc("a", "about_page"),
      doc("l1", "landing_page", "about"),
      doc("f", "faq_page"),
      doc("l2", "landing_page", "faq"),
    ]);
    let error: unknown;
    try {
      planPages(graph);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(NzfAggregateError);
    expect((error as NzfAggregateError).errors.map((e) => e.subject).sort()).toEqual(["/about/", "/faq/"]);
  });

  it("links language versions of a page to each other for hreflang", () => {
    const graph = createContentGraph([
      doc("en", "zakat", null, "en-au", [{ id: "ar", type: "zakat", lang: "ar-ae" }]),
      doc("ar", "zakat", null, "ar-ae", [{ id: "en", type: "zakat", lang: "en-au" }]),
    ]);
    const ar = planPages(graph).find((p) => p.path === "/ar-ae/pay/zakat/");
    expect(ar?.alternates).toEqual([
      { lang: "ar-ae", path: "/ar-ae/pay/zakat/" },
      { lang: "en-au", path: "/pay/zakat/" },
    ]);
  });
});
