/**
 * The content stage: which snapshot a build builds (fetching first when asked), and its plan (the
 * pages, the images they use, the dependency state). The plan is made in this thread, or by a render
 * worker that reads the snapshot for the render anyway (src/render/content-plan.ts), so that a
 * one-off build of many pages parses it in no more threads than it must.
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
import { planInWorker, warmRenderWorkers, workerCountFor, type SnapshotSource } from "../render/render-pool.js";
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

/** The snapshot file found before the build read it, with its identity, when the render workers were started with it. */
export type WarmedContent = Awaited<ReturnType<typeof cachedContentFile>> & { identity: string; bytes: number };

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
 * Starts the render workers before this thread reads the snapshot, when a full render of many pages
 * is coming: no record of this output folder (so every page renders) and a large snapshot. The
 * workers then read the snapshot and load React at once, instead of after this thread has.
 * Returns the snapshot file it warmed them with, or null when it did not.
 */
export async function warmWorkersEarly(
  config: BuildConfig,
  fullRender: Promise<boolean>,
  builder: Builder,
): Promise<WarmedContent | null> {
  const policy = builder.render;
  if (config.fetch || !rendersInWorkers(Number.MAX_SAFE_INTEGER, policy.workersFromPages) || !(await fullRender))
    return null;
  try {
    const cached = await cachedContentFile(config);
    const [info, identity] = await Promise.all([stat(cached.file), identityOf(cached.file)]);
    if (info.size < policy.earlyWorkersFromBytes || identity === null) return null;
    void warmRenderWorkers({
      root: config.root,
      workDir: config.workDir,
      snapshot: sourceFor(config, policy, cached.file, identity, info.size),
      loadLastTemplates: policy.planInWorker,
      count: workerCountFor(info.size, policy.oneWorkerFromBytes),
      pool: builder.workers,
    });
    return { ...cached, identity, bytes: info.size };
  } catch {
    return null; // loading the content reports what is wrong
  }
}

/**
 * What a worker is told of the snapshot it reads: the same for the warm-up and the plan, so that it
 * reads the file once. A caller that plans in a worker (the CLI) has it use the snapshot's index.
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

/**
 * With no record of this folder every page renders: starts the render workers now (unless started
 * already), so their start-up (reading the snapshot, loading React) overlaps the stages that follow.
 */
export function warmWorkersForFullRender(config: BuildConfig, builder: Builder, content: PlannedContent): void {
  if (!content.origin || !rendersInWorkers(content.plan.pages.length, builder.render.workersFromPages)) return;
  void warmRenderWorkers({
    root: config.root,
    workDir: config.workDir,
    snapshot: content.origin,
    loadLastTemplates: builder.render.planInWorker,
    count: content.workerCount,
    pool: builder.workers,
  });
}

/** The content stage: the plan by an early-started worker when the policy allows, else made here. */
export async function planStage(
  config: BuildConfig,
  deps: ContentStageDeps,
  warmed: WarmedContent | null,
  stage: StageTimer,
): Promise<PlannedContent> {
  const byWorker =
    warmed && deps.builder.render.planInWorker
      ? await stage("content", () => plannedByWorker(config, deps, warmed))
      : null;
  return byWorker ?? (await plannedHere(config, deps, stage));
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
 * Has a warm render worker plan the build from the snapshot it reads for the render anyway, so this
 * thread parses none (src/render/content-plan.ts). Null when the worker could not: planning here
 * then reports what is wrong.
 */
async function plannedByWorker(
  config: BuildConfig,
  deps: ContentStageDeps,
  warmed: WarmedContent,
): Promise<PlannedContent | null> {
  const origin = sourceFor(config, deps.builder.render, warmed.file, warmed.identity, warmed.bytes);
  let plan: ContentPlan;
  try {
    plan = await planInWorker({
      root: config.root,
      workDir: config.workDir,
      snapshot: origin,
      pool: deps.builder.workers,
      count: workerCountFor(warmed.bytes, deps.builder.render.oneWorkerFromBytes),
    });
  } catch (error) {
    // Planned here instead, which reports a problem of the content itself as it always does.
    deps.logger.debug(
      "content",
      `a render worker did not plan the build (${error instanceof Error ? error.message : String(error)}); planning in this thread`,
    );
    return null;
  }
  if (warmed.sample) sayBuildingSample(config, deps.builder, deps.logger);
  let graph: Promise<ContentGraph> | undefined;
  // Only pages a worker failed to render are rendered here; they must see the content the plan saw.
  const loadGraph = () =>
    (graph ??= loadSnapshot(origin.file, deps.builder.snapshots).then((snapshot) => {
      if (snapshotOrigin(snapshot)?.identity !== origin.identity)
        throw new NzfError("SNAPSHOT_CHANGED", `The content snapshot ${origin.file} changed during the build`, {
          subject: origin.file,
        });
      return createContentGraph(snapshot.documents, snapshot.languages);
    }));
  const workerCount = workerCountFor(warmed.bytes, deps.builder.render.oneWorkerFromBytes);
  return { name: warmed.name, plan, origin, loadGraph, inWorker: true, workerCount };
}
