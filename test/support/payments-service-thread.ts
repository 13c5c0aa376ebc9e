/**
 * The test payments service (payments-service.ts) in a worker thread, for test files whose globals
 * are not Node's: under happy-dom, `Request`, `Headers` and `fetch` are the page's, and the service's
 * HTTP adapter (@hono/node-server builds each request on the global `Request`) then fails every POST
 * with a 500. A worker has Node's own globals. The entry is bundled by esbuild (as the CLI is), with
 * its packages left to node_modules, so the worker runs the same source the tests see.
 */
import { mkdir, rm } from "node:fs/promises";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { Worker } from "node:worker_threads";
import { build } from "esbuild";
import type { RequestLogEntry } from "./payments-service.js";

export interface PaymentsServiceThread {
  url: string;
  port: number;
  requests(): Promise<RequestLogEntry[]>;
  donationCount(): Promise<number>;
  /** The Stripe stand-in's request log (method and path of each call the service made). */
  stripeRequests(): Promise<{ method: string; path: string }[]>;
  reset(): Promise<void>;
  stop(): Promise<void>;
}

// A string, not `new URL`: under happy-dom the global URL is the page's.
const root = join(dirname(fileURLToPath(import.meta.url)), "..", "..");

export async function startPaymentsServiceThread(): Promise<PaymentsServiceThread> {
  // Inside the project, so the worker resolves the packages left out of the bundle from node_modules.
  const outdir = join(root, "node_modules", ".cache", "nzf-test-threads");
  await mkdir(outdir, { recursive: true });
  const outfile = join(outdir, `payments-service-${process.pid}-${Date.now()}.mjs`);
  await build({
    absWorkingDir: root,
    entryPoints: ["test/support/payments-service-thread-entry.ts"],
    outfile,
    bundle: true,
    platform: "node",
    format: "esm",
    target: "node20.19",
    packages: "external",
    logLevel: "warning",
    // The payments database opener as the tests have it (api-db-open.ts, which api-db-setup.ts puts
    // in its place for every test file): the service opens this thread's PGlite by its name.
    plugins: [
      {
        name: "test-database-opener",
        setup(bundle) {
          bundle.onResolve({ filter: /\/api\/db\/open\.js$/ }, () => ({
            path: join(root, "test/support/api-db-open.ts"),
          }));
        },
      },
    ],
  });
  const worker = new Worker(outfile);
  const waiting = new Map<number, { resolve(v: unknown): void; reject(e: Error): void }>();
  let next = 1;
  const started = new Promise<{ url: string; port: number }>((resolve, reject) => {
    waiting.set(0, { resolve: resolve as (v: unknown) => void, reject });
  });
  worker.on("message", ({ id, result, error }: { id: number; result?: unknown; error?: string }) => {
    const call = waiting.get(id);
    waiting.delete(id);
    if (error) call?.reject(new Error(`payments service thread: ${error}`));
    else call?.resolve(result);
  });
  worker.on("error", (error) => {
    for (const call of waiting.values()) call.reject(error);
    waiting.clear();
  });
  const ask = <T>(call: string) =>
    new Promise<T>((resolve, reject) => {
      const id = next++;
      waiting.set(id, { resolve: resolve as (v: unknown) => void, reject });
      worker.postMessage({ id, call });
    });
  const { url, port } = await started;
  return {
    url,
    port,
    requests: () => ask("requests"),
    donationCount: () => ask("donationCount"),
    stripeRequests: () => ask("stripeRequests"),
    reset: () => ask("reset"),
    stop: async () => {
      await ask("stop");
      await worker.terminate();
      await rm(outfile, { force: true });
    },
  };
}
