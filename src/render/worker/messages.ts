/**
 * The render threads' protocol, in one place: what the build's thread (src/render/render-service.ts)
 * sends a render worker (src/render/worker/render-worker.ts) and what comes back. Both sides import
 * these types, so a message one side sends and the other does not handle is a type error.
 */
import type { Manifest } from "../../images/cache.js";
import type { PageEntry } from "../pages.js";
import type { PageRender, PageSummary, RenderFailure } from "../render-page.js";
import type { ContentPlan } from "../content-plan.js";
import type { ImageUse } from "../../images/collect.js";
import type { ContentProblem } from "../../content/content-checks.js";
import type { SiteAssets, SiteSettings } from "../../template-kit/types.js";
import type { ErrorCode } from "../../core/errors.js";

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

/** What a worker renders with: the same for every page of a build. */
export interface WorkerInit {
  templateFile: string;
  snapshot: SnapshotSource;
  manifests: [string, Manifest][];
  site: SiteSettings;
  assets: SiteAssets;
  /**
   * A new, empty tree no page is compared into (src/publish/site-output.ts): the worker writes each
   * page there itself and returns it without its HTML, so no page crosses threads or waits for the
   * build's thread to write it.
   */
  writeTo?: string;
}

/** `withFacts` false: another worker collects the documents' facts at the same time ("facts"). */
export type PlanRequest =
  | { type: "plan"; snapshot: SnapshotSource; workDir: string; withFacts: boolean }
  | { type: "facts"; snapshot: SnapshotSource };

export type ToWorker =
  /**
   * Read the snapshot ahead of a render. `first`: the request (a plan, the facts) the build will
   * make of this worker, answered before the snapshot is read (from what an earlier process kept,
   * when it can), so the build waits for no more than the answer.
   */
  | { type: "warm"; snapshot: SnapshotSource; first?: PlanRequest }
  | PlanRequest
  | { type: "prepare"; init: WorkerInit }
  | { type: "render"; batch: number; pages: PageEntry[] };

/** A failure in a worker, as a coded error's code and message (src/core/errors.ts). */
export interface WorkerFailure {
  code: ErrorCode;
  message: string;
}

export type FromWorker =
  | { type: "ready" }
  /** The worker could not prepare the render (WorkerInit): the build's thread renders its pages. */
  | ({ type: "fatal" } & WorkerFailure)
  | { type: "planned"; plan: ContentPlan }
  | ({ type: "plan-failed" } & WorkerFailure)
  /** The documents' images and problems; prices the payments API refuses are only counted (planning in the build's thread reports them). */
  | { type: "facts"; images: ImageUse[]; problems: ContentProblem[]; priceErrors: number }
  | {
      type: "rendered";
      batch: number;
      results: (WorkerResult & { ms: number })[];
    };

/**
 * A page a worker rendered (with its HTML, or `written` into WorkerInit.writeTo), or why it could
 * not. `secrets`: what the secret scan found in the page's HTML (src/publish/secret-scan.ts).
 */
export type WorkerResult =
  | { ok: true; render: PageRender; secrets: string[] }
  | { ok: true; written: PageSummary; secrets: string[] }
  | { ok: false; failure: RenderFailure };
