/**
 * Renders many pages at once in worker threads, one per core: renderToString is pure CPU work, and
 * a 2,000-page render on one thread leaves the other core idle. Each worker reads the build's
 * snapshot file and imports the compiled templates itself (nothing large crosses threads); the
 * build's thread hands out batches of pages and stages the HTML that comes back while the workers
 * go on rendering, or, in a new tree, records the pages the workers wrote themselves (WorkerInit.writeTo).
 *
 * The workers outlive a build (they are unreferenced between builds, so they never keep a finished
 * CLI alive): the webhook server and watch mode render with warm workers. The worker's code is
 * compiled with esbuild like the templates (compileNodeModule) and reused while its sources are
 * unchanged, so the same code runs from the TypeScript sources in tests and from the bundled CLI.
 */
import { join } from "node:path";
import type { Worker } from "node:worker_threads";
import type { Manifest } from "../images/cache.js";
import type { PageEntry } from "./pages.js";
import type { PageRender, PageSummary, RenderFailure } from "./render-page.js";
import type { ContentPlan } from "./content-plan.js";
import type { ImageUse } from "../images/collect.js";
import type { ContentProblem } from "../content/content-checks.js";
import type { SiteAssets, SiteSettings } from "../template-kit/types.js";
import { compileNodeModule, lastCompiledModule, lastCompiledTemplates } from "../bundle/template-bundle.js";
import { bootWorkers, endBootedWorkers, renderWorkerCount, startWorker } from "./worker/worker-boot.js";

/**
 * The snapshot file a worker reads, by identity. `onDemand`: parse each document's data only when
 * read (a very large snapshot: RenderPolicy.onDemandFromBytes, src/content/snapshot-on-demand.ts).
 */
export interface SnapshotSource {
  file: string;
  identity: string;
  onDemand?: boolean;
  /**
   * Where the worker may find the snapshot's index and its documents' facts, or keep them for the
   * next process (src/render/snapshot-index.ts): set for a caller that plans in a worker (the CLI).
   */
  index?: { file: string; facts: string; plan: string };
}

export interface WorkerInit {
  templateFile: string;
  snapshot: SnapshotSource;
  manifests: [string, Manifest][];
  site: SiteSettings;
  assets: SiteAssets;
  /** RenderPolicy.shareFrames. */
  shareFrames: boolean;
  /**
   * A new, empty tree no page is compared into (src/publish/site-output.ts): the worker writes each
   * page there itself and returns it without its HTML, so no page crosses threads or waits for the
   * build's thread to write it.
   */
  writeTo?: string;
}

export type ToWorker =
  /**
   * `first`: the request (a plan, the facts) the build will make of this worker, answered before
   * the templates load: their compile holds the thread for tens of milliseconds, and the build
   * waits for the answer.
   */
  | { type: "warm"; snapshot: WorkerInit["snapshot"]; templateFile: string | null; first?: PlanRequest }
  | PlanRequest
  | { type: "prepare"; init: WorkerInit }
  | { type: "render"; batch: number; pages: PageEntry[] };

/** `withFacts` false: another worker collects the documents' facts at the same time ("facts"). */
type PlanRequest =
  | { type: "plan"; snapshot: WorkerInit["snapshot"]; workDir: string; withFacts: boolean }
  | { type: "facts"; snapshot: WorkerInit["snapshot"] };

export type FromWorker =
  | { type: "ready" }
  | { type: "fatal"; message: string }
  | { type: "planned"; plan: ContentPlan }
  | { type: "plan-failed"; message: string }
  /** The documents' images and problems; prices the payments API refuses are only counted (planning in the build's thread reports them). */
  | { type: "facts"; images: ImageUse[]; problems: ContentProblem[]; priceErrors: number }
  | {
      type: "rendered";
      batch: number;
      /** `secrets`: what the secret scan found in the page's HTML (src/publish/secret-scan.ts). */
      results: (WorkerResult & { ms: number })[];
    };

