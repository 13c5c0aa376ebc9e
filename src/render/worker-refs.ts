/**
 * Whether a render thread keeps the process alive: while any request waits on it. A thread serves
 * several at once (the answer to a warm-up's request arrives while the same thread renders), so a
 * plain ref()/unref() per request let the first answer unreference a thread another request still
 * waited on; with nothing else pending, Node then ended the CLI mid-render (exit code 13, no site).
 */
import type { Worker } from "node:worker_threads";

type Referable = Pick<Worker, "ref" | "unref">;

const holders = new WeakMap<Referable, number>();

/** A request now waits on `worker`: the process stays alive until every such request lets go. */
export function holdWorker(worker: Referable): void {
  const count = holders.get(worker) ?? 0;
  holders.set(worker, count + 1);
  if (count === 0) worker.ref();
}

/** A request no longer waits on `worker`; the last one to let go unreferences it. */
export function releaseWorker(worker: Referable): void {
  const count = holders.get(worker) ?? 0;
  if (count > 1) return void holders.set(worker, count - 1);
  holders.delete(worker);
  worker.unref();
}
