/**
 * Renders the planned pages with the template bundle and adds the changed HTML to the new site
 * (src/publish/site-output.ts); a page identical to the published one is kept as it is.
 * Each page renders through a tracking view of the content graph, so the build records which
 * documents it depends on. Failures are collected: one broken document does not hide the others,
 * and each failure names the document id and the output path.
 */
import { createHash } from "node:crypto";
import pLimit from "p-limit";
import { NzfAggregateError, NzfError } from "../core/errors.js";
import type { ContentGraph } from "../content/graph.js";
import type { PageEntry } from "./pages.js";
import type { TemplateModule } from "./template-bundle.js";
import type { ImageLookup, PageMeta, SiteAssets, SiteSettings } from "./types.js";
import { createTrackingSession, type Dependency } from "./dependencies.js";
import { pageFactsOf, type PageFacts } from "./site-files.js";
import type { SiteOutput } from "../publish/site-output.js";

export interface RenderedPage {
  page: PageEntry;
  islands: string[];
  meta: PageMeta;
  bytes: number;
  /** Everything the page read from the content graph, sorted. */
  deps: string[];
  hash: string;
  /** False when the page's HTML was identical to the published one and was not rewritten. */
  written: boolean;
  facts: PageFacts;
}

export interface RenderStageInput {
  pages: PageEntry[];
  module: TemplateModule;
  graph: ContentGraph;
  images: ImageLookup;
  site: SiteSettings;
  assets: SiteAssets;
  output: SiteOutput;
  /** The published hash of each page's HTML (by file): identical pages are not rewritten. */
  previousHashes?: Record<string, string>;
  /** Filled with the time spent rendering (as opposed to waiting for the disk), for the benchmark. */
  timings?: { renderMs: number };
}

export async function renderAndWrite(input: RenderStageInput): Promise<RenderedPage[]> {
  const failures: NzfError[] = [];
  const rendered: RenderedPage[] = [];
  // Each page is staged as soon as it is rendered, so the disk works while the next page renders.
  const limit = pLimit(4);
  const writes: Promise<void>[] = [];
  const tracking = createTrackingSession(input.graph);
  for (const page of input.pages) {
    try {
      const deps = new Set<Dependency>();
      const started = performance.now();
      const out = input.module.renderPage({ page, graph: tracking.graphFor(deps), images: input.images, site: input.site, assets: input.assets });
      const hash = createHash("sha1").update(out.html).digest("hex");
      if (input.timings) input.timings.renderMs += performance.now() - started;
      const previous = input.previousHashes?.[page.file];
      const written = previous !== hash;
      if (written) writes.push(limit(() => input.output.put(page.file, out.html)));
      else input.output.keep(page.file);
      rendered.push({ page, islands: out.islands, meta: out.meta, bytes: Buffer.byteLength(out.html), deps: [...deps].sort(), hash, written, facts: pageFactsOf(out.html) });
    } catch (error) {
      const about = page.documentId ? `document ${page.documentId} (${page.template})` : `the "${page.template}" page`;
      failures.push(new NzfError("RENDER_FAILED", `Rendering ${about} failed: ${(error as Error).message}`, { subject: page.file, cause: error }));
    }
  }
  await Promise.all(writes);
  if (failures.length) throw failures.length === 1 ? failures[0] : new NzfAggregateError("render", failures);
  return rendered;
}
