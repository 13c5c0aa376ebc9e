/**
 * The pipeline, top to bottom: content → plan → images, bundles and stylesheet → what to render →
 * render → assets and site files → secret scan → publish → record. The CLI, watch mode, the webhook
 * server, the bench and the tests all call this one function; each stage is a function below with
 * its inputs and outputs in its signature.
 */
import { createHash } from "node:crypto";
import { join } from "node:path";
import type { BuildConfig } from "../core/config.js";
import type { Logger } from "../core/logger.js";
import { formatMs } from "../core/logger.js";
import { stageProgress, type StageProgress } from "../core/progress.js";
import { exists } from "../core/fs.js";
import { isCI, reportWarnings } from "../core/warnings.js";
import { ERROR_CATALOGUE, NzfAggregateError, NzfError } from "../core/errors.js";
import type { ContentProblem } from "../content/content-checks.js";
import { runImageStageFor, type ImageStageResult } from "../images/image-stage.js";
import {
  bundleClient,
  bundlePreview,
  cancelPreviewBundle,
  PREVIEW_URL,
  type BundleClientOptions,
  type PreviewBundle,
} from "../bundle/island-bundle.js";
import { loadTemplates } from "../bundle/template-bundle.js";
import { buildStylesheet } from "../bundle/styles.js";
import { bodyCacheFor, contentVersions, type BodyCache } from "../render/body-cache.js";
import { renderAndWrite, type RenderedPage, type RenderTimings } from "../render/render-stage.js";
import { changedDependencies, isAffected, type ContentState } from "../render/dependencies.js";
import type { PageEntry } from "../render/pages.js";
import { readIncrementalRecord, writeIncrementalRecord, type IncrementalRecord } from "../publish/incremental.js";
import { discardOutput, listPublishedFiles, publishOutput } from "../publish/publish.js";
import { createSiteOutput, type SiteOutput } from "../publish/site-output.js";
import { writeFailureOf } from "../publish/write-failure.js";
import { missingSettings, missingSettingsError, missingSettingsMessage } from "./missing-settings.js";
import { SAMPLE_SNAPSHOT_NAME } from "../content/snapshot.js";
import { chooseTarget, guardOutput, readOutputState, type OutputState } from "../publish/versions.js";
import { lockOutput } from "../publish/output-lock.js";
import { createSecretScan } from "../publish/secret-scan.js";
import { preloadServiceWorkerTools } from "../site-files/service-worker.js";
import { previewPublicEnv } from "../preview/public-config.js";
import { cacheDebug } from "../cache/debug.js";
import { loadFileHashes, saveFileHashes } from "../cache/file-hash-memo.js";
import { explainRebuild } from "../cache/rebuild-reasons.js";
import { siteFilesKey, toolBuildId, writeSiteFiles } from "./site-files-stage.js";
import { contentStage, type PlannedContent } from "./content-stage.js";
import { createBuilder, type Builder } from "./builder.js";

export interface BuildDeps {
  logger: Logger;
  /** What this caller keeps between its builds and how they render (src/pipeline/builder.ts); default: a new one for this build. */
  builder?: Builder;
  /** How the fetch waits between pages and retries (the bench's webhook rebuilds wait none). */
  sleep?: (ms: number) => Promise<void>;
  /** Documents a webhook said changed: the fetch downloads only these when it safely can. */
  changedDocumentIds?: string[];
  /** Public, validated configuration handed to islands (auth, payments). */
  publicConfig?: Record<string, unknown>;
}

