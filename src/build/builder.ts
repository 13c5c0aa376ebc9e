/**
 * What a build keeps between the builds of one caller: the CLI makes one per run, watch mode, the
 * webhook server, the bench and each test fixture one for their lifetime, and pass it to build()
 * (`deps.builder`; without one, a build starts from nothing but the work folder). Nothing here
 * changes a build's output: it only saves work the work folder would otherwise redo.
 */
import type { SnapshotMemory } from "../content/snapshot.js";
import type { PageBodies } from "../render/body-cache.js";
import type { StylesheetMemory } from "../bundle/styles.js";
import type { RecordMemory } from "../publish/incremental.js";
import type { ServiceWorkerMemory } from "../site-files/service-worker.js";
import { closeWorkerPool, createWorkerPool, type WorkerPool } from "../render/render-pool.js";

export interface Builder {
  /** The content snapshots read or fetched, by file, reused while the file is unchanged (src/content/snapshot.ts). */
  readonly snapshots: SnapshotMemory;
  /** Rendered page bodies by output folder, framed again when their inputs are unchanged (src/render/body-cache.ts). */
  readonly bodies: PageBodies;
  /** The last stylesheet made (src/bundle/styles.ts). */
  readonly styles: StylesheetMemory;
  /** The last incremental record written, so the next build need not parse it (src/publish/incremental.ts). */
  readonly record: RecordMemory;
  /** Service workers made, by what they were made from (src/site-files/service-worker.ts). */
  readonly serviceWorkers: ServiceWorkerMemory;
  /** The render worker threads (src/render/render-pool.ts). */
  readonly workers: WorkerPool;
  /** Stops the render workers; the caller calls it when it will build no more (the builder stays usable). */
  close(): Promise<void>;
}

export function createBuilder(): Builder {
  const workers = createWorkerPool();
  return {
    snapshots: new Map(),
    bodies: new Map(),
    styles: { last: null },
    record: { lastWritten: null },
    serviceWorkers: new Map(),
    workers,
    close: () => closeWorkerPool(workers),
  };
}
