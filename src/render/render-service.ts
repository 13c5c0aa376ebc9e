/**
 * The render service: everything the build's thread knows about render threads. A Builder owns one
 * (src/pipeline/builder.ts) and the pipeline asks it four things: `prepare` (start threads reading
 * the snapshot ahead of a render), `plan` (have a thread plan the build
 * from the snapshot it reads anyway), `render` (pages in batches) and `close`. The messages are
 * typed in src/render/worker/messages.ts, which the worker imports too; a worker's failure comes
 * back as a coded error, and the caller logs the fallback it takes.
 *
 * Why threads: renderToString is pure CPU work, and a 2,000-page render on one thread leaves the
 * other core idle. Each worker reads the build's snapshot file and imports the compiled templates
 * itself (nothing large crosses threads); the build's thread hands out batches of pages and stages
 * the HTML that comes back while the workers go on rendering, or, in a new tree, records the pages
 * the workers wrote themselves (WorkerInit.writeTo).
 *
 * The threads outlive a build (they are unreferenced between builds, so they never keep a finished
 * CLI alive): the webhook server and watch mode render with warm workers. The worker's code is
 * compiled with esbuild like the templates (compileNodeModule) and reused while its sources are
 * unchanged, so the same code runs from the TypeScript sources in tests and from the bundled CLI.
 */
import { join } from "node:path";
import type { Worker } from "node:worker_threads";
import { NzfError } from "../core/errors.js";
import type { PageEntry } from "./pages.js";
import type { ContentPlan } from "./content-plan.js";
import { compileNodeModule } from "../bundle/template-bundle.js";
import { bootWorkers, crashOf, renderWorkerCount, startWorker } from "./worker/worker-boot.js";
import { holdWorker, releaseWorker } from "./worker-refs.js";
import type {
  FromWorker,
  PlanRequest,
  SnapshotSource,
  ToWorker,
  WorkerFailure,
  WorkerInit,
  WorkerResult,
} from "./worker/messages.js";

export type { SnapshotSource, WorkerInit, WorkerResult } from "./worker/messages.js";

const BATCH = 32;

/** Where the worker's code is compiled from and kept: the project root and the build's work folder. */
export interface RenderPlace {
  root: string;
  workDir: string;
}

/** What a render in threads needs besides its pages. */
export interface ThreadRender extends RenderPlace {
  /** How many threads render (workerCountFor). */
  count: number;
  init: WorkerInit;
}

/** What the threads gave back: the pages none rendered (the caller renders those), and why. */
export interface ThreadRenderResult {
  notRendered: PageEntry[];
  /** The busiest thread's rendering time. */
  renderMs: number;
  /** Why a thread rendered less than it was given, as coded errors, for the log line of the fallback. */
  problems: NzfError[];
}

/** How many render workers for a snapshot of this size (RenderPolicy.oneWorkerFromBytes). */
export function workerCountFor(snapshotBytes: number, oneWorkerFromBytes: number): number {
  return snapshotBytes >= oneWorkerFromBytes ? 1 : renderWorkerCount();
}

/** A worker's failure as the coded error the caller reports or logs. */
function failureOf(failure: WorkerFailure): NzfError {
  return new NzfError(failure.code, failure.message);
}

const workerDir = (workDir: string) => join(workDir, "render-worker");

function compileWorker(place: RenderPlace) {
  return compileNodeModule(
    place.root,
    workerDir(place.workDir),
    "src/render/worker/render-worker.ts",
    "render-worker",
    "The render worker",
  );
}

export class RenderService {
  /** The threads, for the compiled worker file they run (a changed worker source starts new ones). */
  #threads: { file: string; workers: Worker[] } | null = null;
  /** Requests sent with a worker's warm-up (prepare), by worker, with their answers to come. */
  #asked = new WeakMap<Worker, { request: PlanRequest; answer: Promise<FromWorker> }>();

  /**
   * @param forOneBuild the caller builds once (the CLI): its threads end as soon as the pages are
   * rendered (`rendered`), so their teardown (freeing each heap, tens of milliseconds) overlaps the
   * build's last stages instead of delaying the exit.
   */
  constructor(private readonly forOneBuild = false) {}

  /** How many threads are running now. */
  get threads(): number {
    return this.#threads?.workers.length ?? 0;
  }

