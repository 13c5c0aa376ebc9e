/**
 * Renders many pages at once in worker threads, one per core: renderToString is pure CPU work, and
 * a 2,000-page render on one thread leaves the other core idle. Each worker reads the build's
 * snapshot file and imports the compiled templates itself (nothing large crosses threads); the
 * build's thread hands out batches of pages and stages the HTML that comes back while the workers
 * go on rendering.
 *
 * The worker's code is compiled with esbuild like the templates (compileNodeModule) and reused while
 * its sources are unchanged, so the same code runs from the TypeScript sources in tests and from the
 * bundled CLI.
 */
import { join } from "node:path";
import { Worker } from "node:worker_threads";
import type { Manifest } from "../images/cache.js";
import type { PageEntry } from "./pages.js";
import type { PageRender } from "./render-page.js";
import type { SiteAssets, SiteSettings } from "./types.js";
import { compileNodeModule } from "./template-bundle.js";

export interface WorkerInit {
  templateFile: string;
  snapshot: { file: string; identity: string };
  manifests: [string, Manifest][];
  site: SiteSettings;
  assets: SiteAssets;
}

export interface WorkerRequest {
  batch: number;
  pages: PageEntry[];
}

export interface WorkerReply {
  batch: number;
  results: ({ ok: true; render: PageRender; ms: number } | { ok: false; message: string; ms: number })[];
}

type WorkerMessage = WorkerReply | { ready: true } | { fatal: string };

const BATCH = 32;

export interface PoolOptions {
  root: string;
  workDir: string;
  workers: number;
  init: WorkerInit;
}

/**
 * Renders `pages` in workers, calling `onPage` for each result in the order they arrive. Returns
 * the pages no worker rendered (a worker that could not start or that died): the caller renders
 * those itself, so a worker problem costs time, never a page. `renderMs` is the busiest worker's
 * rendering time.
 */
export async function renderInWorkers(
  pages: PageEntry[],
  options: PoolOptions,
  onPage: (page: PageEntry, result: { ok: true; render: PageRender } | { ok: false; message: string }) => void,
): Promise<{ notRendered: PageEntry[]; renderMs: number }> {
  const { file } = await compileNodeModule(options.root, join(options.workDir, "render-worker"), "src/render/render-worker.ts", "render-worker", "The render worker");
  const batches: PageEntry[][] = [];
  for (let i = 0; i < pages.length; i += BATCH) batches.push(pages.slice(i, i + BATCH));
  let next = 0;
  const notRendered: PageEntry[] = [];
  const busy: number[] = [];

  const runWorker = (slot: number) =>
    new Promise<void>((resolve) => {
      busy[slot] = 0;
      const worker = new Worker(file, { workerData: options.init, env: { ...process.env, NODE_ENV: "production" } });
      let current: number | null = null;
      let finished = false;
      const finish = () => {
        if (finished) return;
        finished = true;
        if (current !== null) notRendered.push(...batches[current]!);
        void worker.terminate();
        resolve();
      };
      const sendNext = () => {
        if (next >= batches.length) {
          current = null;
          return finish();
        }
        current = next++;
        worker.postMessage({ batch: current, pages: batches[current]! } satisfies WorkerRequest);
      };
      worker.on("message", (message: WorkerMessage) => {
        if ("fatal" in message) return finish();
        if ("ready" in message) return sendNext();
        const batch = batches[message.batch]!;
        message.results.forEach((result, i) => {
          busy[slot]! += result.ms;
          onPage(batch[i]!, result);
        });
        current = null;
        sendNext();
      });
      worker.on("error", finish);
      worker.on("exit", finish);
    });

  await Promise.all(Array.from({ length: Math.min(options.workers, batches.length) }, (_, slot) => runWorker(slot)));
  // Batches never handed out (every worker failed to start) are rendered by the caller too.
  for (let i = next; i < batches.length; i++) notRendered.push(...batches[i]!);
  return { notRendered, renderMs: Math.max(0, ...busy) };
}
