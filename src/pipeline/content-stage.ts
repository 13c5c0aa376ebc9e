/**
 * The content stage: which snapshot a build builds (fetching first when asked), and its plan (the
 * pages, the images they use, the dependency state). The plan is made in this thread, or by a render
 * thread that reads the snapshot for the render anyway (src/render/content-plan.ts), so that a
 * one-off build of many pages parses it in no more threads than it must. When every page of a large
 * snapshot will render, this stage starts the render threads before it reads the snapshot
 * (RenderService.prepare), so that their start-up (Node's own, reading the snapshot) overlaps
 * this thread's work instead of coming before the first page.
 */
import { stat } from "node:fs/promises";
import { join } from "node:path";
import type { BuildConfig } from "../core/config.js";
import type { Logger } from "../core/logger.js";
import { NzfError } from "../core/errors.js";
import { exists, identityOf } from "../core/fs.js";
import {
  loadSnapshot,
  SAMPLE_SNAPSHOT_NAME,
  type Snapshot,
  snapshotOrigin,
  snapshotPath,
} from "../content/snapshot.js";
import { type ContentGraph, createContentGraph } from "../content/graph.js";
import { type ContentPlan, planContent } from "../render/content-plan.js";
import { workerCountFor, type SnapshotSource } from "../render/render-service.js";
import { rendersInWorkers } from "../render/render-stage.js";
import type { Builder } from "./builder.js";
import type { RenderPolicy } from "../render/render-policy.js";

export interface ContentStageDeps {
  logger: Logger;
  builder: Builder;
  sleep?: (ms: number) => Promise<void>;
  /** Documents a webhook said changed: the fetch downloads only these when it safely can. */
  changedDocumentIds?: string[];
}

type StageTimer = <T>(name: string, run: () => Promise<T>) => Promise<T>;

/** The content a build builds: its plan, where it came from, and its graph for pages rendered in this thread. */
export interface PlannedContent {
  name: string;
  plan: ContentPlan;
  origin: SnapshotSource | undefined;
  loadGraph: () => Promise<ContentGraph>;
  inWorker: boolean;
  /** How many render workers this content calls for (one for a very large snapshot: RenderPolicy.oneWorkerFromBytes). */
  workerCount: number;
}

/** The snapshot file found before the build read it, with its identity, when the render threads were started with it. */
type WarmedContent = Awaited<ReturnType<typeof cachedContentFile>> & { identity: string; bytes: number };

/** Picks the snapshot to build from, fetching first when asked. */
async function loadContent(
  config: BuildConfig,
  deps: ContentStageDeps,
): Promise<{ snapshot: Snapshot; name: string; file: string }> {
  if (config.fetch) {
    const { fetchContent } = await import("../content/fetch.js");
    const result = await fetchContent(
      {
        repository: config.repository,
        endpoint: config.endpoint,
        accessToken: config.accessToken,
        cacheDir: config.contentDir,
        changedIds: deps.changedDocumentIds,
      },
      { logger: deps.logger, sleep: deps.sleep, snapshots: deps.builder.snapshots },
    );
    return { snapshot: result.snapshot, name: config.repository, file: result.file };
  }
  const cached = await cachedContentFile(config);
  if (cached.sample) sayBuildingSample(config, deps.builder, deps.logger);
  return { snapshot: await loadSnapshot(cached.file, deps.builder.snapshots), name: cached.name, file: cached.file };
}

/** Builders (a watch session, the webhook server) that have said so: once is enough, not every rebuild. */
const toldSample = new WeakSet<Builder>();

function sayBuildingSample(config: BuildConfig, builder: Builder, logger: Logger): void {
  if (toldSample.has(builder)) return;
  toldSample.add(builder);
  logger.info(
    "content",
    `building the bundled sample content (no fetched snapshot for "${config.repository}"; use --fetch for live content)`,
  );
}

/** The snapshot file a build without --fetch reads: the fetched one when there is one (unless the sample is asked for), else the sample. */
async function cachedContentFile(config: BuildConfig): Promise<{ file: string; name: string; sample: boolean }> {
  const fetched = snapshotPath(config.contentDir, config.repository);
  if (config.content !== "sample" && (await exists(fetched)))
    return { file: fetched, name: config.repository, sample: false };
  if (config.content === "fetched") {
    throw new NzfError("SNAPSHOT_MISSING", `No fetched snapshot for ${config.repository}`, { subject: fetched });
  }
  return { file: snapshotPath(config.contentDir, SAMPLE_SNAPSHOT_NAME), name: SAMPLE_SNAPSHOT_NAME, sample: true };
}

/**
 * The content stage. `fullRender`: no record describes the output folder, so every page renders.
 * Then the render threads start before this thread reads the snapshot (a large one), and one of
 * them plans the build when the policy allows; else the plan is made here, and the threads start
 * with the render.
 */
export async function contentStage(
  config: BuildConfig,
  deps: ContentStageDeps,
  fullRender: boolean,
  stage: StageTimer,
): Promise<PlannedContent> {
  const warmed = fullRender ? await prepareEarly(config, deps.builder) : null;
  const byThread =
    warmed && deps.builder.render.planInWorker
      ? await stage("content", () => plannedByThread(config, deps, warmed))
      : null;
  return byThread ?? plannedHere(config, deps, stage);
}

