/**
 * The pipeline, top to bottom: content → graph → pages → images → islands → render → publish.
 * The CLI, watch mode, the webhook server and the tests all call this one function.
 */
import { createHash } from "node:crypto";
import { join } from "node:path";
import type { BuildConfig } from "../core/config.js";
import type { Logger } from "../core/logger.js";
import { formatMs } from "../core/logger.js";
import { NzfError } from "../core/errors.js";
import {
  loadSnapshot,
  snapshotOrigin,
  snapshotPath,
  SAMPLE_SNAPSHOT_NAME,
  type Snapshot,
} from "../content/snapshot.js";
import { createContentGraph, type ContentGraph } from "../content/graph.js";
import { planContent, type ContentPlan } from "../render/content-plan.js";
import { runImageStageFor } from "../images/image-stage.js";
import { bundleClient, bundlePreview, PREVIEW_URL } from "../bundle/island-bundle.js";
import type { BundlerContexts } from "../bundle/bundler-contexts.js";
import { loadTemplates } from "../bundle/template-bundle.js";
import { buildStylesheet } from "../bundle/styles.js";
import { bodyCacheFor, contentVersions } from "../render/body-cache.js";
import { renderAndWrite, rendersInWorkers, type RenderedPage } from "../render/render-stage.js";
import { planInWorker, warmRenderWorkers } from "../render/render-pool.js";
import { changedDependencies, isAffected, type ContentState } from "../render/dependencies.js";
import { readIncrementalRecord, writeIncrementalRecord, type IncrementalRecord } from "../publish/incremental.js";
import { discardOutput, listPublishedFiles, publishOutput } from "../publish/publish.js";
import { createSiteOutput } from "../publish/site-output.js";
import { chooseTarget, guardOutput, readOutputState } from "../publish/versions.js";
import { lockOutput } from "../publish/output-lock.js";
import { preloadServiceWorkerTools } from "../site-files/service-worker.js";
import { siteFilesKey, toolBuildId, writeSiteFiles } from "./site-files-stage.js";
import { previewPublicEnv } from "../preview/public-config.js";
import { createSecretScan } from "../publish/secret-scan.js";
import { exists, identityOf } from "../core/fs.js";
import { stat } from "node:fs/promises";
import { cacheDebug } from "../cache/debug.js";
import { explainRebuild } from "../cache/rebuild-reasons.js";
import { isCI, reportWarnings } from "../core/warnings.js";
import { createBuilder, type Builder } from "./builder.js";

export interface BuildDeps {
  logger: Logger;
  /** What this caller keeps between its builds (src/build/builder.ts); default: a new one, so nothing is kept. */
  builder?: Builder;
  fetch?: typeof globalThis.fetch;
  sleep?: (ms: number) => Promise<void>;
  /** Documents a webhook said changed: the fetch downloads only these when it safely can. */
  changedDocumentIds?: string[];
  /** Public, validated configuration handed to islands (auth, payments). */
  publicConfig?: Record<string, unknown>;
  /** Render in worker threads from this many pages (default in src/render/render-stage.ts; tests lower it). */
  renderPoolMinPages?: number;
  /** Start the render workers before the snapshot is read, and have one plan the build, from a snapshot this large (default 1 MB; tests lower it). */
  earlyWorkersFromBytes?: number;
  /** Render the layout once per variant (default) or for every page (tests compare the two). */
  memoizeFrames?: boolean;
  /** esbuild contexts kept between builds by a long-running caller (watch mode), which disposes them. */
  bundlers?: BundlerContexts;
  /** Source warnings (the stylesheet's) stop the build; default: when the CI variable is set (src/core/warnings.ts). */
  strictWarnings?: boolean;
  /** How long to wait for another build writing the same output folder (default in src/publish/output-lock.ts). */
  lockWaitMs?: number;
}

export interface BuildResult {
  pages: number;
  /** Pages whose HTML was written this build (the rest were unchanged). */
  pagesRebuilt: number;
  /** Pages rendered in worker threads (the rest rendered in the build's thread). */
  renderedInWorkers: number;
  /** Whether a render worker planned the build from the snapshot (src/render/content-plan.ts), so this thread did not parse it. */
  plannedInWorker: boolean;
  /** Pages framed around a body rendered by an earlier build of this process (src/render/body-cache.ts). */
  bodiesReused: number;
  images: number;
  /** False when nothing changed since the last build and dist/ was left as it was. */
  published: boolean;
  ms: number;
  stages: Record<string, number>;
  snapshot: { name: string; ref: string; documents: number };
  outDir: string;
}

