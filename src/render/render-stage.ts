/**
 * Renders the planned pages with the template bundle and adds the changed HTML to the new site
 * (src/publish/site-output.ts); a page identical to the published one is kept as it is. Many pages
 * render in worker threads (src/render/render-service.ts), a few in this thread. Each page renders
 * through a tracking view of the content graph, so the build records which documents it depends on.
 * Failures are collected: one broken document does not hide the others, and each failure names the
 * document id and the output path.
 */
import type { RenderPolicy } from "./render-policy.js";
import type { Logger } from "../core/logger.js";
import pLimit from "p-limit";
import { ERROR_CATALOGUE, NzfAggregateError, type NzfError } from "../core/errors.js";
import type { ContentGraph } from "../content/graph.js";
import type { PageEntry } from "./pages.js";
import type { TemplateModule } from "../bundle/template-bundle.js";
import type { ImageLookup, PageMeta, SiteAssets, SiteSettings } from "../template-kit/types.js";
import type { PageFacts } from "../site-files/page-facts.js";
import type { SiteOutput } from "../publish/site-output.js";
import {
  createPageRenderer,
  htmlOf,
  renderError,
  renderFailureOf,
  type PageRender,
  type PageRenderer,
  type RenderedBody,
  type RenderFailure,
} from "./render-page.js";
import type { BodyCache } from "./body-cache.js";
import type { RenderService, ThreadRenderResult, WorkerInit } from "./render-service.js";
import { renderWorkerCount } from "./worker/worker-boot.js";

export interface RenderedPage {
  page: PageEntry;
  islands: string[];
  meta: PageMeta;
  /** Everything the page read from the content graph, sorted. */
  deps: string[];
  hash: string;
  /** False when the page's HTML was identical to the published one and was not rewritten. */
  written: boolean;
  facts: PageFacts;
  /** The page's body, to keep for the next build once this one is published (absent when the caller keeps none). */
  body?: RenderedBody;
}

export interface RenderStageInput {
  pages: PageEntry[];
  /** Says when pages a worker should have rendered are rendered in this thread instead, and why. */
  logger: Logger;
  /** The compiled templates, imported only if this thread renders pages. */
  loadModule: () => Promise<TemplateModule>;
  /** The content graph, for pages rendered in this thread (a build planned by a worker has not parsed the snapshot here). */
  loadGraph: () => Promise<ContentGraph>;
  images: ImageLookup;
  site: SiteSettings;
  assets: SiteAssets;
  output: SiteOutput;
  /** The published hash of each page's HTML (by file): identical pages are not rewritten. */
  previousHashes?: Record<string, string>;
  /** Worker threads for large renders (what they read the content and templates from); without it every page renders in this thread. */
  pool?: {
    root: string;
    workDir: string;
    sources: Pick<WorkerInit, "templateFile" | "snapshot" | "manifests">;
    service: RenderService;
    /** How many workers render (workerCountFor: one for a very large snapshot). */
    count: number;
  };
  /** When to render in workers (src/render/render-policy.ts). */
  policy: Pick<RenderPolicy, "workersFromPages">;
  /** Keep each page's body in the result, for the next build of this process (Builder.keepsBodies). */
  keepBodies: boolean;
  /** Bodies rendered by earlier builds of this process: a page whose body is still good is only framed again. The caller keeps the new bodies once the build is published. */
  bodies?: BodyCache;
  /** Filled with the time spent rendering (as opposed to waiting for the disk) and how many pages workers rendered. */
  timings?: RenderTimings;
}

export interface RenderTimings {
  renderMs: number;
  inWorkers: number;
  /** Pages a worker wrote into the new tree itself (WorkerInit.writeTo). */
  writtenInWorkers: number;
  bodiesReused: number;
}

const YIELD_EVERY = 8;

/** Whether a render of this many pages uses the worker threads (more than one core, enough pages). */
export function rendersInWorkers(pages: number, workersFromPages: number): boolean {
  return renderWorkerCount() > 1 && pages >= workersFromPages;
}

