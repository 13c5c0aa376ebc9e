/**
 * The route table: which URL each content type is published at (specification section 2), the
 * static page registry, and the one trailing-slash policy used for links, canonical URLs and the
 * file layout. Pure functions only: the build, the preview resolver in the browser and the tests
 * all use this module, so it must not import anything from Node.
 */

import { FUND_TYPES } from "../payments/types.js";

/** The master locale. Documents in other languages are published under a language prefix. */
export const MASTER_LANG = "en-au";

/** Single documents: one page each. */
export const SINGLE_TYPE_ROUTES = {
  home_page: "/",
  about_page: "/about",
  account_page: "/account",
  apply_page: "/apply",
  calculate_page: "/calculate",
  cases_page: "/cases",
  contact_page: "/contact",
  faq_page: "/faq",
  guides_page: "/guides",
  learn_page: "/learn",
  pay_page: "/pay",
  privacy_policy_page: "/privacy",
  programs_page: "/programs",
  dhul_hijjah: "/pay/dhul-hijjah",
  fidyah: "/pay/fidyah",
  fitr: "/pay/fitr",
  jumuah_giving: "/pay/jumuah-giving",
  qurban: "/pay/qurban",
  ramadan: "/pay/ramadan",
  sadaqah: "/pay/sadaqah",
  tainted_wealth: "/pay/tainted-wealth",
  zakat: "/pay/zakat",
} as const;

/** Repeatable documents addressed by uid. */
export const REPEATABLE_TYPE_ROUTES = {
  blog_article: "/blog/:uid",
  case: "/case/:uid",
  partner: "/partner/:uid",
  program: "/program/:uid",
  landing_page: "/:uid",
} as const;

/** Documents that have no page of their own, and the page that shows them. */
export const EMBEDDED_TYPE_PAGES = {
  member: "/about",
  global: "/",
} as const;

export type SingleType = keyof typeof SINGLE_TYPE_ROUTES;
export type RepeatableType = keyof typeof REPEATABLE_TYPE_ROUTES;
export type RoutedType = SingleType | RepeatableType;

/** The donation pages, in the order a donor sees them on /pay (one per fund, src/payments/types.ts). */
export const DONATION_TYPES = Object.values(FUND_TYPES) satisfies readonly SingleType[];
export type DonationType = (typeof DONATION_TYPES)[number];

/**
 * Pages with no content type of their own (the rest of the specification's page registry).
 * `indexable: false` keeps them out of the sitemap and adds `noindex`.
 */
export const STATIC_PAGES = {
  "404": { path: "/404.html", indexable: false },
  "500": { path: "/500.html", indexable: false },
  preview: { path: "/preview", indexable: false },
  styleguide: { path: "/styleguide", indexable: false },
  "ramadan-calendars": { path: "/ramadan-calendars", indexable: true },
  "right-to-zakat-draft": { path: "/right-to-zakat-draft", indexable: false },
  "thank-you": { path: "/pay/thank-you", indexable: false },
} as const;
export type StaticPageName = keyof typeof STATIC_PAGES;

/** Old or alternative spellings that redirect to the canonical path. */
export const REDIRECTS: Record<string, string> = {
  "/pay/tainted_wealth/": "/pay/tainted-wealth/",
};

/** Paths ending in these keep their exact form: no trailing slash is added (specification section 2). */
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
  const prefix = languagePrefix(ref.lang);
  if (ref.type in SINGLE_TYPE_ROUTES) {
    return normalizePath(prefix + SINGLE_TYPE_ROUTES[ref.type as SingleType]);
  }
  if (ref.type in REPEATABLE_TYPE_ROUTES) {
    if (!ref.uid) return null;
    const pattern = REPEATABLE_TYPE_ROUTES[ref.type as RepeatableType];
    return normalizePath(prefix + pattern.replace(":uid", encodeURIComponent(ref.uid)));
  }
  if (ref.type in EMBEDDED_TYPE_PAGES) {
    return normalizePath(prefix + EMBEDDED_TYPE_PAGES[ref.type as keyof typeof EMBEDDED_TYPE_PAGES]);
  }
  return null;
}

/** The canonical absolute URL of a path on the site. */
export function canonicalUrl(siteUrl: string, path: string): string {
  return siteUrl.replace(/\/+$/, "") + normalizePath(path);
}
