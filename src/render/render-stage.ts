/**
 * Renders the planned pages with the template bundle and writes the HTML into the staging folder.
 * Each page renders through a tracking view of the content graph, so the build records which
 * documents it depends on. Failures are collected: one broken document does not hide the others,
 * and each failure names the document id and the output path.
 */
import { createHash } from "node:crypto";
import { mkdir, rm, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import pLimit from "p-limit";
import { NzfAggregateError, NzfError } from "../core/errors.js";
import type { ContentGraph } from "../content/graph.js";
import type { PageEntry } from "./pages.js";
import type { TemplateModule } from "./template-bundle.js";
import type { ImageLookup, PageMeta, SiteAssets, SiteSettings } from "./types.js";
import { createTrackingSession, type Dependency } from "./dependencies.js";

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
}

export interface RenderStageInput {
  pages: PageEntry[];
  module: TemplateModule;
  graph: ContentGraph;
  images: ImageLookup;
  site: SiteSettings;
  assets: SiteAssets;
  siteDir: string;
  /** The published hash of each page's HTML (by file): identical pages are not rewritten. */
  previousHashes?: Record<string, string>;
}

export async function renderAndWrite(input: RenderStageInput): Promise<RenderedPage[]> {
  const failures: NzfError[] = [];
  const rendered: RenderedPage[] = [];
  const writes: { file: string; html: string; linked: boolean }[] = [];
  const tracking = createTrackingSession(input.graph);
  for (const page of input.pages) {
    try {
      const deps = new Set<Dependency>();
      const out = input.module.renderPage({ page, graph: tracking.graphFor(deps), images: input.images, site: input.site, assets: input.assets });
      const hash = createHash("sha1").update(out.html).digest("hex");
      const previous = input.previousHashes?.[page.file];
      const written = previous !== hash;
      if (written) writes.push({ file: join(input.siteDir, page.file), html: out.html, linked: previous !== undefined });
      rendered.push({ page, islands: out.islands, meta: out.meta, bytes: Buffer.byteLength(out.html), deps: [...deps].sort(), hash, written });
    } catch (error) {
      const about = page.documentId ? `document ${page.documentId} (${page.template})` : `the "${page.template}" page`;
      failures.push(new NzfError("RENDER_FAILED", `Rendering ${about} failed: ${(error as Error).message}`, { subject: page.file, cause: error }));
    }
  }
  if (failures.length) throw failures.length === 1 ? failures[0] : new NzfAggregateError("render", failures);

  const dirs = [...new Set(writes.map((w) => dirname(w.file)))].sort();
  for (const dir of dirs) await mkdir(dir, { recursive: true });
  const limit = pLimit(32);
  await Promise.all(
    writes.map((w) =>
      limit(async () => {
        // A published page is a hard link into the live site: unlink it rather than write through it.
        if (w.linked) await rm(w.file, { force: true });
        await writeFile(w.file, w.html);
      }),
    ),
  );
  return rendered;
}
