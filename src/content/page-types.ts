/**
 * The page-type registry: one entry per Prismic custom type, saying where its documents are
 * published and which template renders them (or which page shows them, for types with no page of
 * their own), and the pages that have no custom type. The route table (routes.ts), the page plan
 * (src/render/pages.ts) and the template table (templates/entry.tsx) all come from here, so
 * TypeScript refuses the half-done page type:
 * - a custom type in customtypes/ (after `npm run codegen`) with no entry here;
 * - an entry with a route and no template, or a template and no route;
 * - a template named here that templates/entry.tsx does not have, or one it has that nothing names;
 * - a fund in src/payments/types.ts without its donation page at /pay/<fund>.
 * test/content/page-types.test.ts holds those refusals (`@ts-expect-error` lines, checked by tsc).
 * docs/recipes.md, "A page type", gives the steps.
 *
 * Browser-safe (the editor preview plans pages as the build does): nothing here imports from Node.
 */
import type { Fund, FUND_TYPES } from "../payments/types.js";
import type { AllDocumentTypes } from "./prismic-types.generated.js";

/** A document of this type has a page: at `route` (`:uid` for repeatable types), drawn by `template`. */
export interface RoutedPageType {
  readonly route: `/${string}`;
  /** The key of its template in templates/entry.tsx's TEMPLATES. */
  readonly template: string;
}

/** A document of this type has no page of its own: it is shown on the page at `shownOn`. */
export interface EmbeddedPageType {
  readonly shownOn: `/${string}`;
}

export type PageTypeSpec = RoutedPageType | EmbeddedPageType;

/** Every Prismic custom type of the content model (src/content/prismic-types.generated.ts). */
export type CustomType = AllDocumentTypes["type"];

/** Each fund's page: the donation template at /pay/<fund> (the fund's spelling, src/payments/types.ts). */
type FundPages = {
  readonly [F in Fund as (typeof FUND_TYPES)[F]]: { readonly route: `/pay/${F}`; readonly template: "donation" };
};

/** What the registry must be: an entry per custom type, and each fund's donation page. */
export type PageTypeRegistry = Record<CustomType, PageTypeSpec> & FundPages;

export const PAGE_TYPES = {
  home_page: { route: "/", template: "home" },
  about_page: { route: "/about", template: "about" },
  account_page: { route: "/account", template: "account" },
  apply_page: { route: "/apply", template: "apply" },
  calculate_page: { route: "/calculate", template: "calculate" },
  cases_page: { route: "/cases", template: "cases" },
  contact_page: { route: "/contact", template: "contact" },
  faq_page: { route: "/faq", template: "faq" },
  guides_page: { route: "/guides", template: "guides" },
  learn_page: { route: "/learn", template: "learn" },
  pay_page: { route: "/pay", template: "pay" },
  privacy_policy_page: { route: "/privacy", template: "privacy" },
  programs_page: { route: "/programs", template: "programs" },
  // The funds' donation pages (FundPages checks them against src/payments/types.ts).
  dhul_hijjah: { route: "/pay/dhul-hijjah", template: "donation" },
  fidyah: { route: "/pay/fidyah", template: "donation" },
  fitr: { route: "/pay/fitr", template: "donation" },
  jumuah_giving: { route: "/pay/jumuah-giving", template: "donation" },
  qurban: { route: "/pay/qurban", template: "donation" },
  ramadan: { route: "/pay/ramadan", template: "donation" },
  sadaqah: { route: "/pay/sadaqah", template: "donation" },
  tainted_wealth: { route: "/pay/tainted-wealth", template: "donation" },
  zakat: { route: "/pay/zakat", template: "donation" },
  // Repeatable types, one page per uid.
  blog_article: { route: "/blog/:uid", template: "blog-article" },
  case: { route: "/case/:uid", template: "case" },
  partner: { route: "/partner/:uid", template: "partner" },
  program: { route: "/program/:uid", template: "program" },
  landing_page: { route: "/:uid", template: "landing" },
  // No page of their own.
  member: { shownOn: "/about" },
  global: { shownOn: "/" },
} as const satisfies PageTypeRegistry;

type PageTypes = typeof PAGE_TYPES;

/** Custom types whose documents have pages. */
export type RoutedType = { [T in keyof PageTypes]: PageTypes[T] extends RoutedPageType ? T : never }[keyof PageTypes];
/** Routed types addressed by uid. */
export type RepeatableType = {
  [T in RoutedType]: PageTypes[T]["route"] extends `${string}:uid${string}` ? T : never;
}[RoutedType];
/** Routed types with one document (per language). */
export type SingleType = Exclude<RoutedType, RepeatableType>;
/** Custom types shown on another page. */
export type EmbeddedType = Exclude<keyof PageTypes, RoutedType>;
/** The types whose page is a fund's donation page. */
export type DonationType = { [T in RoutedType]: PageTypes[T]["template"] extends "donation" ? T : never }[RoutedType];

/**
 * Pages with no content type of their own (the site's other pages, at the addresses the Gatsby
 * site had them); each
 * is drawn by the template of its name. `indexable: false` keeps them out of the sitemap and adds `noindex`.
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

/** The template of the redirect pages (routes.ts, REDIRECTS). */
export const REDIRECT_TEMPLATE = "redirect";

/**
 * Every template the page plan can name. templates/entry.tsx's TEMPLATES satisfies
 * `Record<TemplateName, Template>`, so a name missing there, or a template there that no page uses,
 * is a type error.
 */
export type TemplateName = PageTypes[RoutedType]["template"] | StaticPageName | typeof REDIRECT_TEMPLATE;

/** The registry entry of a type, or undefined for a type this build does not know (content newer than the code). */
export function pageTypeOf(type: string): PageTypeSpec | undefined {
  return Object.hasOwn(PAGE_TYPES, type) ? PAGE_TYPES[type as keyof PageTypes] : undefined;
}

/** The template of a document type, or undefined when it has no page of its own. */
export function templateOfType(type: string): TemplateName | undefined {
  const spec = pageTypeOf(type);
  return spec && "template" in spec ? (spec.template as TemplateName) : undefined;
}