  /**
   * Starts the threads of a render that is about to come and has them read the snapshot, while the
   * build's own thread does its other stages. In a new process that start-up is most of a second,
   * which otherwise came before the first page. With `planNext`, also asks the threads now what
   * `plan` will ask them. A failure here is ignored: `plan` and `render` ask again and report what
   * is wrong.
   */
  prepare(
    options: RenderPlace & {
      snapshot: SnapshotSource;
      /** The caller asks `plan` next: its requests go with the warm-up, so the answer starts at once. */
      planNext: boolean;
      /** How many threads (workerCountFor). */
      count: number;
    },
  ): void {
    void this.#prepare(options).catch(() => undefined);
  }

  async #prepare(options: Parameters<RenderService["prepare"]>[0]): Promise<void> {
    // Threads boot now, while this thread checks the worker's sources beside the other bundles'
    // checks, and load the worker once it is checked. Kept, measured (the CLI, 2,000 documents, 8
    // interleaved pairs, load 17-32): starting them only after the check was slower into an empty
    // folder in 6 of 8 pairs (paired median +2.6 s, CPU +0.14 s) and for a new snapshot in 5 of 8
    // (+0.9 s); the peak memory the same.
    bootWorkers(options.count - this.threads);
    const { file } = await compileWorker(options);
    // A caller that plans in its own thread (it keeps bundlers) asks a thread none.
    const requests = options.planNext ? planRequests(options) : [];
    this.#workersFor(file, options.count).forEach((worker, i) => {
      const first = requests[i];
      worker.postMessage({ type: "warm", snapshot: options.snapshot, first } satisfies ToWorker);
      if (first) this.#asked.set(worker, { request: first, answer: listen(worker, answerTo(first)) });
    });
  }

  /**
   * Has the first thread plan the build from the snapshot it reads anyway (for the render), so the
   * build's thread does not parse the snapshot as well. Rejects with a coded error when it cannot
   * (an unreadable snapshot, a planning error, a dead thread): the caller then plans in its own
   * thread, which reports a problem of the content itself as it always does.
   */
  async plan(
    options: RenderPlace & {
      snapshot: SnapshotSource;
      /** How many threads the render will use (workerCountFor): no more are started for the plan. */
      count: number;
    },
  ): Promise<ContentPlan> {
    const { file } = await compileWorker(options);
    const workers = this.#workersFor(file, options.count);
    // Awaited together: when both fail (an unreadable snapshot), neither rejection goes unhandled.
    const [planned, found] = await Promise.all(
      planRequests(options).map((request, i) => this.#answerOf(workers[i]!, request)),
    );
    if (planned?.type !== "planned") throw workerError("The render worker did not plan the build");
    if (!found) return planned.plan;
    if (found.type !== "facts") throw workerError("The render worker did not collect the documents' facts");
    if (found.priceErrors)
      throw new NzfError("CONTENT_PRICE_INVALID", "Donation pages show prices the payments API refuses");
    return { ...planned.plan, images: found.images, problems: found.problems };
  }

  /**
   * Renders `pages` in threads, calling `onPage` for each result in the order they arrive. Returns
   * the pages no thread rendered (one that could not prepare or that died): the caller renders those
   * itself, so a thread's problem costs time, never a page.
   */
  async render(
    pages: PageEntry[],
    options: ThreadRender,
    onPage: (page: PageEntry, result: WorkerResult) => void,
  ): Promise<ThreadRenderResult> {
    const { file } = await compileWorker(options);
    const problems: NzfError[] = [];
    const batches: PageEntry[][] = [];
    const ordered = heavyFirst(pages);
    for (let i = 0; i < ordered.length; i += BATCH) batches.push(ordered.slice(i, i + BATCH));
    let next = 0;
    const notRendered: PageEntry[] = [];
    const busy: number[] = [];

    // Each thread holds two batches: it starts the second while this thread stages the first's
    // pages, so it never waits on this thread between batches.
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
          releaseWorker(worker);
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
            problems.push(new NzfError(message.code, `A render worker could not prepare: ${message.message}`));
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
        // A thread that stops before its share is done (crashed, ended) leaves its pages to the caller.
        const onExit = (code: number) => {
          if (!finished) problems.push(stopped(worker, code, "rendering"));
          done();
        };
        worker.on("message", onMessage);
        worker.once("exit", onExit);
        // Referenced while it works for this build, so the process waits for it.
        holdWorker(worker);
        worker.postMessage({ type: "prepare", init: options.init } satisfies ToWorker);
      });

    await Promise.all(
      this.#workersFor(file, Math.min(options.count, batches.length)).map((worker, slot) => drive(worker, slot)),
    );
    // Batches never handed out (no thread could prepare) are rendered by the caller too.
    for (let i = next; i < batches.length; i++) notRendered.push(...batches[i]!);
    return { notRendered, renderMs: Math.max(0, ...busy), problems };
  }

  /** The build's pages are rendered: a service for one build lets its threads go now. */
  rendered(): void {
    if (this.forOneBuild) void this.close();
  }

  /** Stops the threads; a later build starts new ones. */
  async close(): Promise<void> {
    const workers = this.#threads?.workers ?? [];
    this.#threads = null;
    await Promise.all(workers.map((worker) => worker.terminate()));
  }

  #workersFor(file: string, count: number): Worker[] {
    if (this.#threads?.file !== file) {
      for (const worker of this.#threads?.workers ?? []) void worker.terminate();
      this.#threads = { file, workers: [] };
    }
    const { workers } = this.#threads;
    while (workers.length < count) {
      const worker = startWorker(file);
      // A thread that dies leaves the service; the next build starts another.
      worker.once("exit", () => {
        const index = workers.indexOf(worker);
        if (index !== -1) workers.splice(index, 1);
      });
      workers.push(worker);
    }
    return workers.slice(0, count);
  }

  /** The worker's answer to `request`: the one it is giving already if its warm-up asked the same, else asked now. */
  #answerOf(worker: Worker, request: PlanRequest): Promise<FromWorker> {
    const early = this.#asked.get(worker);
    this.#asked.delete(worker);
    if (early && JSON.stringify(early.request) === JSON.stringify(request)) return early.answer;
    // A worker whose warm-up asked something else answers that first.
    return (early?.answer.catch(() => undefined) ?? Promise.resolve()).then(() =>
      ask(worker, request, answerTo(request)),
    );
  }
}

