/**
 * Types shared by the render stage (Node side) and the template bundle (templates/ + the render
 * helpers it includes). Type-only: both sides import it, neither pulls code from the other.
 */
import type { PrismicDocument } from "@prismicio/client";
import type { ContentGraph } from "../content/graph.js";
import type { PageEntry } from "./pages.js";
import type { ClientAsset } from "./island-bundle.js";

// The image types are the image pipeline's (src/images/types.ts); templates read them from here too.
export type { ImageLayout, ImageLookup, ImageSource } from "../images/types.js";
import type { ImageLookup } from "../images/types.js";

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
