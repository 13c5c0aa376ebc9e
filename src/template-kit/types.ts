/**
 * The contract between the build and the templates: what a template module receives and returns.
 * The render stage, the bundler and the template bundle (templates/ + the template kit) share it.
 * Type-only: every side imports it, none pulls code from another.
 */
import type { PrismicDocument } from "@prismicio/client";
import type { ContentGraph } from "../content/graph.js";

// The image types are the image pipeline's (src/images/types.ts); templates read them from here too.
export type { ImageLayout, ImageLookup, ImageSource } from "../images/types.js";
import type { ImageLookup } from "../images/types.js";

/** The same page in another language. */
export interface Alternate {
  lang: string;
  path: string;
}

/** A page the site publishes, as the page plan lists it (src/render/pages.ts makes them). */
export interface PageEntry {
  /** The normalized URL path, e.g. `/case/water-for-families/`. */
  path: string;
  /** The file inside dist/, e.g. `case/water-for-families/index.html`. */
  file: string;
  template: string;
  lang: string;
  /** The document this page shows, when it comes from one. */
  documentId?: string;
  /** Included in the sitemap and without `noindex`. */
  indexable: boolean;
  /** The same page in other languages (for hreflang), including itself. */
  alternates: Alternate[];
  /** For redirect pages: where to. */
  redirectTo?: string;
}

/** A browser bundle a page names (src/bundle/island-bundle.ts makes them). */
export interface ClientAsset {
  /** URL of the entry file, e.g. `/_islands/faq-filter-3KX2.js`. */
  src: string;
  /** URLs of the chunks it imports (for modulepreload), in a stable order. */
  imports: string[];
  /** Bytes of the entry and everything it imports (uncompressed). */
  bytes: number;
}

/** Build-time settings templates may read. Only public values: this ends up in HTML. */
export interface SiteSettings {
  siteUrl: string;
  repository: string;
  /** Public configuration handed to islands (auth, payments), already validated. */
  public: Record<string, unknown>;
}

export interface SiteAssets {
  css: string[];
  islands: Record<string, ClientAsset>;
  scripts: Record<string, ClientAsset>;
}

export interface RenderInput {
  page: PageEntry;
  graph: ContentGraph;
  images: ImageLookup;
  site: SiteSettings;
  assets: SiteAssets;
  /** Computes a value once per key per build, replaying what it read (src/render/dependencies.ts); absent: compute every time. */
  memo?: <T>(key: string, compute: () => T) => T;
}

export interface PageMeta {
  title: string;
  description?: string;
  image?: { url: string; width?: number; height?: number; alt?: string | null };
  type?: "website" | "article";
  noindex?: boolean;
  /** Extra scripts (by entry name in src/client/entries) this page loads. */
  scripts?: string[];
  /** JSON-LD objects for structured data. */
  jsonLd?: object[];
}

export interface RenderOutput {
  html: string;
  /** Island names used on the page. */
  islands: string[];
  /** Document ids the page read besides its own (for incremental rebuilds). */
  meta: PageMeta;
}

/** What a page's own template rendered (templates/entry.tsx renderBody). */
/** The page's main image, preloaded from the document head (templates/components/picture.tsx). */
export interface ImagePreload {
  srcset: string;
  sizes: string;
  /** The format of `srcset`, when the image has a fallback in another format. */
  type?: string;
}

export interface PageBody {
  html: string;
  /** The main image the body shows (a Picture with `priority`), if it has one. */
  preload?: ImagePreload;
  /** Island names used in the body, in first-use order. */
  islands: string[];
  /** How many island instances the body holds (the frame numbers its own after these). */
  islandCount: number;
  meta: PageMeta;
}

/** The HTML around a page's body (templates/entry.tsx renderFrame). */
export interface PageFrame {
  before: string;
  after: string;
  /** Island names of the whole page: the body's, then the layout's. */
  islands: string[];
}

export interface TemplateContext {
  page: PageEntry;
  doc?: PrismicDocument;
  global?: PrismicDocument;
  graph: ContentGraph;
  images: ImageLookup;
  site: SiteSettings;
  /** Resolves a link field to a URL (null when empty or broken). */
  link: ContentGraph["resolveLink"];
}