const workerError = (message: string) => new NzfError("RENDER_WORKER_FAILED", message);

/** A thread that stopped while `doing` something, with the error that ended it when one did. */
function stopped(worker: Worker, code: number, doing: string): NzfError {
  const crash = crashOf(worker);
  return workerError(
    `The render worker stopped (exit code ${code}${crash ? `: ${crash.message}` : ""}) while ${doing}`,
  );
}

/**
 * What `plan` asks of its threads, in order: the plan, and from a second thread (which would
 * otherwise wait for the plan) the documents' facts, at the same time. A snapshot read on demand
 * has its facts collected while it is read.
 */
function planRequests(options: { workDir: string; snapshot: SnapshotSource; count: number }): PlanRequest[] {
  const { snapshot, workDir } = options;
  const split = options.count > 1 && !snapshot.onDemand;
  const plan: PlanRequest = { type: "plan", snapshot, workDir, withFacts: !split };
  return split ? [plan, { type: "facts", snapshot }] : [plan];
}

/** Takes the message that answers `request` (an error for a failure); undefined for any other message. */
function answerTo(request: PlanRequest): (message: FromWorker) => FromWorker | Error | undefined {
  const answerType = request.type === "plan" ? "planned" : "facts";
  return (message) =>
    message.type === "plan-failed" ? failureOf(message) : message.type === answerType ? message : undefined;
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
      releaseWorker(worker);
    };
    const onMessage = (message: FromWorker) => {
      const result = answer(message);
      if (result === undefined) return;
      settle();
      if (result instanceof Error) reject(result);
      else resolve(result);
    };
    const onExit = (code: number) => {
      settle();
      reject(stopped(worker, code, "planning the build"));
    };
    worker.on("message", onMessage);
    worker.once("exit", onExit);
    holdWorker(worker);
    if (request) worker.postMessage(request);
  });
}

/**
 * The order batches are handed out in: pages of rare templates first (home, listings, programs:
 * one page each, many of them listing dozens of documents, slow apiece), then the many pages of
 * the article and case templates (quick each). Handed out last, the heavy pages made
 * one thread finish well after the other. Results are put back in plan order by the caller.
 */
function heavyFirst(pages: PageEntry[]): PageEntry[] {
  const count = new Map<string, number>();
  for (const page of pages) count.set(page.template, (count.get(page.template) ?? 0) + 1);
  return pages
    .map((page, i) => ({ page, i }))
    .sort((a, b) => count.get(a.page.template)! - count.get(b.page.template)! || a.i - b.i)
    .map(({ page }) => page);
}