export async function renderAndWrite(input: RenderStageInput): Promise<RenderedPage[]> {
  const failures: NzfError[] = [];
  const rendered: RenderedPage[] = [];
  // Pages whose body is still good are framed here (cheap); the rest render whole, many in workers.
  const earlier = new Map<string, RenderedBody>();
  for (const page of input.pages) {
    const body = input.bodies?.get(page);
    if (body) earlier.set(page.file, body);
  }
  // Each page is staged as soon as it is rendered, so the disk works while the next page renders.
  const limit = pLimit(4);
  const writes: Promise<void>[] = [];
  // `scanned`: the secret scan's findings when the render worker scanned the page.
  const accept = (page: PageEntry, render: PageRender, scanned?: string[]) => {
    const html = htmlOf(render);
    const written = input.previousHashes?.[page.file] !== render.hash;
    // A kept body was inspected for secrets by the build that published it: only the frame is new.
    const inspectOnly = earlier.has(page.file) ? [render.before, render.after] : undefined;
    if (written) {
      const write = limit(() => input.output.put(page.file, html, { inspectOnly, scanned }));
      // Handled at once: a write that fails (a full disk) while pages still render must not be an
      // unhandled rejection, which would end a long-running process (the webhook server). It is
      // still awaited below, and the build fails with it.
      write.catch(() => undefined);
      writes.push(write);
    } else input.output.keep(page.file);
    // A caller that builds once keeps no bodies: each page's HTML is then held only until it is written.
    const { before, after, body, ...rest } = render;
    rendered.push({ page, ...rest, ...(input.keepBodies ? { body } : {}), written });
  };
  const fail = (page: PageEntry, failure: RenderFailure, cause?: unknown) => {
    failures.push(renderError(page, failure, cause));
  };

  if (input.timings) input.timings.bodiesReused += earlier.size;
  let here = input.pages.filter((page) => earlier.has(page.file));
  const whole = input.pages.filter((page) => !earlier.has(page.file));
  let renderMs = 0;
  let pooled: Promise<ThreadRenderResult> | null = null;
  if (input.pool && rendersInWorkers(whole.length, input.policy.workersFromPages)) {
    const { root, workDir, sources, service, count } = input.pool;
    const init: WorkerInit = { ...sources, site: input.site, assets: input.assets };
    // A new tree with no published page to compare with and no body to keep: the workers write the pages.
    if (input.output.isNewTree && !input.previousHashes && !input.keepBodies) init.writeTo = input.output.dir;
    pooled = service.render(whole, { root, workDir, count, init }, (page, result) => {
      if (!result.ok) return fail(page, result.failure);
      if ("render" in result) return accept(page, result.render, result.secrets);
      input.output.writtenByWorker(page.file, result.secrets);
      if (input.timings) input.timings.writtenInWorkers++;
      rendered.push({ page, ...result.written, written: true });
    });
  } else here = [...here, ...whole];
  let renderer: PageRenderer | null = null;
  const renderHere = async (pages: PageEntry[]) => {
    renderer ??= createPageRenderer({
      module: await input.loadModule(),
      graph: await input.loadGraph(),
      images: input.images,
      site: input.site,
      assets: input.assets,
    });
    for (let i = 0; i < pages.length; i++) {
      const page = pages[i]!;
      const started = performance.now();
      try {
        accept(page, renderer.render(page, earlier.get(page.file)));
      } catch (error) {
        fail(page, renderFailureOf(error), error);
      }
      renderMs += performance.now() - started;
      // Let the staged writes start between pages: rendering is synchronous, and without a turn of
      // the event loop every write would wait for the last page, instead of overlapping the render.
      if (i % YIELD_EVERY === YIELD_EVERY - 1) await new Promise((resolve) => setImmediate(resolve));
    }
  };
  try {
    await renderRest();
  } catch (error) {
    // No write may still be running when the caller removes the unfinished tree.
    await Promise.allSettled(writes);
    throw error;
  }
  await Promise.all(writes);
  if (failures.length) throw failures.length === 1 ? failures[0] : new NzfAggregateError("render", failures);
  // Workers return pages in the order they finish; the record and the site files want plan order.
  const order = new Map(input.pages.map((page, i) => [page.file, i]));
  return rendered.sort((a, b) => order.get(a.page.file)! - order.get(b.page.file)!);

  async function renderRest(): Promise<void> {
    if (here.length) await renderHere(here);
    if (pooled) {
      const { notRendered, renderMs: workerMs, problems } = await pooled;
      renderMs = Math.max(renderMs, workerMs);
      if (input.timings) input.timings.inWorkers += whole.length - notRendered.length;
      // A worker problem costs time, never a page: what no worker rendered renders here.
      if (notRendered.length) {
        const why = problems.map((p) => `[${p.code}] ${p.message}`).join("; ") || "no worker was free";
        input.logger.warn(
          "render",
          `[RENDER_WORKER_FAILED] ${notRendered.length} of ${whole.length} pages are rendered in the build's thread instead of render workers (slower, the same pages): ${why}`,
        );
        input.logger.warn("render", `  hint (RENDER_WORKER_FAILED): ${ERROR_CATALOGUE.RENDER_WORKER_FAILED.hint}`);
        await renderHere(notRendered);
      }
    }
    if (input.timings) input.timings.renderMs += renderMs;
  }
}
