/**
 * The page-type registry (src/content/page-types.ts). The `@ts-expect-error` lines are the
 * type-level half: `npx tsc --noEmit` (the first step of `npm test`) fails when one of those
 * half-done page types stops being an error. The `it` blocks check what types cannot: the
 * customtypes/ folder against the registry, whether or not codegen was run since.
 */
import { readdir } from "node:fs/promises";
import { describe, expect, it } from "vitest";
import {
  PAGE_TYPES,
  STATIC_PAGES,
  templateOfType,
  type PageTypeRegistry,
  type TemplateName,
} from "../../src/content/page-types.js";
import { pathForDocument } from "../../src/content/routes.js";
import { TEMPLATES } from "../../templates/entry.js";

// A custom type with a route and no template.
({
  ...PAGE_TYPES,
  // @ts-expect-error: `template` is missing
  faq_page: { route: "/faq" },
}) satisfies PageTypeRegistry;

// A template and no route.
({
  ...PAGE_TYPES,
  // @ts-expect-error: `route` is missing
  faq_page: { template: "faq" },
}) satisfies PageTypeRegistry;

// A custom type of the content model left out of the registry.
const { faq_page: _left, ...withoutFaq } = PAGE_TYPES;
// @ts-expect-error: faq_page is a custom type (prismic-types.generated.ts) with no entry
withoutFaq satisfies PageTypeRegistry;

// A type the content model does not have.
({
  ...PAGE_TYPES,
  // @ts-expect-error: no custom type is called news_page
  news_page: { route: "/news", template: "news" },
}) satisfies PageTypeRegistry;

// A fund's page at another path than /pay/<fund>, or with another template.
({
  ...PAGE_TYPES,
  // @ts-expect-error: the zakat fund's page is /pay/zakat
  zakat: { route: "/zakat", template: "donation" },
}) satisfies PageTypeRegistry;
({
  ...PAGE_TYPES,
  // @ts-expect-error: a fund's page is drawn by the donation template
  zakat: { route: "/pay/zakat", template: "faq" },
}) satisfies PageTypeRegistry;

// A template table (templates/entry.tsx) that lacks a template the registry names…
const allButFaq = Object.fromEntries(Object.keys(TEMPLATES).map((name) => [name, 1])) as Record<
  Exclude<TemplateName, "faq">,
  1
>;
// @ts-expect-error: "faq" is missing
allButFaq satisfies Record<TemplateName, 1>;
// …or has one that no page uses.
({
  ...allButFaq,
  faq: 1,
  // @ts-expect-error: no page type or static page is drawn by "news"
  news: 1,
}) satisfies Record<TemplateName, 1>;

describe("the page-type registry", () => {
  it("has an entry for each custom type in customtypes/, and no other", async () => {
    const folders = (await readdir(new URL("../../customtypes/", import.meta.url), { withFileTypes: true }))
      .filter((entry) => entry.isDirectory())
      .map((entry) => entry.name)
      .sort();
    expect(Object.keys(PAGE_TYPES).sort()).toEqual(folders);
  });

  it("gives each routed type the page its template draws, and embedded types none", () => {
    expect(templateOfType("blog_article")).toBe("blog-article");
    expect(templateOfType("sadaqah")).toBe("donation");
    expect(templateOfType("member")).toBeUndefined();
    expect(templateOfType("news_page")).toBeUndefined();
    // Not a property of every object.
    expect(templateOfType("toString")).toBeUndefined();
    expect(pathForDocument({ type: "toString" })).toBeNull();
    expect(pathForDocument({ type: "case", uid: "amina", lang: "ar-ae" })).toBe("/ar-ae/case/amina/");
    expect(pathForDocument({ type: "member", uid: "x" })).toBe("/about/");
  });

  it("names exactly the templates of templates/entry.tsx", () => {
    const named = new Set<string>([
      ...Object.values(PAGE_TYPES).flatMap((spec) => ("template" in spec ? [spec.template] : [])),
      ...Object.keys(STATIC_PAGES),
      "redirect",
    ]);
    expect([...named].sort()).toEqual(Object.keys(TEMPLATES).sort());
  });
});
