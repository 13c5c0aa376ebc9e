/**
 * sitemap.xml and robots.txt. The sitemap lists canonical URLs only: pages that are indexable, not
 * redirects, not marked noindex by their template, and not under a path robots.txt disallows
 * (preview, account: a URL both listed and disallowed is a contradiction search consoles flag).
 * Pages in several languages carry their hreflang alternates (xhtml:link), as Google documents.
 */
import { canonicalUrl, MASTER_LANG } from "../content/routes.js";

/** Paths crawlers should not visit: the editor preview and the signed-in account area. */
export const DISALLOWED_PREFIXES = ["/preview/", "/account/"];

/** What the sitemap reads of a planned page (src/render/pages.ts PageEntry has these and more). */
export interface SitemapEntry {
  path: string;
  indexable: boolean;
  redirectTo?: string;
  /** The same page in other languages, including itself. */
  alternates: { lang: string; path: string }[];
}

export interface SitemapPage {
  page: SitemapEntry;
  /** The template's meta said noindex. */
  noindex?: boolean;
  /** ISO date of the document's last publication, when known. */
  lastmod?: string;
}

const xml = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&apos;" })[c]!);

// Language-prefixed copies (/ar-ae/account/) are as private as the master ones. One expression for
// every page: made per page and prefix, the expressions took most of a 2,000-page sitemap's time.
const DISALLOWED = new RegExp(`^(/[a-z]{2}(-[a-z]{2})?)?(${DISALLOWED_PREFIXES.join("|")})`);

function isDisallowed(path: string): boolean {
  return DISALLOWED.test(path);
}

export function sitemapPages(entries: SitemapPage[]): SitemapPage[] {
  return entries
    .filter(({ page, noindex }) => page.indexable && !noindex && !page.redirectTo && !isDisallowed(page.path))
    .sort((a, b) => (a.page.path < b.page.path ? -1 : a.page.path > b.page.path ? 1 : 0));
}

export function sitemapXml(siteUrl: string, entries: SitemapPage[]): string {
  const listed = sitemapPages(entries);
  const listedPaths = new Set(listed.map((e) => e.page.path));
  const lines = [
    `<?xml version="1.0" encoding="UTF-8"?>`,
    `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:xhtml="http://www.w3.org/1999/xhtml">`,
  ];
  for (const { page, lastmod } of listed) {
    lines.push(`  <url>`, `    <loc>${xml(canonicalUrl(siteUrl, page.path))}</loc>`);
    if (lastmod) lines.push(`    <lastmod>${xml(lastmod)}</lastmod>`);
    // Only alternates that are themselves listed: hreflang must point at canonical, indexable pages.
    const alternates = page.alternates.filter((alt) => listedPaths.has(alt.path));
    if (alternates.length > 1) {
      for (const alt of alternates) {
        lines.push(
          `    <xhtml:link rel="alternate" hreflang="${xml(alt.lang)}" href="${xml(canonicalUrl(siteUrl, alt.path))}"/>`,
        );
      }
      const master = alternates.find((alt) => alt.lang === MASTER_LANG);
      if (master)
        lines.push(
          `    <xhtml:link rel="alternate" hreflang="x-default" href="${xml(canonicalUrl(siteUrl, master.path))}"/>`,
        );
    }
    lines.push(`  </url>`);
  }
  lines.push(`</urlset>`);
  return lines.join("\n") + "\n";
}

export function robotsTxt(siteUrl: string): string {
  return [
    "User-agent: *",
    ...DISALLOWED_PREFIXES.map((prefix) => `Disallow: ${prefix}`),
    "",
    `Sitemap: ${canonicalUrl(siteUrl, "/sitemap.xml")}`,
    "",
  ].join("\n");
}