function hashOf(value: unknown): string {
  return createHash("sha1").update(JSON.stringify(value)).digest("hex");
}

/** Picks the snapshot to build from, fetching first when asked. */
async function loadContent(
  config: BuildConfig,
  deps: BuildDeps,
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
      { logger: deps.logger, fetch: deps.fetch, sleep: deps.sleep, snapshots: deps.builder?.snapshots },
    );
    return { snapshot: result.snapshot, name: config.repository, file: result.file };
  }
  const cached = await cachedContentFile(config);
  if (cached.sample) sayBuildingSample(config, deps);
  return { snapshot: await loadSnapshot(cached.file, deps.builder?.snapshots), name: cached.name, file: cached.file };
}

function sayBuildingSample(config: BuildConfig, deps: BuildDeps): void {
  deps.logger.info(
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

/** A one-shot build keeps no bundler contexts (the CLI; the webhook server too, whose builds always fetch); watch mode keeps them. */
const isOneShot = (deps: BuildDeps): boolean => !deps.bundlers;

/** A snapshot this large holds content for a few hundred pages or more (the sample: 200 KB for 57 pages). */
const EARLY_WARM_BYTES = 1024 * 1024;

type CachedContent = Awaited<ReturnType<typeof cachedContentFile>> & { identity: string };

/**
 * Starts the render workers before this thread reads the snapshot, when a full render of many pages
 * is coming: no record of this output folder (so every page renders) and a large snapshot. The
 * workers then read the snapshot and load React at once, instead of after this thread has,
 * and in a one-shot build one of them plans it (plannedByWorker). Returns the snapshot file it warmed them with.
 */
async function warmWorkersEarly(
  config: BuildConfig,
  fullRender: Promise<boolean>,
  deps: BuildDeps,
): Promise<CachedContent | null> {
  if (config.fetch || !rendersInWorkers(Number.MAX_SAFE_INTEGER, deps.renderPoolMinPages) || !(await fullRender))
    return null;
  try {
    const cached = await cachedContentFile(config);
    const [info, identity] = await Promise.all([stat(cached.file), identityOf(cached.file)]);
    if (info.size < (deps.earlyWorkersFromBytes ?? EARLY_WARM_BYTES) || identity === null) return null;
    void warmRenderWorkers({
      root: config.root,
      workDir: config.workDir,
      snapshot: { file: cached.file, identity },
      oneShot: isOneShot(deps),
      pool: deps.builder!.workers,
    });
    return { ...cached, identity };
  } catch {
    return null; // loading the content reports what is wrong
  }
}

/** The content a build builds: its plan, where it came from, and its graph for pages rendered in this thread. */
interface PlannedContent {
  name: string;
  plan: ContentPlan;
  origin: { file: string; identity: string } | undefined;
  loadGraph: () => Promise<ContentGraph>;
  inWorker: boolean;
}

/** Plans the build in this thread: reads (or fetches) the snapshot and builds its graph. */
async function plannedHere(
  config: BuildConfig,
  deps: BuildDeps,
  stage: <T>(name: string, run: () => Promise<T>) => Promise<T>,
): Promise<PlannedContent> {
  const content = await stage("content", () => loadContent(config, deps));
  const { snapshot } = content;
  const graph = await stage("graph", async () => createContentGraph(snapshot.documents, snapshot.languages));
  const origin = snapshotOrigin(snapshot);
  const plan = await stage("pages", () => planContent(snapshot, graph, origin, config.workDir));
  return { name: content.name, plan, origin, loadGraph: async () => graph, inWorker: false };
}

/**
 * Has a warm render worker plan the build from the snapshot it reads for the render anyway, so this
 * thread parses none (src/render/content-plan.ts). Null when the worker could not: planning here
 * then reports what is wrong.
 */
async function plannedByWorker(
  config: BuildConfig,
  deps: BuildDeps,
  warmed: CachedContent,
): Promise<PlannedContent | null> {
  const origin = { file: warmed.file, identity: warmed.identity };
  let plan: ContentPlan;
  try {
    plan = await planInWorker({
      root: config.root,
      workDir: config.workDir,
      snapshot: origin,
      pool: deps.builder!.workers,
    });
  } catch {
    return null;
  }
  if (warmed.sample) sayBuildingSample(config, deps);
  let graph: Promise<ContentGraph> | undefined;
  // Only pages a worker failed to render are rendered here; they must see the content the plan saw.
  const loadGraph = () =>
    (graph ??= loadSnapshot(origin.file, deps.builder?.snapshots).then((snapshot) => {
      if (snapshotOrigin(snapshot)?.identity !== origin.identity)
        throw new NzfError("SNAPSHOT_CHANGED", `The content snapshot ${origin.file} changed during the build`, {
          subject: origin.file,
        });
      return createContentGraph(snapshot.documents, snapshot.languages);
    }));
  return { name: warmed.name, plan, origin, loadGraph, inWorker: true };
}

/**
 * One build at a time per output folder: the lock is held from before the published state and the
 * build record are read until the new version is published and recorded (src/publish/output-lock.ts).
 */
export async function build(config: BuildConfig, deps: BuildDeps): Promise<BuildResult> {
  guardOutput(config.outDir);
  const lock = await lockOutput(config.outDir, { logger: deps.logger, waitMs: deps.lockWaitMs });
  // A caller that keeps no builder gets one for this build alone, whose workers stop with it.
  const builder = deps.builder ?? createBuilder();
  try {
    return await buildHoldingLock(config, { ...deps, builder });
  } finally {
    lock.release();
    if (!deps.builder) void builder.close();
  }
}

async function buildHoldingLock(config: BuildConfig, deps: BuildDeps): Promise<BuildResult> {
  const started = performance.now();
  const stages: Record<string, number> = {};
  const stage = async <T>(name: string, run: () => Promise<T>): Promise<T> => {
    const t = performance.now();
    const value = await run();
    stages[name] = performance.now() - t;
    return value;
  };
  const builder = deps.builder!;
  const { logger } = deps;
  const recordFile = join(config.workDir, "last-build.json");
  const state = readOutputState(config.outDir);
  // A record of another version than the published one describes files that are not there.
  const lastRead = readIncrementalRecord(recordFile, builder.record).then((record) =>
    record && record.published === state.currentId ? record : null,
  );
  // No record of this output folder: every page will be rendered.
  const fullRender = lastRead.then((record) => record?.outDir !== config.outDir);
  const warmedEarly = warmWorkersEarly(config, fullRender, deps);

  // The bundles depend on the sources, not the content: their checks (and esbuild, when a source
  // changed) run while the snapshot is read, and esbuild works on all of them at the same time.
  const browser = {
    root: config.root,
    cacheDir: join(config.workDir, "islands"),
    publicEnv: previewPublicEnv(config, deps.publicConfig),
    contexts: deps.bundlers,
  };
  // No page names the preview bundle's files (it has a fixed address): pages render while it compiles.
  const previewBuild = stage("preview", () => bundlePreview(browser));
  const bundles = Promise.all([
    stage("islands", () => bundleClient(browser)),
    stage("templates", () => loadTemplates(config.root, config.workDir, deps.bundlers)),
    stage("styles", () =>
      buildStylesheet(config.root, config.workDir, {
        logger,
        strict: deps.strictWarnings ?? isCI(),
        memory: builder.styles,
      }),
    ),
  ]);
  // Awaited below; an error that stops the build earlier (the content's) makes these moot.
  previewBuild.catch(() => undefined);
  bundles.catch(() => undefined);

  const warmed = await warmedEarly;
  // A long-running process (watch mode keeps bundler contexts) plans here: its next build would
  // otherwise parse the snapshot on the way to the first page of a developer's edit.
  const content =
    (warmed && isOneShot(deps) && (await stage("content", () => plannedByWorker(config, deps, warmed)))) ||
    (await plannedHere(config, deps, stage));
  const { plan, origin } = content;
  reportWarnings(logger, "content", plan.problems);
  const { pages } = plan;
  // With no record of this folder, every page is rendered: start the render workers now (if not
  // started already), so their start-up (reading the snapshot, loading React) overlaps the stages below.
  if (origin && rendersInWorkers(pages.length, deps.renderPoolMinPages) && !warmed && (await fullRender)) {
    void warmRenderWorkers({
      root: config.root,
      workDir: config.workDir,
      snapshot: origin,
      oneShot: isOneShot(deps),
      pool: builder.workers,
    });
  }
  const localImages = join(config.contentDir, content.name, "images");
  const images = await stage("images", () =>
    runImageStageFor(
      plan.images,
      { localDir: localImages, cacheDir: config.imageCacheDir },
      { logger, fetch: deps.fetch },
    ),
  );
  const [client, templates, stylesheet] = await bundles;
  const publicConfig = deps.publicConfig ?? {};

  // What every page depends on; a change here re-renders every page (identical HTML is still not rewritten).
  const globalKey = hashOf([
    templates.hash,
    client.bundle,
    stylesheet.url,
    images.files.map((f) => f.to),
    config.siteUrl,
    config.repository,
    publicConfig,
    await toolBuildId(),
  ]);
  const contentState: ContentState = plan.state;
  // Everything the output depends on, including the site files' own inputs (logo, service worker source).
  const key = hashOf([globalKey, contentState.documents, await siteFilesKey(config.root)]);
  const last = await lastRead;
  const incremental =
    last !== null && last.outDir === config.outDir && (await exists(join(config.outDir, "index.html")));
  if (incremental && last.key === key && ((await previewBuild)?.hash ?? null) === (last.preview ?? null)) {
    const ms = performance.now() - started;
    cacheDebug?.("pages", `none rendered: every input has the key of the last build into ${config.outDir}`);
    logger.info("build", `Nothing changed: ${config.outDir} is up to date (${pages.length} pages) in ${formatMs(ms)}`);
    return {
      pages: pages.length,
      pagesRebuilt: 0,
      renderedInWorkers: 0,
      plannedInWorker: content.inWorker,
      bodiesReused: 0,
      images: images.count,
      published: false,
      ms,
      stages,
      snapshot: { name: content.name, ref: plan.ref, documents: plan.documentCount },
      outDir: config.outDir,
    };
  }
  // Pages whose recorded dependencies did not change keep their published HTML without rendering.
  const sameGlobals = incremental && last.globalKey === globalKey;
  const changed = sameGlobals
    ? changedDependencies({ documents: last.documents, types: last.types, lists: last.lists }, contentState)
    : null;
  const toRender = changed
    ? pages.filter((p) => !last!.pages[p.file] || isAffected(last!.pages[p.file]!.deps, changed))
    : pages;
  if (cacheDebug) {
    const rendered = toRender.map((p) => ({ file: p.file, lastDeps: last?.pages[p.file]?.deps }));
    explainRebuild(
      { outDir: config.outDir, incremental, sameGlobals, changed, rendered, pages: pages.length },
      cacheDebug,
    );
  }

  // What is published now: from the record when it describes this folder, otherwise from the folder.
  const published = await stage("published", async () =>
    incremental ? new Set(last!.files) : state.trusted ? listPublishedFiles(state.currentDir) : new Set<string>(),
  );
  const secrets = createSecretScan();
  // The new version's tree: nobody serves it until it is published (src/publish/versions.ts).
  const output = createSiteOutput({
    outDir: config.outDir,
    currentDir: state.trusted ? state.currentDir : null,
    target: chooseTarget(state),
    published,
    inspect: secrets.scanText,
  });
  // Bodies from this process's earlier builds are reused only if made from the same sources and content.
  const site = { siteUrl: config.siteUrl, repository: config.repository, public: publicConfig };
  const bodies = bodyCacheFor(
    builder.bodies,
    config.outDir,
    hashOf([templates.bodyHash, images.files.map((f) => f.to), site]),
    contentVersions(contentState),
  );
  bodies.keepOnly(new Set(pages.map((p) => p.file)));
  const renderTimings = { renderMs: 0, inWorkers: 0, bodiesReused: 0 };
  let rendered: RenderedPage[];
  try {
    const assets = { css: [stylesheet.url], islands: client.bundle.islands, scripts: client.bundle.scripts };
    // Render workers read the snapshot from its file (origin); one that is not from a file renders here.
    const previousHashes = incremental
      ? Object.fromEntries(Object.entries(last!.pages).map(([file, page]) => [file, page.hash]))
      : undefined;
    void preloadServiceWorkerTools(config.workDir);
    rendered = await stage("render", async () =>
      renderAndWrite({
        pages: toRender,
        loadModule: templates.load,
        loadGraph: content.loadGraph,
        images: images.lookup,
        site,
        assets,
        output,
        previousHashes,
        bodies,
        poolMinPages: deps.renderPoolMinPages,
        memoizeFrames: deps.memoizeFrames,
        pool: origin
          ? {
              root: config.root,
              workDir: config.workDir,
              sources: { templateFile: templates.file, snapshot: origin, manifests: images.manifests },
              workers: builder.workers,
            }
          : undefined,
        timings: renderTimings,
      }),
    );
    for (const page of pages) if (!output.has(page.file)) output.keep(page.file);
    await stage("assets", async () => {
      // Content-hashed names: one that is published already has the same bytes and is kept.
      await output.put(stylesheet.file, stylesheet.css, { hashedName: true });
      for (const file of client.bundle.files)
        await output.adopt(`_islands/${file.path}`, file.from, { hashedName: true });
      const preview = await previewBuild;
      // Its chunks have content-hashed names; its entry has a fixed one, kept as published while the bundle's hash is the same.
      const samePreview = incremental && preview !== null && last!.preview === preview.hash;
      for (const file of preview?.files ?? [])
        await output.adopt(file.path, file.from, { hashedName: samePreview || `/${file.path}` !== PREVIEW_URL });
      for (const image of images.files) await output.adopt(image.to, image.from, { hashedName: true });
      // Pages kept from the live site bring their facts from the record; rendered pages from this render.
      const kept = incremental
        ? Object.entries(last!.pages).map(([file, record]) => [file, record.facts] as const)
        : [];
      const pageFacts = Object.fromEntries([...kept, ...rendered.map((r) => [r.page.file, r.facts] as const)]);
      await writeSiteFiles({
        output,
        pages,
        config,
        content: plan.site,
        assets,
        publicConfig,
        pageFacts,
        serviceWorkers: builder.serviceWorkers,
      });
    });
    await stage("secrets", async () => secrets.assertClean());
    stages.renderOnly = renderTimings.renderMs;
    await stage("publish", () => publishOutput(output, state));
  } catch (error) {
    await discardOutput(output);
    throw error;
  }
  // Only bodies of a published build are kept: one that failed (a secret found, say) leaves none to reuse.
  for (const r of rendered) bodies.set(r.page, r.body);
  const fresh = new Map(rendered.map((r) => [r.page.file, r]));
  const pageRecords: IncrementalRecord["pages"] = {};
  for (const page of pages) {
    const render = fresh.get(page.file);
    const kept = last?.pages[page.file];
    if (render) pageRecords[page.file] = { deps: render.deps, hash: render.hash, facts: render.facts };
    else if (kept) pageRecords[page.file] = kept;
  }
  await writeIncrementalRecord(
    recordFile,
    {
      version: 2,
      globalKey,
      key,
      outDir: config.outDir,
      ...contentState,
      pages: pageRecords,
      files: output.files(),
      preview: (await previewBuild)?.hash ?? null,
      published: output.target.id,
    },
    builder.record,
  );
  const pagesRebuilt = rendered.filter((r) => r.written).length;

  const ms = performance.now() - started;
  for (const [name, t] of Object.entries(stages)) logger.debug("build", `${name.padEnd(9)} ${formatMs(t)}`);
  const rebuiltNote = pagesRebuilt === pages.length ? "" : ` (${pagesRebuilt} rewritten, ${toRender.length} rendered)`;
  logger.info(
    "build",
    `Built ${pages.length} pages${rebuiltNote}, ${images.count} images in ${formatMs(ms)} → ${config.outDir}`,
  );
  return {
    pages: pages.length,
    pagesRebuilt,
    renderedInWorkers: renderTimings.inWorkers,
    plannedInWorker: content.inWorker,
    bodiesReused: renderTimings.bodiesReused,
    images: images.count,
    published: true,
    ms,
    stages,
    snapshot: { name: content.name, ref: plan.ref, documents: plan.documentCount },
    outDir: config.outDir,
  };
}
