/**
 * Render worker threads started before their code is known: the render service
 * (src/render/render-service.ts) boots them when a render is coming and the worker is not compiled
 * yet, so Node's own start-up in each thread overlaps the compile, and takes them once it is.
 * (The CLI's launcher used to boot them before it loaded the CLI: measured, no gain above the
 * noise, and 20 MB and 0.1 s of CPU lost by every build that renders in its own thread. With it
 * went the ending of booted threads a render did not take: the service boots only what it takes.)
 *
 * A booted thread runs BOOT: it waits for the file of the compiled worker and imports it. Messages
 * sent before that module listens wait in the thread's port. A file that fails to load ends the
 * thread, as a worker that fails to start did before.
 */
import { availableParallelism } from "node:os";
import { pathToFileURL } from "node:url";
import { Worker } from "node:worker_threads";

const BOOT = `const { parentPort } = require("node:worker_threads");
parentPort.once("message", ({ file }) => import(file));`;

/** The workers a build renders with: one per core, at most four. */
export function renderWorkerCount(): number {
  return Math.min(availableParallelism(), 4);
}

/** Booted threads no pool has taken yet. */
const booted: Worker[] = [];

/** The error that ended a thread (one thrown and not caught in it), for the log line of the fallback. */
const crashes = new WeakMap<Worker, Error>();

/** Why `worker` stopped, if an error it did not catch ended it. */
export function crashOf(worker: Worker): Error | undefined {
  return crashes.get(worker);
}

function bootWorker(): Worker {
  const worker = new Worker(BOOT, { eval: true, env: { ...process.env, NODE_ENV: "production" } });
  // Never what keeps a finished process alive: the pool references a worker while a build uses it.
  worker.unref();
  // Kept, not thrown: the thread's exit follows, and the render service reports it with this error.
  worker.on("error", (error) => crashes.set(worker, error));
  worker.once("exit", () => {
    const index = booted.indexOf(worker);
    if (index !== -1) booted.splice(index, 1);
  });
  return worker;
}

/** Boots threads until `count` wait to be taken. */
export function bootWorkers(count: number): void {
  while (booted.length < count) booted.push(bootWorker());
}

/** A booted thread (a new one if none waits), running the compiled worker `file`. */
export function startWorker(file: string): Worker {
  const worker = booted.shift() ?? bootWorker();
  worker.postMessage({ file: pathToFileURL(file).href });
  return worker;
}