/** A page a worker rendered (with its HTML, or `written` into WorkerInit.writeTo), or why it could not. */
export type WorkerResult =
  | { ok: true; render: PageRender; secrets: string[] }
  | { ok: true; written: PageSummary; secrets: string[] }
  | { ok: false; failure: RenderFailure };

const BATCH = 32;

export interface PoolOptions {
  root: string;
  workDir: string;
  workers: number;
  init: WorkerInit;
  pool: WorkerPool;
}

/**
 * A caller's render workers (src/pipeline/builder.ts), for the compiled worker file they run (a changed
 * worker source starts new ones). Idle workers are unreferenced: they never keep a process alive.
 */
export interface WorkerPool {
  current: { file: string; workers: Worker[] } | null;
}

export function createWorkerPool(): WorkerPool {
  return { current: null };
}

/** Stops the pool's workers; a later build starts new ones. */
export async function closeWorkerPool(pool: WorkerPool): Promise<void> {
  const workers = pool.current?.workers ?? [];
  pool.current = null;
  await Promise.all(workers.map((worker) => worker.terminate()));
}

/** How many render workers for a snapshot of this size (RenderPolicy.oneWorkerFromBytes). */
export function workerCountFor(snapshotBytes: number, oneWorkerFromBytes: number): number {
  return snapshotBytes >= oneWorkerFromBytes ? 1 : renderWorkerCount();
}

function workersFor(pool: WorkerPool, file: string, count: number): Worker[] {
  if (pool.current?.file !== file) {
    for (const worker of pool.current?.workers ?? []) void worker.terminate();
    pool.current = { file, workers: [] };
  }
  const { workers } = pool.current;
  while (workers.length < count) {
    const worker = startWorker(file);
    // A worker that dies leaves the pool; the next build starts another.
    worker.once("exit", () => {
      const index = workers.indexOf(worker);
      if (index !== -1) workers.splice(index, 1);
    });
    workers.push(worker);
  }
  return workers.slice(0, count);
}

const workerDir = (workDir: string) => join(workDir, "render-worker");

function compileWorker(root: string, workDir: string) {
  return compileNodeModule(
    root,
    workerDir(workDir),
    "src/render/worker/render-worker.ts",
    "render-worker",
    "The render worker",
  );
}

/**
 * Starts the workers of a render that is about to come and has them read the snapshot and load the
 * templates the last build compiled (React is bundled in them), while the build's own thread does
 * its other stages. In a new process that
 * start-up is most of a second, which otherwise came before the first page. A failure here is
 * ignored: the render itself prepares the workers again and reports what is wrong.
 */
export async function warmRenderWorkers(options: {
  root: string;
  workDir: string;
  snapshot: WorkerInit["snapshot"];
  /** Load the templates the last build compiled as well: in a new process (the CLI) they are most likely this build's. */
  loadLastTemplates: boolean;
  /** How many workers (workerCountFor). */
  count: number;
  pool: WorkerPool;
}): Promise<void> {
  try {
    // A caller that plans in a worker (loadLastTemplates) asks planInWorker's requests now.
    const requests = options.loadLastTemplates ? planRequests(options) : [];
    const warm = (file: string, templateFile: string | null) => {
      workersFor(options.pool, file, options.count).forEach((worker, i) => {
        const first = requests[i];
        worker.postMessage({ type: "warm", snapshot: options.snapshot, templateFile, first } satisfies ToWorker);
        if (first) asked.set(worker, { request: first, answer: listen(worker, answerTo(first)) });
      });
    };
    // The worker the last build compiled starts now: checking its sources takes this thread a while
    // beside the other bundles' checks. If they changed, workersFor replaces it with the new one.
    // With none compiled yet, the threads boot now and load the worker once it is compiled.
    const last = lastCompiledModule(workerDir(options.workDir));
    const templateFile = options.loadLastTemplates ? lastCompiledTemplates(options.workDir) : null;
    if (last) warm(last, templateFile);
    else bootWorkers(options.count - (options.pool.current?.workers.length ?? 0));
    // Threads booted with the CLI beyond this render's count would only hold memory.
    void endBootedWorkers(options.count - (options.pool.current?.workers.length ?? 0));
    const { file } = await compileWorker(options.root, options.workDir);
    if (file !== last) warm(file, templateFile);
  } catch {
    // See above.
  }
}

