/**
 * How a caller's builds render, in one place (its Builder holds it: src/pipeline/builder.ts). Every
 * caller uses these figures; only planInWorker depends on the caller (see BuilderOptions.keepBundlers).
 * Tests that need a path their small fixture would not take (the 57-page sample renders in worker
 * threads only with workersFromPages lowered) change their own builder's copy through
 * test/support/build-fixture.ts, and compare the site with the default path's.
 */
export interface RenderPolicy {
  /** Render in worker threads from this many pages to render: below it, starting them costs more than it saves (the bench measures both). */
  workersFromPages: number;
  /** With no build record of the output folder, start the workers before the snapshot is read, from a snapshot this large (bytes). */
  earlyWorkersFromBytes: number;
  /**
   * Let an early-started worker plan the build from the snapshot it reads anyway, so the build's
   * thread parses none. A caller that builds again soon (watch mode) plans in its own thread
   * instead and keeps the parsed snapshot for its next build.
   */
  planInWorker: boolean;
  /**
   * From a snapshot this large (bytes), one worker renders. Each worker holds the documents' small
   * fields (a snapshot over onDemandFromBytes is read on demand, or through its index), about
   * 200 MB for 20,000 documents (113 MB): two at that size peak under 600 MB for the whole build.
   */
  oneWorkerFromBytes: number;
  /**
   * From a snapshot this large (bytes), a render worker parses each document's data only when a page
   * reads it (src/content/snapshot-on-demand.ts): a whole parse of 20,000 documents is several hundred MB.
   */
  onDemandFromBytes: number;
}

export const DEFAULT_RENDER_POLICY: RenderPolicy = {
  workersFromPages: 300,
  // A snapshot this large holds content for a few hundred pages or more (the sample: 200 KB for 57 pages).
  earlyWorkersFromBytes: 1024 * 1024,
  planInWorker: true,
  oneWorkerFromBytes: 128 * 1024 * 1024,
  onDemandFromBytes: 64 * 1024 * 1024,
};
