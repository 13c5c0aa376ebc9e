/**
 * The route table: which URL each content type is published at (the Gatsby site's addresses, so
 * links and search results keep working), read
 * from the page-type registry (page-types.ts, which also lists the static pages), and the one
 * trailing-slash policy used for links, canonical URLs and the file layout. Pure functions only: the build, the preview resolver in the browser and the tests
 * all use this module, so it must not import anything from Node.
 */

import { FUND_TYPES } from "../payments/types.js";
import {
  PAGE_TYPES,
  pageTypeOf,
  STATIC_PAGES,
  type DonationType,
  type EmbeddedType,
  type RepeatableType,
  type RoutedPageType,
  type SingleType,
} from "./page-types.js";

export { STATIC_PAGES, type StaticPageName } from "./page-types.js";
export type { DonationType, RepeatableType, RoutedType, SingleType } from "./page-types.js";

/** The master locale. Documents in other languages are published under a language prefix. */
export const MASTER_LANG = "en-au";

type PageTypes = typeof PAGE_TYPES;
const ENTRIES = Object.entries(PAGE_TYPES) as [keyof PageTypes, PageTypes[keyof PageTypes]][];
const isRouted = (spec: PageTypes[keyof PageTypes]): spec is Extract<PageTypes[keyof PageTypes], RoutedPageType> =>
  "route" in spec;

/** Single documents: one page each (from the registry, src/content/page-types.ts). */
export const SINGLE_TYPE_ROUTES = Object.fromEntries(
  ENTRIES.flatMap(([type, spec]) => (isRouted(spec) && !spec.route.includes(":uid") ? [[type, spec.route]] : [])),
) as { readonly [T in SingleType]: PageTypes[T]["route"] };

/** Repeatable documents addressed by uid. */
export const REPEATABLE_TYPE_ROUTES = Object.fromEntries(
  ENTRIES.flatMap(([type, spec]) => (isRouted(spec) && spec.route.includes(":uid") ? [[type, spec.route]] : [])),
) as { readonly [T in RepeatableType]: PageTypes[T]["route"] };

/** Documents that have no page of their own, and the page that shows them. */
export const EMBEDDED_TYPE_PAGES = Object.fromEntries(
  ENTRIES.flatMap(([type, spec]) => ("shownOn" in spec ? [[type, spec.shownOn]] : [])),
) as { readonly [T in EmbeddedType]: PageTypes[T]["shownOn"] };

/** The donation pages, in the order a donor sees them on /pay (one per fund, src/payments/types.ts). */
export const DONATION_TYPES = Object.values(FUND_TYPES) satisfies readonly DonationType[];

/** Old or alternative spellings that redirect to the canonical path. */
export const REDIRECTS: Record<string, string> = {
  "/pay/tainted_wealth/": "/pay/tainted-wealth/",
};

/** Paths ending in these are files, not pages: they keep their exact form, no trailing slash is added. */
const FILE_EXTENSIONS = [".html", ".json", ".js", ".map", ".txt", ".xml", ".pdf"];

export function isFilePath(path: string): boolean {
  const clean = path.split(/[?#]/)[0]!.toLowerCase();
  return FILE_EXTENSIONS.some((ext) => clean.endsWith(ext));
}

/**
 * The trailing-slash policy: every page path ends in "/", except file paths (.html .json .js .map
 * .txt .xml .pdf), which never do. Query strings and fragments are kept.
 */
const ALREADY_NORMAL = /^\/(?:[A-Za-z0-9_~%-]+\/)*$/;

export function normalizePath(path: string): string {
  // Most paths come from the route table and are already in shape: skip the work (listing pages resolve thousands).
  if (ALREADY_NORMAL.test(path) && !path.includes("//")) return path;
  const match = /^([^?#]*)(.*)$/.exec(path)!;
  let pathname = match[1]!;
  const rest = match[2]!;
  if (!pathname.startsWith("/")) pathname = "/" + pathname;
  pathname = pathname.replace(/\/{2,}/g, "/");
  const bare = pathname.replace(/\/+$/, "");
  if (bare && isFilePath(bare)) return bare + rest;
  if (!pathname.endsWith("/")) pathname += "/";
  return pathname + rest;
}

/** The file a page path is written to inside dist/: `/about/` → `about/index.html`. */
export function outputFileFor(path: string): string {
  const normal = normalizePath(path).split(/[?#]/)[0]!;
  if (isFilePath(normal)) return normal.slice(1);
  return normal === "/" ? "index.html" : `${normal.slice(1)}index.html`;
}

/**
 * The thank-you page a donation form in this language returns to: /pay/thank-you/ in the master
 * locale, /<lang>/pay/thank-you/ in another (src/render/pages.ts publishes one per language that
 * has a donation page), so a donor who gave in Arabic is thanked in Arabic.
 */
export function thankYouPathFor(lang: string): string {
  return `${languagePrefix(lang)}${STATIC_PAGES["thank-you"].path}/`;
}

/** The language prefix for a document's language: none for the master locale. */
export function languagePrefix(lang: string | undefined): string {
  if (!lang || lang === "*" || lang === MASTER_LANG) return "";
  return "/" + lang.toLowerCase();
}

export interface RoutableRef {
  type: string;
  uid?: string | null;
  lang?: string;
}

/**
 * The published path of a document (or a link to one), or null when the type has no page.
 * Embedded types (member, global) resolve to the page that shows them.
 */
/** Paths by document or link object: a large repository resolves the same documents many times per build. */
const pathMemo = new WeakMap<RoutableRef, string | null>();

export function pathForDocument(ref: RoutableRef): string | null {
  let path = pathMemo.get(ref);
  if (path === undefined) {
    path = computePathForDocument(ref);
    pathMemo.set(ref, path);
  }
  return path;
}

function computePathForDocument(ref: RoutableRef): string | null {
  const spec = pageTypeOf(ref.type);
  if (!spec) return null;
  const prefix = languagePrefix(ref.lang);
  if ("shownOn" in spec) return normalizePath(prefix + spec.shownOn);
  if (!spec.route.includes(":uid")) return normalizePath(prefix + spec.route);
  if (!ref.uid) return null;
  return normalizePath(prefix + spec.route.replace(":uid", encodeURIComponent(ref.uid)));
}

/** The canonical absolute URL of a path on the site. */
export function canonicalUrl(siteUrl: string, path: string): string {
  return siteUrl.replace(/\/+$/, "") + normalizePath(path);
}
