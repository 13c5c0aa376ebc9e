/**
 * Renders every planned page with the template bundle and writes the HTML into the staging folder.
 * Failures are collected: one broken document does not hide the others, and each failure names the
 * document id and the output path.
 */
import { mkdir, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import pLimit from "p-limit";
import { NzfAggregateError, NzfError } from "../core/errors.js";
import type { ContentGraph } from "../content/graph.js";
import type { PageEntry } from "./pages.js";
import type { TemplateModule } from "./template-bundle.js";
import type { ImageLookup, PageMeta, SiteAssets, SiteSettings } from "./types.js";

export interface RenderedPage {
  page: PageEntry;
  islands: string[];
  meta: PageMeta;
  bytes: number;
}

export interface RenderStageInput {
  pages: PageEntry[];
  module: TemplateModule;
  graph: ContentGraph;
  images: ImageLookup;
  site: SiteSettings;
  assets: SiteAssets;
  siteDir: string;
  /** Only these files are written; the others are kept from the previous build (incremental). */
  shouldWrite?: (page: PageEntry, html: string) => boolean;
}

export async function renderAndWrite(input: RenderStageInput): Promise<RenderedPage[]> {
  const failures: NzfError[] = [];
  const rendered: RenderedPage[] = [];
  const writes: { file: string; html: string }[] = [];
  for (const page of input.pages) {
    try {
      const out = input.module.renderPage({ page, graph: input.graph, images: input.images, site: input.site, assets: input.assets });
      rendered.push({ page, islands: out.islands, meta: out.meta, bytes: Buffer.byteLength(out.html) });
      if (!input.shouldWrite || input.shouldWrite(page, out.html)) writes.push({ file: join(input.siteDir, page.file), html: out.html });
    } catch (error) {
      const about = page.documentId ? `document ${page.documentId} (${page.template})` : `the "${page.template}" page`;
      failures.push(new NzfError("RENDER_FAILED", `Rendering ${about} failed: ${(error as Error).message}`, { subject: page.file, cause: error }));
    }
  }
  if (failures.length) throw failures.length === 1 ? failures[0] : new NzfAggregateError("render", failures);

  const dirs = [...new Set(writes.map((w) => dirname(w.file)))].sort();
  for (const dir of dirs) await mkdir(dir, { recursive: true });
  const limit = pLimit(32);
  await Promise.all(writes.map((w) => limit(() => writeFile(w.file, w.html))));
  return rendered;
}
