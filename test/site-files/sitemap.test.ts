/**
 * sitemap.xml lists exactly the public pages: checked against a hand-made page plan, and against a
 * real sample build, where "public" is read back from the HTML itself (no noindex, no redirect,
 * not under a disallowed path).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readFile } from "node:fs/promises";
import fg from "fast-glob";
import { createFixture, type Fixture } from "../support/build-fixture.js";
import { robotsTxt, sitemapXml } from "../../src/site-files/sitemap.js";
import type { PageEntry } from "../../src/render/pages.js";

const page = (path: string, extra: Partial<PageEntry> = {}): PageEntry => ({
  path,
  file: "",
  template: "x",
  lang: "en-au",
  indexable: true,
  alternates: [],
  ...extra,
});
const locs = (xml: string) => [...xml.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => m[1]);

describe("sitemapXml", () => {
  it("keeps indexable canonical pages and drops noindex, redirects, preview and account pages", () => {
    const xml = sitemapXml("https://nzf.org.au", [
      { page: page("/") },
      { page: page("/about/"), lastmod: "2024-03-01" },
      { page: page("/styleguide/", { indexable: false }) },
      { page: page("/pay/thank-you/"), noindex: true },
      { page: page("/pay/tainted_wealth/", { indexable: false, redirectTo: "/pay/tainted-wealth/" }) },
      { page: page("/preview/") },
      { page: page("/account/") },
      { page: page("/ar-ae/account/") },
      { page: page("/a&b/") },
    ]);
    expect(locs(xml)).toEqual(["https://nzf.org.au/", "https://nzf.org.au/a&amp;b/", "https://nzf.org.au/about/"]);
    expect(xml).toContain("<lastmod>2024-03-01</lastmod>");
    expect(
      xml.startsWith(
        '<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"',
      ),
    ).toBe(true);
  });

  it("gives pages in several languages their hreflang alternates and an x-default", () => {
    const alternates = [
      { lang: "ar-ae", path: "/ar-ae/" },
      { lang: "en-au", path: "/" },
    ];
    const xml = sitemapXml("https://nzf.org.au", [
      { page: page("/", { alternates }) },
      { page: page("/ar-ae/", { lang: "ar-ae", alternates }) },
    ]);
    expect(xml.match(/hreflang="ar-ae" href="https:\/\/nzf.org.au\/ar-ae\/"/g)).toHaveLength(2);
    expect(xml.match(/hreflang="x-default" href="https:\/\/nzf.org.au\/"/g)).toHaveLength(2);
  });

  it("robots.txt names the sitemap by its absolute URL", () => {
    expect(robotsTxt("https://example.org")).toBe(
      "User-agent: *\nDisallow: /preview/\nDisallow: /account/\n\nSitemap: https://example.org/sitemap.xml\n",
    );
  });
});

describe("the sample build's sitemap", () => {
  let fixture: Fixture;
  beforeAll(async () => {
    fixture = await createFixture({ sample: true, siteUrl: "https://www.example.org" });
    await fixture.run();
  }, 180_000);
  afterAll(() => fixture?.cleanup());

  it("contains exactly the public pages", async () => {
    const dir = fixture.config.outDir;
    const files = await fg("**/*.html", { cwd: dir });
    const publicPaths: string[] = [];
    for (const file of files) {
      const html = await readFile(`${dir}/${file}`, "utf8");
      const path = file === "index.html" ? "/" : file.endsWith("/index.html") ? `/${file.slice(0, -10)}` : `/${file}`;
      if (/<meta name="robots" content="noindex">/.test(html) || /http-equiv="refresh"/.test(html)) continue;
      if (/^(\/[a-z]{2}-[a-z]{2})?\/(preview|account)\//.test(path)) continue;
      if (path === "/offline.html") continue;
      publicPaths.push(`https://www.example.org${path}`);
    }
    const listed = locs(await readFile(`${dir}/sitemap.xml`, "utf8"));
    expect(listed.slice().sort()).toEqual(publicPaths.sort());
    // Checked by hand against the route table.
    for (const path of [
      "/",
      "/about/",
      "/calculate/",
      "/pay/",
      "/pay/zakat/",
      "/pay/tainted-wealth/",
      "/faq/",
      "/ramadan-calendars/",
    ])
      expect(listed).toContain(`https://www.example.org${path}`);
    for (const path of [
      "/preview/",
      "/styleguide/",
      "/right-to-zakat-draft/",
      "/404.html",
      "/500.html",
      "/pay/tainted_wealth/",
      "/account/",
      "/offline.html",
    ])
      expect(listed).not.toContain(`https://www.example.org${path}`);
    expect(listed.some((u) => u!.startsWith("https://www.example.org/case/"))).toBe(true);
  });

  it("every listed page's canonical link is its own sitemap URL", async () => {
    const dir = fixture.config.outDir;
    const listed = locs(await readFile(`${dir}/sitemap.xml`, "utf8"));
    for (const url of listed) {
      const path = new URL(url!).pathname;
      const file = path === "/" ? "index.html" : `${path.slice(1)}index.html`;
      const html = await readFile(`${dir}/${file}`, "utf8");
      expect(html, path).toContain(`<link rel="canonical" href="${url}">`);
    }
  });

  it("every listed page has a title that names the site once", async () => {
    const dir = fixture.config.outDir;
    for (const url of locs(await readFile(`${dir}/sitemap.xml`, "utf8"))) {
      const path = new URL(url!).pathname;
      const html = await readFile(`${dir}/${path === "/" ? "index.html" : `${path.slice(1)}index.html`}`, "utf8");
      const title = /<title>([^<]*)<\/title>/.exec(html)?.[1] ?? "";
      // In the page's language: the Arabic pages' global document names the site in Arabic.
      const siteName = path.startsWith("/ar-ae/") ? /المؤسسة الوطنية للزكاة/g : /National Zakat Foundation/g;
      expect(title.match(siteName), `${path}: ${title}`).toHaveLength(1);
    }
    // The home page's SEO title names the site itself; an ordinary page gets the site after its own.
    expect(await readFile(`${dir}/index.html`, "utf8")).toContain(
      "<title>National Zakat Foundation | Pay zakat in Australia</title>",
    );
    expect(await readFile(`${dir}/about/index.html`, "utf8")).toMatch(
      /<title>[^<|]+ \| National Zakat Foundation<\/title>/,
    );
  });
});
