/**
 * What a build keeps between the builds of one caller, and how that caller's builds run: the CLI
 * makes one per run, watch mode, the webhook server, the bench and each test fixture one for their
 * lifetime, and pass it to build() (`deps.builder`; without one, a build starts from nothing but
 * the work folder). Nothing here changes a build's output: it only saves work the work folder
 * would otherwise redo, or moves work between threads.
 */
import type { SnapshotMemory } from "../content/snapshot.js";
import type { PageBodies } from "../render/body-cache.js";
import type { StylesheetMemory } from "../bundle/styles.js";
import type { RecordMemory } from "../publish/incremental.js";
import type { ServiceWorkerMemory } from "../site-files/service-worker.js";
import { BundlerContexts } from "../bundle/bundler-contexts.js";
import type { PreviewBundle } from "../bundle/island-bundle.js";
import { RenderService } from "../render/render-service.js";
import { DEFAULT_RENDER_POLICY, type RenderPolicy } from "../render/render-policy.js";

export interface BuilderOptions {
  /**
   * Keep esbuild's contexts between builds, so an edit recompiles only what changed (watch mode,
   * the bench). Such a caller builds again soon, so it also plans each build in its own thread and
   * keeps the parsed snapshot for the next one (planInWorker false).
   */
  keepBundlers?: boolean;
  /**
   * Bundle the editor-preview app after the pages are published, not beside them (watch mode): each
   * build publishes the preview bundle made last, and the caller calls refreshPreview() after it,
   * building again when that made a new one (src/watch/watch.ts). The preview bundles the
   * templates for the browser and is the slowest bundle, while no page names it.
   */
  previewAfterPages?: boolean;
  /**
   * For one build only (what build() makes for a caller that brings none, the CLI): nothing is kept
   * for a next build, so rendered page bodies are let go as soon as each page is written.
   */
  forOneBuild?: boolean;
}

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
  /** The render threads: everything that knows about them (src/render/render-service.ts). */
  readonly renderer: RenderService;
  /** The preview bundle a build publishes when it is made after the pages (previewAfterPages). */
  readonly preview: PreviewMemory;
  /** esbuild contexts kept between builds (keepBundlers), or null: each build bundles afresh. */
  readonly bundlers: BundlerContexts | null;
  /** How this caller's builds render (src/render/render-policy.ts). */
  readonly render: RenderPolicy;
  /** Whether page bodies are kept for the next build (false for a builder made for one build). */
  readonly keepsBodies: boolean;
  /** Stops the render threads and disposes the bundlers; the caller calls it when it will build no more. */
  close(): Promise<void>;
}

export interface PreviewMemory {
  /** Whether builds publish `last` instead of bundling the preview themselves (once there is one). */
  readonly afterPages: boolean;
  /** The preview bundle made last (null: the project has none); undefined until one is made. */
  last?: PreviewBundle | null;
}

export function createBuilder(options: BuilderOptions = {}): Builder {
  const renderer = new RenderService(options.forOneBuild);
  const bundlers = options.keepBundlers ? new BundlerContexts() : null;
  return {
    snapshots: new Map(),
    bodies: new Map(),
    styles: { last: null },
    record: { lastWritten: null },
    serviceWorkers: new Map(),
    preview: { afterPages: options.previewAfterPages ?? false },
    renderer,
    bundlers,
    render: { ...DEFAULT_RENDER_POLICY, planInWorker: !options.keepBundlers },
    keepsBodies: !options.forOneBuild,
    close: async () => {
      await Promise.all([renderer.close(), bundlers?.dispose()]);
    },
  };
}