export interface BuildResult {
  pages: number;
  /** Pages whose HTML was written this build (the rest were unchanged). */
  pagesRebuilt: number;
  /** Pages rendered this build, whole or framed around a kept body (the rest kept their published HTML unread). */
  pagesRendered: number;
  /** Pages rendered in worker threads (the rest rendered in the build's thread). */
  renderedInWorkers: number;
  /** Of those, pages the worker wrote into the new site itself (a first build of the folder: src/render/render-stage.ts). */
  writtenInWorkers: number;
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

type Deps = BuildDeps & { builder: Builder; progress?: StageProgress };
type StageTimer = <T>(name: string, run: () => Promise<T>) => Promise<T>;

/**
 * One build at a time per output folder: the lock is held from before the published state and the
 * build record are read until the new version is published and recorded (src/publish/output-lock.ts).
 */
export async function build(config: BuildConfig, deps: BuildDeps): Promise<BuildResult> {
  guardOutput(config.outDir);
  const started = performance.now();
  loadFileHashes(config.workDir);
  const lock = await lockOutput(config.outDir, deps.logger);
  const lockMs = performance.now() - started;
  // A caller that keeps no builder gets one for this build alone, whose workers stop with it.
  const builder = deps.builder ?? createBuilder({ forOneBuild: true });
  // On a terminal: one line saying which stages run, redrawn until the build ends (src/core/progress.ts).
  const progress = stageProgress(deps.logger);
  try {
    const result = await runPipeline(config, { ...deps, builder, logger: progress.logger, progress }).catch(
      (error: unknown) => {
        throw writeFailureOf(error, config.outDir);
      },
    );
    // What this build hashed, for the next process (src/cache/file-hash-memo.ts).
    const saving = performance.now();
    await saveFileHashes();
    // Outside the pipeline's own stages, for the watch breakdown (src/watch/watch.ts).
    result.stages.lock = lockMs;
    result.stages.hashMemo = performance.now() - saving;
    return result;
  } finally {
    progress.stop();
    lock.release();
    if (!deps.builder) void builder.close();
  }
}

/**
 * The build, stage by stage. Each stage is a function below; what runs at the same time (the
 * bundles beside the content, the render threads, the asset links beside the render) runs inside
 * one stage.
 */
async function runPipeline(config: BuildConfig, deps: Deps): Promise<BuildResult> {
  const timer = stageTimer(deps.progress);
  const { stage } = timer;

  const { previous, content, images, built } = await readInputs(config, deps, stage);
  const { keys, work } = await stage("keys", async () => {
    const keys = await buildKeys(config, deps, built, images, content.plan.state);
    return { keys, work: await whatToRender(config, content.plan.pages, keys, previous.record, built.preview) };
  });
  if (work.upToDate) return finish(config, deps, timer, { content, images }, null);
  const { output, secrets } = await stage("published", () => openOutput(config, previous.state, work));
  const bodies = bodiesFor(config, deps.builder, built, images, keys, content);
  const inputs = { content, images, built, keys, work, output, bodies };
  const written = await writeVersion(config, deps, inputs, secrets, previous.state, stage);
  const preview = await built.preview;
  await stage("record", () => recordStage(config, deps.builder, { ...inputs, rendered: written.rendered, preview }));
  return finish(config, deps, timer, inputs, written);
}

/** The build's result and its summary line; `written` is null when nothing changed and nothing was published. */
function finish(
  config: BuildConfig,
  deps: Deps,
  timer: ReturnType<typeof stageTimer>,
  inputs: Pick<RenderInputs, "content" | "images"> & { work?: Extract<Work, { upToDate: false }> },
  written: { rendered: RenderedPage[]; timings: RenderTimings } | null,
): BuildResult {
  const { content, images } = inputs;
  const { logger } = deps;
  const summary = { content, images, stages: timer.stages, started: timer.started };
  if (!written) {
    cacheDebug?.("pages", `none rendered: every input has the key of the last build into ${config.outDir}`);
    const result = resultOf(config, summary, { published: false });
    logger.info(
      "build",
      `Nothing changed: ${config.outDir} is up to date (${result.pages} pages) in ${formatMs(result.ms)}`,
    );
    warnMissingSettings(logger, content, config, deps);
    return result;
  }
  timer.stages.renderOnly = written.timings.renderMs;
  const pagesRebuilt = written.rendered.filter((r) => r.written).length;
  const pagesRendered = written.rendered.length;
  const result = resultOf(config, summary, { published: true, pagesRebuilt, pagesRendered, ...written.timings });
  timer.log(logger);
  const total = content.plan.pages.length;
  const rendered = inputs.work?.toRender.length ?? 0;
  const rebuiltNote = pagesRebuilt === total ? "" : ` (${pagesRebuilt} rewritten, ${rendered} rendered)`;
  logger.info(
    "build",
    `Built ${total} pages${rebuiltNote}, ${images.count} images in ${formatMs(result.ms)} → ${config.outDir}`,
  );
  warnMissingSettings(logger, content, config, deps);
  return result;
}

/** Times each named stage, shows it on the progress line, and logs when each ran (--verbose). */
function stageTimer(progress: StageProgress | undefined) {
  const started = performance.now();
  const stages: Record<string, number> = {};
  // When each stage ran, in ms since the process started: stages overlap, and --verbose shows how.
  const spans: Record<string, [number, number]> = {};
  const stage: StageTimer = async (name, run) => {
    const t = performance.now();
    progress?.start(name);
    try {
      const value = await run();
      stages[name] = performance.now() - t;
      spans[name] = [t, performance.now()];
      return value;
    } finally {
      progress?.end(name);
    }
  };
  const log = (logger: Logger) => {
    for (const [name, t] of Object.entries(stages)) {
      const span = spans[name];
      const when = span ? ` (${(span[0] / 1000).toFixed(2)}–${(span[1] / 1000).toFixed(2)} s after start)` : "";
      logger.debug("build", `${name.padEnd(9)} ${formatMs(t).padStart(7)}${when}`);
    }
  };
  return { started, stages, stage, log };
}

/**
 * What the build is made from: the last build (the published version and its record), the content
 * and its images, and the bundles. The bundles depend on the sources, not the content: they are
 * made while the content is read. A build its content stops waits for the bundles it started, so
 * none is still writing into the work folder once the build has failed (a caller that then removes
 * it met ENOTEMPTY).
 */
async function readInputs(config: BuildConfig, deps: Deps, stage: StageTimer) {
  const { ready, preview } = startBundles(config, deps, stage);
  try {
    const previous = await stage("previous", () => readPrevious(config, deps.builder));
    const content = await contentStage(config, deps, previous.fullRender, stage);
    // Live content without payments or sign-in: an error in CI, a warning at the end elsewhere.
    const missing = missingSettingsOf(content, config, deps);
    if (missing.length && isCI()) throw missingSettingsError(missing);
    stopOnInvalidContent(deps.logger, content.plan.problems);
    const images = await stage("images", () => imageStage(config, content, deps));
    return { previous, content, images, built: { ...(await ready), preview } };
  } catch (error) {
    await Promise.allSettled([ready, preview]);
    throw error;
  }
}

function missingSettingsOf(content: PlannedContent, config: BuildConfig, deps: Deps): string[] {
  return deps.publicConfig && content.name !== SAMPLE_SNAPSHOT_NAME && !config.allowMissingSettings
    ? missingSettings(deps.publicConfig)
    : [];
}

function warnMissingSettings(logger: Logger, content: PlannedContent, config: BuildConfig, deps: Deps): void {
  const missing = missingSettingsOf(content, config, deps);
  if (!missing.length) return;
  logger.warn("build", `[SETTINGS_MISSING] ${missingSettingsMessage(missing)}.`);
  logger.warn("build", `  hint (SETTINGS_MISSING): ${ERROR_CATALOGUE.SETTINGS_MISSING.hint}`);
}

/**
 * The published version and the record of the last build. A record of another version than the
 * published one describes files that are not there. With nothing published, no record can
 * describe the folder: it is not read (1.5 MB to parse for 2,000 pages) and every page renders.
 */
async function readPrevious(config: BuildConfig, builder: Builder) {
  const state = readOutputState(config.outDir);
  const last =
    state.currentId === null
      ? null
      : await readIncrementalRecord(join(config.workDir, "last-build.json"), builder.record);
  const record = last && last.published === state.currentId ? last : null;
  return { state, record, fullRender: record?.outDir !== config.outDir };
}

type Built = Awaited<ReturnType<typeof readInputs>>["built"];

/**
 * The bundles, esbuild working on all of them at the same time. No page names the preview
 * bundle's files (it has a fixed address): `preview` is a promise, so pages render while it
 * compiles; the stages that link or record it wait for it.
 */
function startBundles(config: BuildConfig, deps: Deps, stage: StageTimer) {
  const contexts = deps.builder.bundlers ?? undefined;
  const browser = browserBundleOptions(config, deps);
  // Made after the pages (Builder.preview.afterPages): this build publishes the one made last.
  const memory = deps.builder.preview;
  const preview =
    memory.afterPages && memory.last !== undefined
      ? Promise.resolve(memory.last)
      : stage("preview", () => bundlePreview(browser)).then((bundle) => {
          if (memory.afterPages) memory.last = bundle;
          return bundle;
        });
  const ready = Promise.all([
    stage("islands", () => bundleClient(browser)),
    stage("templates", () => loadTemplates(config.root, config.workDir, contexts)),
    stage("styles", () =>
      buildStylesheet(config.root, config.workDir, {
        logger: deps.logger,
        // Source warnings (the stylesheet's) stop a build in CI (src/core/warnings.ts).
        strict: isCI(),
        memory: deps.builder.styles,
      }),
    ),
  ]).then(([client, templates, stylesheet]) => ({ client, templates, stylesheet }));
  // Awaited by the stages that need them; a failure before then must not be an unhandled rejection.
  preview.catch(() => undefined);
  ready.catch(() => undefined);
  return { ready, preview };
}

function browserBundleOptions(config: BuildConfig, deps: BuildDeps & { builder: Builder }): BundleClientOptions {
  return {
    root: config.root,
    cacheDir: join(config.workDir, "islands"),
    publicEnv: { NZF_PAYPAL_OFFERED: String(offersPayPal(deps)) },
    previewEnv: previewPublicEnv(config, deps.publicConfig),
    contexts: deps.builder.bundlers ?? undefined,
  };
}

/**
 * For a builder that makes the preview bundle after the pages (BuilderOptions.previewAfterPages):
 * bundles it now, for the next build to publish. True when it differs from the one the last build
 * published, so the caller builds again to publish it. Call it between builds, never during one.
 */
export async function refreshPreview(config: BuildConfig, deps: BuildDeps & { builder: Builder }): Promise<boolean> {
  const memory = deps.builder.preview;
  const bundle = await bundlePreview(browserBundleOptions(config, deps));
  const changed = memory.last === undefined || (bundle?.hash ?? null) !== (memory.last?.hash ?? null);
  memory.last = bundle;
  return changed;
}

/** Cancels a refreshPreview() compiling now: it then fails (the caller knows it asked). */
export async function cancelPreview(builder: Builder): Promise<void> {
  if (builder.bundlers) await cancelPreviewBundle(builder.bundlers);
}

/**
 * Prints the content's problems, all of them: the warnings, then the ones no page can be made
 * from (DOCUMENT_INVALID, src/content/content-checks.ts), which stop the build naming each document.
 */
function stopOnInvalidContent(logger: Deps["logger"], problems: readonly ContentProblem[]): void {
  const stops = (p: ContentProblem) => p.code === "DOCUMENT_INVALID" || p.code === "CONTENT_PRICE_INVALID";
  reportWarnings(
    logger,
    "content",
    problems.filter((p) => !stops(p)),
  );
  const errors = problems.filter(stops).map(
    (p) =>
      new NzfError(p.code, p.message, {
        subject: p.field ? `document ${p.documentId} (${p.type}), ${p.field}` : p.documentId,
      }),
  );
  if (errors.length === 1) throw errors[0]!;
  if (errors.length > 1) throw new NzfAggregateError("content", errors);
}

/** Whether the build offers PayPal: islands built without it leave its code out (src/client/donation/donation-form.tsx). */
function offersPayPal(deps: Pick<BuildDeps, "publicConfig">): boolean {
  return Boolean((deps.publicConfig?.payments as { paypalClientId?: string } | undefined)?.paypalClientId);
}

function imageStage(config: BuildConfig, content: PlannedContent, deps: Deps): Promise<ImageStageResult> {
  const localDir = join(config.contentDir, content.name, "images");
  return runImageStageFor(
    content.plan.images,
    {
      localDir,
      cacheDir: config.imageCacheDir,
      policy: { repository: content.plan.repository ?? config.repository, hosts: config.imageHosts },
    },
    { logger: deps.logger },
  );
}

interface BuildKeys {
  /** What every page depends on; a change here re-renders every page (identical HTML is still not rewritten). */
  globalKey: string;
  /** Everything the output depends on, including the site files' own inputs (logo, service worker source). */
  key: string;
  site: { siteUrl: string; repository: string; public: Record<string, unknown> };
  contentState: ContentState;
}

function hashOf(value: unknown): string {
  return createHash("sha1").update(JSON.stringify(value)).digest("hex");
}

async function buildKeys(
  config: BuildConfig,
  deps: Deps,
  built: Built,
  images: ImageStageResult,
  contentState: ContentState,
): Promise<BuildKeys> {
  const publicConfig = deps.publicConfig ?? {};
  const { templates, client, stylesheet } = built;
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
  const key = hashOf([globalKey, contentState.documents, await siteFilesKey(config.root)]);
  const site = { siteUrl: config.siteUrl, repository: config.repository, public: publicConfig };
  return { globalKey, key, site, contentState };
}

type Work =
  | { upToDate: true }
  | { upToDate: false; incremental: boolean; last: IncrementalRecord | null; toRender: PageEntry[] };

/** Which pages render: none when every input has the last build's key, else those whose recorded dependencies changed. */
async function whatToRender(
  config: BuildConfig,
  pages: PageEntry[],
  keys: BuildKeys,
  last: IncrementalRecord | null,
  preview: Promise<PreviewBundle | null>,
): Promise<Work> {
  const incremental =
    last !== null && last.outDir === config.outDir && (await exists(join(config.outDir, "index.html")));
  if (incremental && last.key === keys.key && ((await preview)?.hash ?? null) === (last.preview ?? null))
    return { upToDate: true };
  // Pages whose recorded dependencies did not change keep their published HTML without rendering.
  const sameGlobals = incremental && last.globalKey === keys.globalKey;
  const changed = sameGlobals
    ? changedDependencies({ documents: last.documents, types: last.types, lists: last.lists }, keys.contentState)
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
  return { upToDate: false, incremental, last: incremental ? last : null, toRender };
}

/** The new version's tree: nobody serves it until it is published (src/publish/versions.ts). */
async function openOutput(
  config: BuildConfig,
  state: OutputState,
  work: Extract<Work, { upToDate: false }>,
): Promise<{ output: SiteOutput; secrets: ReturnType<typeof createSecretScan> }> {
  // What is published now: from the record when it describes this folder, otherwise from the folder.
  const published = work.last
    ? new Set(work.last.files)
    : state.trusted
      ? await listPublishedFiles(state.currentDir)
      : new Set<string>();
  const secrets = createSecretScan();
  const output = createSiteOutput({
    outDir: config.outDir,
    currentDir: state.trusted ? state.currentDir : null,
    target: chooseTarget(state),
    published,
    scan: secrets,
  });
  return { output, secrets };
}

/** Bodies from this process's earlier builds are reused only if made from the same sources and content. */
function bodiesFor(
  config: BuildConfig,
  builder: Builder,
  built: Built,
  images: ImageStageResult,
  keys: BuildKeys,
  content: PlannedContent,
): BodyCache {
  const { site, contentState } = keys;
  // By template: a page template's edit renders again the bodies of its pages alone.
  const shared = hashOf([images.files.map((f) => f.to), site]);
  const byTemplate = new Map<string, string>();
  const keyOf = (page: PageEntry) => {
    let key = byTemplate.get(page.template);
    if (key === undefined)
      byTemplate.set(page.template, (key = hashOf([built.templates.bodyHashFor(page.template), shared])));
    return key;
  };
  const bodies = bodyCacheFor(builder.bodies, config.outDir, keyOf, contentVersions(contentState));
  bodies.keepOnly(new Set(content.plan.pages.map((p) => p.file)));
  return bodies;
}

interface RenderInputs {
  content: PlannedContent;
  images: ImageStageResult;
  built: Built;
  keys: BuildKeys;
  work: Extract<Work, { upToDate: false }>;
  output: SiteOutput;
  bodies: BodyCache;
}

/**
 * Writes the new version and publishes it: the pages render while the stylesheet, scripts and
 * images are linked in (they do not depend on the pages, so waiting on the disk is off the
 * build's critical path), then the site files, the secret scan, and the switch to the new
 * version. A failure removes the unfinished version; the published one stays.
 */
async function writeVersion(
  config: BuildConfig,
  deps: Deps,
  input: RenderInputs,
  secrets: ReturnType<typeof createSecretScan>,
  published: OutputState,
  stage: StageTimer,
): Promise<{ rendered: RenderedPage[]; timings: RenderTimings }> {
  const { output } = input;
  const timings: RenderTimings = { renderMs: 0, inWorkers: 0, writtenInWorkers: 0, bodiesReused: 0 };
  const assetFiles = stage("assets", () => assetFilesStage(input));
  // Handled here so a failure while the pages render is not an unhandled rejection; awaited below.
  assetFiles.catch(() => undefined);
  try {
    // workbox-build, which the site files need, loads while the pages render (a first build only).
    void preloadServiceWorkerTools(config.workDir);
    const rendered = await stage("render", () => renderStage(config, deps, input, timings));
    deps.builder.renderer.rendered();
    await assetFiles;
    await stage("siteFiles", () => siteFilesStage(config, deps, { ...input, rendered }));
    await stage("secrets", async () => secrets.assertClean());
    await stage("publish", () => publishOutput(output, published));
    // Only bodies of a published build are kept: one that failed (a secret found, say) leaves none to reuse.
    for (const r of rendered) if (r.body) input.bodies.set(r.page, r.body);
    return { rendered, timings };
  } catch (error) {
    await assetFiles.catch(() => undefined);
    await discardOutput(output);
    throw error;
  }
}

const assetsOf = (built: Built) => ({
  css: [built.stylesheet.url],
  islands: built.client.bundle.islands,
  scripts: built.client.bundle.scripts,
});

/** Renders the pages to render (in worker threads for many) and adds the changed HTML to the output; the others are kept. */
async function renderStage(
  config: BuildConfig,
  deps: Deps,
  input: RenderInputs,
  timings: RenderTimings,
): Promise<RenderedPage[]> {
  const { builder } = deps;
  const { content, images, built, work, output } = input;
  // Render workers read the snapshot from its file (origin); one that is not from a file renders here.
  const previousHashes = work.last
    ? Object.fromEntries(Object.entries(work.last.pages).map(([file, page]) => [file, page.hash]))
    : undefined;
  const rendered = await renderAndWrite({
    pages: work.toRender,
    logger: deps.logger,
    loadModule: built.templates.load,
    loadGraph: content.loadGraph,
    images: images.lookup,
    site: input.keys.site,
    assets: assetsOf(built),
    output,
    previousHashes,
    bodies: input.bodies,
    policy: builder.render,
    keepBodies: builder.keepsBodies,
    pool: content.origin
      ? {
          root: config.root,
          workDir: config.workDir,
          sources: { templateFile: built.templates.file, snapshot: content.origin, manifests: images.manifests },
          service: builder.renderer,
          count: content.workerCount,
        }
      : undefined,
    timings,
  });
  for (const page of content.plan.pages) if (!output.has(page.file)) output.keep(page.file);
  return rendered;
}

/** Links the site's stylesheet, scripts and images into the new site. */
async function assetFilesStage(input: Pick<RenderInputs, "images" | "built" | "work" | "output">): Promise<void> {
  const { images, built, work, output } = input;
  // Content-hashed names: one that is published already has the same bytes and is kept.
  await output.put(built.stylesheet.file, built.stylesheet.css, { hashedName: true });
  for (const file of built.client.bundle.files)
    await output.adopt(`_islands/${file.path}`, file.from, { hashedName: true });
  const preview = await built.preview;
  // Its chunks have content-hashed names; its entry has a fixed one, kept as published while the bundle's hash is the same.
  const samePreview = work.last !== null && preview !== null && work.last.preview === preview.hash;
  for (const file of preview?.files ?? [])
    await output.adopt(file.path, file.from, { hashedName: samePreview || `/${file.path}` !== PREVIEW_URL });
  for (const image of images.files) await output.adopt(image.to, image.from, { hashedName: true });
}

/** The files made from every page: sitemap, headers and CSP, service worker, and the rest (src/pipeline/site-files-stage.ts). */
async function siteFilesStage(
  config: BuildConfig,
  deps: Deps,
  input: Pick<RenderInputs, "content" | "built" | "work" | "output"> & { rendered: RenderedPage[] },
): Promise<void> {
  const { content, built, work, output, rendered } = input;
  // Pages kept from the live site bring their facts from the record; rendered pages from this render.
  const kept = work.last ? Object.entries(work.last.pages).map(([file, record]) => [file, record.facts] as const) : [];
  const pageFacts = Object.fromEntries([...kept, ...rendered.map((r) => [r.page.file, r.facts] as const)]);
  await writeSiteFiles({
    output,
    pages: content.plan.pages,
    config,
    content: content.plan.site,
    assets: assetsOf(built),
    publicConfig: deps.publicConfig ?? {},
    pageFacts,
    serviceWorkers: deps.builder.serviceWorkers,
  });
}

/** Records what was published, so the next build renders only what changed (src/publish/incremental.ts). */
async function recordStage(
  config: BuildConfig,
  builder: Builder,
  input: Pick<RenderInputs, "content" | "keys" | "work" | "output"> & {
    rendered: RenderedPage[];
    preview: PreviewBundle | null;
  },
): Promise<void> {
  const { content, keys, work, output, rendered } = input;
  const fresh = new Map(rendered.map((r) => [r.page.file, r]));
  const pageRecords: IncrementalRecord["pages"] = {};
  for (const page of content.plan.pages) {
    const render = fresh.get(page.file);
    const kept = work.last?.pages[page.file];
    if (render) pageRecords[page.file] = { deps: render.deps, hash: render.hash, facts: render.facts };
    else if (kept) pageRecords[page.file] = kept;
  }
  await writeIncrementalRecord(
    join(config.workDir, "last-build.json"),
    {
      version: 2,
      globalKey: keys.globalKey,
      key: keys.key,
      outDir: config.outDir,
      ...keys.contentState,
      pages: pageRecords,
      files: output.files(),
      preview: input.preview?.hash ?? null,
      published: output.target.id,
    },
    builder.record,
  );
}

function resultOf(
  config: BuildConfig,
  summary: { content: PlannedContent; images: ImageStageResult; stages: Record<string, number>; started: number },
  outcome: { published: boolean; pagesRebuilt?: number; pagesRendered?: number } & Partial<RenderTimings>,
): BuildResult {
  const { plan } = summary.content;
  return {
    pages: plan.pages.length,
    pagesRebuilt: outcome.pagesRebuilt ?? 0,
    pagesRendered: outcome.pagesRendered ?? 0,
    renderedInWorkers: outcome.inWorkers ?? 0,
    writtenInWorkers: outcome.writtenInWorkers ?? 0,
    plannedInWorker: summary.content.inWorker,
    bodiesReused: outcome.bodiesReused ?? 0,
    images: summary.images.count,
    published: outcome.published,
    ms: performance.now() - summary.started,
    stages: summary.stages,
    snapshot: { name: summary.content.name, ref: plan.ref, documents: plan.documentCount },
    outDir: config.outDir,
  };
}
