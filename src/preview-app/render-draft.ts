/**
 * Renders a page of the site in the browser from the documents at the preview ref, with the very
 * templates and page plan the build uses (templates/entry.tsx renderPage, src/render/pages.ts
 * planPages), so a draft looks exactly as it will once published.
 *
 * The preview ref shows every document as it would be with the drafts published, so one graph of
 * those documents covers the page's own document and everything it reads (the global document,
 * the lists of cases or articles, linked documents). It also knows pages that have no published
 * version yet: a new draft's path is served the 404 page, and the preview renders the draft there.
 */
import type { PrismicDocument } from "@prismicio/client";
import { createContentGraph } from "../content/graph.js";
import { MASTER_LANG, normalizePath } from "../content/routes.js";
import { planPages, type PageEntry } from "../render/pages.js";
import type { ClientAsset, ImageLookup, SiteAssets, SiteSettings } from "../template-kit/types.js";
import { renderPage } from "../../templates/entry.js";

export interface DraftPage {
  page: PageEntry;
  /** The whole HTML document as the build would write it (only its body and title are used). */
  html: string;
}

/**
 * The processed-image manifest stays on the build machine: drafts show each image from its
 * Prismic URL (Picture falls back to the original when the lookup has no entry).
 */
const NO_PROCESSED_IMAGES: ImageLookup = { get: () => undefined };

// renderPage names each island's and script's bundle in the <head>, and throws for an unknown
// one. The preview keeps only the body and the title, so every name gets an empty stand-in.
const STAND_IN: ClientAsset = { src: "", imports: [], bytes: 0 };
const anyAsset = () => new Proxy({} as Record<string, ClientAsset>, { get: () => STAND_IN });
const PREVIEW_ASSETS: SiteAssets = { css: [], islands: anyAsset(), scripts: anyAsset() };

/** The languages of the documents, the master language first (as the snapshot lists them). */
export function languagesOf(documents: readonly PrismicDocument[]): string[] {
  const others = [...new Set(documents.map((d) => d.lang))].filter((lang) => lang !== MASTER_LANG).sort();
  return [MASTER_LANG, ...others];
}

/** The page at `path` rendered from `documents`; null when no page of the site has that path. */
export function renderDraftPage(
  documents: readonly PrismicDocument[],
  path: string,
  site: SiteSettings,
): DraftPage | null {
  const graph = createContentGraph(documents, languagesOf(documents));
  const wanted = normalizePath(path);
  const page = planPages(graph).find((p) => p.path === wanted);
  if (!page || page.redirectTo) return null;
  return { page, html: renderPage({ page, graph, images: NO_PROCESSED_IMAGES, site, assets: PREVIEW_ASSETS }).html };
}