/**
 * Starts the render threads before this thread reads the snapshot, when a full render of many
 * pages is coming (a large snapshot): they then start and read the snapshot at once, instead of
 * after this thread has. Returns the snapshot file they were started with, or null.
 */
async function prepareEarly(config: BuildConfig, builder: Builder): Promise<WarmedContent | null> {
  const policy = builder.render;
  if (config.fetch || !rendersInWorkers(Number.MAX_SAFE_INTEGER, policy.workersFromPages)) return null;
  try {
    const cached = await cachedContentFile(config);
    const [info, identity] = await Promise.all([stat(cached.file), identityOf(cached.file)]);
    if (info.size < policy.earlyWorkersFromBytes || identity === null) return null;
    builder.renderer.prepare({
      root: config.root,
      workDir: config.workDir,
      snapshot: sourceFor(config, policy, cached.file, identity, info.size),
      planNext: policy.planInWorker,
      count: workerCountFor(info.size, policy.oneWorkerFromBytes),
    });
    return { ...cached, identity, bytes: info.size };
  } catch {
    return null; // loading the content reports what is wrong
  }
}

/**
 * What a thread is told of the snapshot it reads: the same for the warm-up and the plan, so that it
 * reads the file once. A caller that plans in a thread (the CLI) has it use the snapshot's index.
 */
function sourceFor(config: BuildConfig, policy: RenderPolicy, file: string, identity: string, bytes: number) {
  const onDemand = bytes >= policy.onDemandFromBytes;
  return policy.planInWorker
    ? {
        file,
        identity,
        onDemand,
        index: {
          file: join(config.workDir, "snapshot-index.json"),
          facts: join(config.workDir, "snapshot-facts.json"),
          plan: join(config.workDir, "snapshot-plan.json"),
        },
      }
    : { file, identity, onDemand };
}

/** Plans the build in this thread: reads (or fetches) the snapshot and builds its graph. */
async function plannedHere(config: BuildConfig, deps: ContentStageDeps, stage: StageTimer): Promise<PlannedContent> {
  const content = await stage("content", () => loadContent(config, deps));
  const { snapshot } = content;
  const graph = await stage("graph", async () => createContentGraph(snapshot.documents, snapshot.languages));
  const read = snapshotOrigin(snapshot);
  const plan = await stage("pages", () => planContent(snapshot, graph, read, config.workDir));
  const bytes = read
    ? await stat(read.file).then(
        (s) => s.size,
        () => 0,
      )
    : 0;
  const workerCount = workerCountFor(bytes, deps.builder.render.oneWorkerFromBytes);
  const origin = read && { ...read, onDemand: bytes >= deps.builder.render.onDemandFromBytes };
  return { name: content.name, plan, origin, loadGraph: async () => graph, inWorker: false, workerCount };
}

/**
 * Has a prepared render thread plan the build from the snapshot it reads for the render anyway, so
 * this thread parses none (src/render/content-plan.ts). Null when the thread could not: planning
 * here then reports a problem of the content as it always does; any other failure is logged.
 */
async function plannedByThread(
  config: BuildConfig,
  deps: ContentStageDeps,
  warmed: WarmedContent,
): Promise<PlannedContent | null> {
  const origin = sourceFor(config, deps.builder.render, warmed.file, warmed.identity, warmed.bytes);
  const workerCount = workerCountFor(warmed.bytes, deps.builder.render.oneWorkerFromBytes);
  let plan: ContentPlan;
  try {
    plan = await deps.builder.renderer.plan({
      root: config.root,
      workDir: config.workDir,
      snapshot: origin,
      count: workerCount,
    });
  } catch (error) {
    // Coded either way: a failure that came without a code is the thread's own.
    const coded =
      error instanceof NzfError
        ? error
        : new NzfError("RENDER_WORKER_FAILED", error instanceof Error ? error.message : String(error));
    const why = `[${coded.code}] ${coded.message}`;
    // A problem of the content is reported by planning here; a thread's own failure is said now.
    if (coded.kind === "input")
      deps.logger.debug("content", `a render thread did not plan the build (${why}); planning in this thread`);
    else
      deps.logger.warn(
        "content",
        `a render thread did not plan the build (${why}); planning in this thread instead (slower, the same site)`,
      );
    return null;
  }
  if (warmed.sample) sayBuildingSample(config, deps.builder, deps.logger);
  let graph: Promise<ContentGraph> | undefined;
  // Only pages a thread failed to render are rendered here; they must see the content the plan saw.
  const loadGraph = () =>
    (graph ??= loadSnapshot(origin.file, deps.builder.snapshots).then((snapshot) => {
      if (snapshotOrigin(snapshot)?.identity !== origin.identity)
        throw new NzfError("SNAPSHOT_CHANGED", `The content snapshot ${origin.file} changed during the build`, {
          subject: origin.file,
        });
      return createContentGraph(snapshot.documents, snapshot.languages);
    }));
  return { name: warmed.name, plan, origin, loadGraph, inWorker: true, workerCount };
}