/**
 * Has the first render worker plan the build from the snapshot it reads anyway (for the render), so
 * the build's thread does not parse the snapshot as well. Rejects when the worker cannot (an
 * unreadable snapshot, a planning error, a dead worker): the caller then plans in its own thread,
 * which reports what is wrong.
 */
export async function planInWorker(options: {
  root: string;
  workDir: string;
  snapshot: WorkerInit["snapshot"];
  pool: WorkerPool;
  /** How many workers the render will use (workerCountFor): no more are started for the plan. */
  count: number;
}): Promise<ContentPlan> {
  const { file } = await compileWorker(options.root, options.workDir);
  const workers = workersFor(options.pool, file, options.count);
  // Awaited together: when both fail (an unreadable snapshot), neither rejection goes unhandled.
  const [planned, found] = await Promise.all(planRequests(options).map((request, i) => answerOf(workers[i]!, request)));
  if (planned?.type !== "planned") throw new Error("The render worker did not plan the build");
  if (!found) return planned.plan;
  if (found.type !== "facts") throw new Error("The render worker did not collect the documents' facts");
  if (found.priceErrors) throw new Error("Donation pages show prices the payments API refuses");
  return { ...planned.plan, images: found.images, problems: found.problems };
}

/**
 * What planInWorker asks of its workers, in order: the plan, and from a second worker (which would
 * otherwise wait for the plan) the documents' facts, at the same time. A snapshot read on demand
 * has its facts collected while it is read.
 */
function planRequests(options: { workDir: string; snapshot: WorkerInit["snapshot"]; count: number }): PlanRequest[] {
  const { snapshot, workDir } = options;
  const split = options.count > 1 && !snapshot.onDemand;
  const plan: PlanRequest = { type: "plan", snapshot, workDir, withFacts: !split };
  return split ? [plan, { type: "facts", snapshot }] : [plan];
}

/** Requests sent with a worker's warm-up (warmRenderWorkers), by worker, with their answers to come. */
const asked = new WeakMap<Worker, { request: PlanRequest; answer: Promise<FromWorker> }>();

/** The worker's answer to `request`: the one it is giving already if its warm-up asked the same, else asked now. */
function answerOf(worker: Worker, request: PlanRequest): Promise<FromWorker> {
  const early = asked.get(worker);
  asked.delete(worker);
  if (early && JSON.stringify(early.request) === JSON.stringify(request)) return early.answer;
  // A worker whose warm-up asked something else answers that first.
  return (early?.answer.catch(() => undefined) ?? Promise.resolve()).then(() =>
    ask(worker, request, answerTo(request)),
  );
}

/** Takes the message that answers `request` (an Error for a failure); undefined for any other message. */
function answerTo(request: PlanRequest): (message: FromWorker) => FromWorker | Error | undefined {
  const answerType = request.type === "plan" ? "planned" : "facts";
  return (message) =>
    message.type === "plan-failed" ? new Error(message.message) : message.type === answerType ? message : undefined;
}

/** The next message of `worker` that `answer` takes, without sending anything. */
function listen<T>(worker: Worker, answer: (message: FromWorker) => T | Error | undefined): Promise<T> {
  const answered = ask(worker, null, answer);
  // Not every warm-up's answer is waited for (a build that renders in its own thread, say).
  answered.catch(() => undefined);
  return answered;
}

/**
 * Sends a worker one request and waits for its answer: what `answer` makes of a message (an Error
 * rejects, undefined is not the answer), or a rejection if the worker stops first.
 */
function ask<T>(
  worker: Worker,
  request: ToWorker | null,
  answer: (message: FromWorker) => T | Error | undefined,
): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const settle = () => {
      worker.off("message", onMessage);
      worker.off("exit", onExit);
      worker.unref();
    };
    const onMessage = (message: FromWorker) => {
      const result = answer(message);
      if (result === undefined) return;
      settle();
      if (result instanceof Error) reject(result);
      else resolve(result);
    };
    const onExit = () => {
      settle();
      reject(new Error("The render worker stopped while planning the build"));
    };
    worker.on("message", onMessage);
    worker.once("exit", onExit);
    worker.ref();
    if (request) worker.postMessage(request);
  });
}

