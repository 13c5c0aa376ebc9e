/**
 * Renders one page through a tracking view of the content graph: its HTML, everything it read from
 * the content (its dependencies), and what the site files need from it. The same function runs in
 * the build's own thread and in the render workers (src/render/render-worker.ts).
 */
import { createHash } from "node:crypto";
import type { ContentGraph } from "../content/graph.js";
import type { PageEntry } from "./pages.js";
import type { TemplateModule } from "./template-bundle.js";
import type { ImageLookup, PageMeta, SiteAssets, SiteSettings } from "./types.js";
import { createTrackingSession, type Dependency } from "./dependencies.js";
import { pageFactsOf, type PageFacts } from "./page-facts.js";

export interface PageRender {
  html: string;
  /** sha1 of the HTML, to skip writing a page identical to the published one. */
  hash: string;
  /** Everything the page read from the content graph, sorted. */
  deps: string[];
  islands: string[];
  meta: PageMeta;
  facts: PageFacts;
}

export interface PageRenderer {
  render(page: PageEntry): PageRender;
}

export function createPageRenderer(input: { module: TemplateModule; graph: ContentGraph; images: ImageLookup; site: SiteSettings; assets: SiteAssets }): PageRenderer {
  const tracking = createTrackingSession(input.graph);
  return {
    render(page) {
      const deps = new Set<Dependency>();
      const out = input.module.renderPage({ page, graph: tracking.graphFor(deps), images: input.images, site: input.site, assets: input.assets });
      const hash = createHash("sha1").update(out.html).digest("hex");
      return { html: out.html, hash, deps: [...deps].sort(), islands: out.islands, meta: out.meta, facts: pageFactsOf(out.html) };
    },
  };
}

/** The build error for a page that failed to render: it names the document and the output path. */
export function describeRenderFailure(page: PageEntry, message: string): string {
  const about = page.documentId ? `document ${page.documentId} (${page.template})` : `the "${page.template}" page`;
  return `Rendering ${about} failed: ${message}`;
}