/**
 * The order batches are handed out in: pages of rare templates first (home, listings, programs:
 * one page each, many of them listing dozens of documents, slow apiece), then the many pages of
 * the article and case templates (quick each). Handed out last, the heavy pages made
 * one worker finish well after the other. Results are put back in plan order by the caller.
 */
function heavyFirst(pages: PageEntry[]): PageEntry[] {
  const count = new Map<string, number>();
  for (const page of pages) count.set(page.template, (count.get(page.template) ?? 0) + 1);
  return pages
    .map((page, i) => ({ page, i }))
    .sort((a, b) => count.get(a.page.template)! - count.get(b.page.template)! || a.i - b.i)
    .map(({ page }) => page);
}

/**
 * Renders `pages` in workers, calling `onPage` for each result in the order they arrive. Returns
 * the pages no worker rendered (a worker that could not prepare or that died): the caller renders
 * those itself, so a worker problem costs time, never a page. `renderMs` is the busiest worker's
 * rendering time.
 */
export async function renderInWorkers(
  pages: PageEntry[],
  options: PoolOptions,
  onPage: (page: PageEntry, result: WorkerResult) => void,
): Promise<{ notRendered: PageEntry[]; renderMs: number; problems: string[] }> {
  const { file } = await compileWorker(options.root, options.workDir);
  // Why a worker rendered less than it was given, for the log line of the fallback.
  const problems: string[] = [];
  const batches: PageEntry[][] = [];
  const ordered = heavyFirst(pages);
  for (let i = 0; i < ordered.length; i += BATCH) batches.push(ordered.slice(i, i + BATCH));
  let next = 0;
  const notRendered: PageEntry[] = [];
  const busy: number[] = [];

  // Each worker holds two batches: it starts the second while this thread stages the first's pages,
  // so it never waits on this thread between batches.
  const drive = (worker: Worker, slot: number) =>
    new Promise<void>((resolve) => {
      busy[slot] = 0;
      const inFlight = new Set<number>();
      let finished = false;
      const done = () => {
        if (finished) return;
        finished = true;
        worker.off("message", onMessage);
        worker.off("exit", onExit);
        worker.unref();
        for (const batch of inFlight) notRendered.push(...batches[batch]!);
        inFlight.clear();
        resolve();
      };
      const send = () => {
        if (next >= batches.length) return;
        const batch = next++;
        inFlight.add(batch);
        worker.postMessage({ type: "render", batch, pages: batches[batch]! } satisfies ToWorker);
      };
      const onMessage = (message: FromWorker) => {
        if (message.type === "fatal") {
          problems.push(`a render worker could not prepare: ${message.message}`);
          return done();
        }
        if (message.type === "ready") {
          send();
          send();
          if (inFlight.size === 0) done();
          return;
        }
        if (message.type !== "rendered") return;
        inFlight.delete(message.batch);
        send();
        const batch = batches[message.batch]!;
        message.results.forEach((result, i) => {
          busy[slot]! += result.ms;
          onPage(batch[i]!, result);
        });
        if (inFlight.size === 0) done();
      };
      const onExit = (code: number) => {
        if (!finished && inFlight.size)
          problems.push(`a render worker stopped (exit code ${code}) with pages to render`);
        done();
      };
      worker.on("message", onMessage);
      worker.once("exit", onExit);
      // Referenced while it works for this build, so the process waits for it.
      worker.ref();
      worker.postMessage({ type: "prepare", init: options.init } satisfies ToWorker);
    });

  await Promise.all(
    workersFor(options.pool, file, Math.min(options.workers, batches.length)).map((worker, slot) =>
      drive(worker, slot),
    ),
  );
  // Batches never handed out (no worker could prepare) are rendered by the caller too.
  for (let i = next; i < batches.length; i++) notRendered.push(...batches[i]!);
  return { notRendered, renderMs: Math.max(0, ...busy), problems };
}
