/**
 * Watch mode's session: serve the output folder on loopback, watch the sources, rebuild with the
 * same build() (incremental, so a content edit re-renders only the pages that show it), and tell
 * open pages to reload. A failed rebuild keeps the last good site served and shows the error in the
 * terminal and in the browser; the next good save recovers without a restart. The CLI's entry
 * (payments API, signals, restarts, the output folder) is src/watch/run-watch.ts.
 */
import { join, relative, sep } from "node:path";
import type { IncomingMessage, ServerResponse } from "node:http";
import type { BuildConfig } from "../core/config.js";
import type { Logger } from "../core/logger.js";
import { formatError } from "../core/errors.js";
import { formatMs } from "../core/logger.js";
import { build, cancelPreview, refreshPreview, type BuildDeps, type BuildResult } from "../pipeline/build.js";
import { createBuilder } from "../pipeline/builder.js";
import { startStaticServer, type StaticServer } from "../server/static-server.js";
import { createLiveReload, type LiveReload } from "./live-reload.js";
import { findFreePort, isAddressInUse } from "./port.js";
import { isIgnoredSource } from "./cli-sources.js";
import { isEditorTemporary } from "./editor-files.js";
import { watchSources } from "./source-watcher.js";

export interface WatchOptions {
  logger: Logger;
  /** The port asked for (default 4321; 0 for any free one). A busy port moves on to the next free one. */
  port?: number;
  host?: string;
  buildDeps?: Partial<BuildDeps>;
  /**
   * Sources (relative to the project root) compiled into nzf-build itself: a change to one is handed
   * to onCliChange instead of rebuilding the site, which would not see it. Without it, every change rebuilds.
   */
  cliSources?: ReadonlySet<string>;
  /** Told the changed sources of nzf-build itself; "restarting" when a restart will build them, so this session does not. */
  onCliChange?: (files: string[]) => "restarting" | undefined;
}

export interface WatchSession {
  url: string;
  port: number;
  server: StaticServer;
  live: LiveReload;
  /**
   * Stops watching and serving, and disposes the bundlers and render workers. A rebuild still
   * running is waited for up to `waitForBuildMs` (default: until it ends); true when nothing was left running.
   */
  stop(options?: { waitForBuildMs?: number }): Promise<boolean>;
}

/** What is watched, relative to the project root, besides the content folder. */
export const WATCHED = ["templates", "src"];

/**
 * The quiet after a change before a rebuild starts. Short: it is part of every edit's latency (a
 * content edit's budget is 100 ms), and a save in two steps (truncate, then write) that a rebuild
 * starts between is still handled: the changes seen during a build start one more after it.
 */
export const DEBOUNCE_MS = 15;

/** How each rebuild's last line with --verbose starts: the bench waits for it before the next save. */
export const PREVIEW_LINE = "editor-preview bundle after the pages: ";

/**
 * With --verbose, each change to the site seen ("saw templates/site.css") and each build's start and
 * end ("build 3 started", "build 3 ended: 2 pages written", "build 4 failed", "…; saves made meanwhile
 * are built next"): what a save led to, in order. A caller that waits on rebuilds reads these lines
 * from the logger it gives (test/support/watch-session.ts), as the bench reads PREVIEW_LINE.
 */
export const SAW_LINE = "saw ";
export const BUILD_LINE = "build ";

/** The dev client's sources (src/watch/dev-client.ts): a change there is no change to the site. */
const DEV_CLIENT_DIR = "src/client/dev/";

/** Starts the server on the first free port at or after `port`, checked before anything is built. */
async function serve(
  root: string,
  port: number,
  host: string,
  live: LiveReload,
  ready: () => boolean,
  logger: Logger,
): Promise<StaticServer> {
  for (let attempt = 0; ; attempt++) {
    const free = await findFreePort(port, host, logger);
    try {
      return await startStaticServer({
        root,
        port: free,
        host,
        intercept: (req, res) => live.handle(req, res) || (!ready() && building(req, res, live)),
        transformHtml: live.inject,
        // A refused request or a failed answer is said in the terminal, beside the builds.
        logger,
      });
    } catch (error) {
      // Taken between the check and the listen: the next free one.
      if (!isAddressInUse(error) || attempt > 3 || port === 0) throw error;
      port = free + 1;
    }
  }
}

/**
 * Before the first build has finished: a page that reloads itself when the site is ready. Its
 * `nzf-building` mark tells the browser script to ask again once it listens: the first build's
 * "reload" may have gone out before this page's script connected (src/client/dev/live-client.ts).
 */
function building(req: IncomingMessage, res: ServerResponse, live: LiveReload): boolean {
  if (req.method !== "GET" || !/^\/[^.]*$|\.html$/.test(new URL(req.url ?? "/", "http://localhost").pathname))
    return false;
  const html = live.inject(
    `<!doctype html><html lang="en-AU"><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><meta name="nzf-building" content=""><title>Building…</title><body><p>nzf-build is building the site; this page reloads when it is ready.</p></body></html>`,
  );
  res
    .writeHead(503, { "content-type": "text/html; charset=utf-8", "cache-control": "no-store", "retry-after": "1" })
    .end(html);
  return true;
}

export async function startWatch(config: BuildConfig, options: WatchOptions): Promise<WatchSession> {
  const { logger } = options;
  const host = options.host ?? "127.0.0.1";
  const live = createLiveReload();
  // Bundled while the first build runs, so the first page served does not wait for it.
  void live.refreshClient();
  // Keeps esbuild contexts between rebuilds so a template edit recompiles only what changed; closed
  // by stop(). The editor-preview bundle is made after the pages are served (publishPreview).
  const builder = createBuilder({ keepBundlers: true, previewAfterPages: true });
  const deps = { logger, builder, ...options.buildDeps };
  let buildsStarted = 0;
  let buildsFinished = 0;
  // The error printed last, until a build succeeds: a save that makes two builds (an editor that
  // truncates, then writes) or a second save that fixes nothing prints it once.
  let lastError: string | null = null;
  let running: Promise<void> | null = null;
  let pending = false;
  let changedDuringBuild = false;
  // Whether the editor-preview bundle is being made after the pages (publishPreview), and whether a save gave it up.
  let previewPhase = false;
  let previewCancelled = false;
  let stopping = false;
  let timer: NodeJS.Timeout | undefined;
  const changed = new Set<string>();
  const cliChanged = new Set<string>();
  // When the first change of the next rebuild was seen (ms since the epoch, so the bench can set it
  // beside its own save): the start of the breakdown each rebuild logs with --verbose.
  let firstChangeAt: number | null = null;

  const runBuild = async (): Promise<void> => {
    const files = [...changed];
    changed.clear();
    // A save of one of them from now on that chokidar leaves out is reported all the same.
    watcher.taking(files.map((file) => join(config.root, file)));
    const seenAt = firstChangeAt;
    firstChangeAt = null;
    const number = ++buildsStarted;
    logger.debug("watch", `${BUILD_LINE}${number} started`);
    const started = performance.now();
    const startedAt = Date.now();
    let outcome: BuildResult | Error;
    try {
      outcome = await build(config, deps);
      // The first build reloads pages that showed "building" (or an older site); later ones are
      // taken in place by open pages (src/client/dev/live-client.ts).
      if (number === 1) live.send("reload", "");
      else if (outcome.published) live.send("update", String(number));
      const servedMs = performance.now() - started;
      // The time until the new pages were served (the preview bundle follows).
      if (files.length)
        logger.info(
          "watch",
          `${files.slice(0, 3).join(", ")}${files.length > 3 ? ` and ${files.length - 3} more` : ""} → rebuilt in ${formatMs(servedMs)}`,
        );
      if (number > 1) {
        logger.debug("watch", breakdownOf(outcome, seenAt, startedAt, servedMs));
        await publishPreview(number);
      }
      live.clearError();
      lastError = null;
    } catch (error) {
      outcome = error as Error;
      // Plain text (the browser overlay shows it too); the files of code frames are the project's.
      const text = formatError(error, false, undefined, config.root);
      const again = text === lastError;
      lastError = text;
      if (!stopping && !again) {
        logger.error("watch", `${text}\n        the last good site is still served; fix the error and save again`);
        live.showError(text);
      }
    }
    buildsFinished++;
    // Files saved while this build ran may not be in it (an editor truncates, then writes): the
    // build that follows has them. Said while this build still counts as running.
    const more = changed.size > 0 && !stopping;
    logger.debug(
      "watch",
      `${BUILD_LINE}${number} ${outcome instanceof Error ? "failed" : `ended: ${outcome.pagesRebuilt} pages written`}${more ? "; saves made meanwhile are built next" : ""}`,
    );
  };

  /**
   * The editor-preview bundle (the templates bundled for the browser, the slowest bundle) is made
   * once the pages are served, and published by one more build when it changed: a save shows its
   * HTML without waiting for it. A preview that does not compile fails this rebuild like any error.
   */
  const publishPreview = async (number: number): Promise<void> => {
    const started = performance.now();
    previewPhase = true;
    let fresh: boolean;
    try {
      fresh = await refreshPreview(config, deps);
    } catch (error) {
      // Given up for a save (or a stop) made meanwhile: the build that follows makes it again.
      if (previewCancelled) return logger.debug("watch", `${PREVIEW_LINE}given up for a save`);
      throw error;
    } finally {
      previewPhase = false;
      previewCancelled = false;
    }
    const bundled = performance.now() - started;
    // A save made meanwhile is built next, with this preview bundle: no build of the bundle alone.
    if (!fresh || pending || stopping)
      return logger.debug("watch", `${PREVIEW_LINE}${fresh ? "left to the next build" : "unchanged"}`);
    // Its summary line says what the first said already ("Built 68 pages…"): shown with --verbose only.
    const again = await build(config, { ...deps, logger: { ...logger, info: logger.debug } });
    // Pages saved meanwhile may be in it; the preview alone changes no page.
    if (again.published && again.pagesRebuilt > 0) live.send("update", String(number));
    logger.debug(
      "watch",
      `${PREVIEW_LINE}made in ${formatMs(bundled)}, published in ${formatMs(performance.now() - started - bundled)}`,
    );
  };

  /** A save or a stop while the preview bundle is made after the pages: it is given up. */
  const cancelPreviewPhase = () => {
    if (!previewPhase || previewCancelled) return;
    previewCancelled = true;
    void cancelPreview(builder);
  };

  const startBuild = () => {
    if (stopping) return;
    if (running) {
      // Saved while the pages were built, the change may be half in them; while the preview bundle
      // is made after them, it is not, and that bundle is given up for the build of the change.
      if (!previewPhase) changedDuringBuild = true;
      cancelPreviewPhase();
      pending = true;
      return;
    }
    running = runBuild().finally(() => {
      running = null;
      if (pending) {
        pending = false;
        if (changedDuringBuild) changed.add("(changes during the last build)");
        changedDuringBuild = false;
        debounce();
      }
    });
  };

  const debounce = () => {
    if (stopping) return;
    clearTimeout(timer);
    timer = setTimeout(() => {
      const cli = [...cliChanged];
      cliChanged.clear();
      // Compiled (or built) from now on: a later save of one that chokidar leaves out is reported all the same.
      watcher.taking(cli.map((file) => join(config.root, file)));
      // A restart builds again anyway; otherwise the file may be bundled for the browser or the
      // render worker as well as compiled into nzf-build, so the site is rebuilt too.
      if (cli.length && options.onCliChange?.(cli) !== "restarting") for (const file of cli) changed.add(file);
      if (changed.size) startBuild();
    }, DEBOUNCE_MS);
  };

  const onChange = (path: string) => {
    const file = relative(config.root, path).split(sep).join("/");
    if (isEditorTemporary(file) || isIgnoredSource(file)) return;
    // Watch mode's own browser script is no part of the site: bundled again, and open pages reload to run it.
    if (file.startsWith(DEV_CLIENT_DIR)) {
      watcher.taking([path]);
      void live.refreshClient().then(() => live.send("reload", ""));
      return;
    }
    firstChangeAt ??= Date.now();
    if (options.cliSources?.has(file)) cliChanged.add(file);
    else {
      changed.add(file);
      logger.debug("watch", `${SAW_LINE}${file}`);
    }
    debounce();
  };

  // The port is checked (and the server listening) before the first build, so a busy port costs no build.
  const ready = () => buildsFinished > 0;
  const server = await serve(config.outDir, options.port ?? 4321, host, live, ready, logger);
  const port = Number(new URL(server.url).port);

  // chokidar, not fs.watch: Node's recursive fs.watch on Linux loses a file replaced by a rename
  // (an editor's atomic save, `sed -i`, `git checkout`) after its first change. It leaves out a
  // save made within 50 ms of the last: ./source-watcher.ts reports those too.
  const contentImages = join(config.contentDir, "*", "images");
  const watcher = watchSources([...WATCHED.map((p) => join(config.root, p)), config.contentDir], {
    ignored: (path) =>
      path.includes(`${sep}node_modules${sep}`) ||
      isEditorTemporary(relative(config.root, path)) ||
      isUnder(path, contentImages),
    onChange,
    onError: (error) => logger.warn("watch", `file watcher: ${error.message}`),
  });

  // The first build: a failure here is shown like any other and the server still serves.
  startBuild();
  await Promise.all([running, watcher.ready]);
  logger.info(
    "watch",
    `serving ${relative(process.cwd(), config.outDir) || "."} at ${server.url}/ — watching templates/, src/ and content; Ctrl+C to stop`,
  );

  return {
    url: server.url,
    port,
    server,
    live,
    async stop({ waitForBuildMs } = {}) {
      stopping = true;
      cancelPreviewPhase();
      clearTimeout(timer);
      live.close();
      await Promise.all([watcher.close(), server.stop()]);
      let finished = true;
      if (running) {
        const wait =
          waitForBuildMs === undefined
            ? running
            : Promise.race([running, new Promise<void>((r) => setTimeout(r, waitForBuildMs).unref())]);
        await wait;
        finished = running === null;
      }
      await builder.close();
      return finished;
    },
  };
}

/**
 * Where one rebuild's time went, for `--verbose` and the bench (bench/watch.ts parses it): the wall
 * clock of the first change seen, the quiet before the build, each stage of the build (stages run
 * at the same time, so they do not add up), the whole build, and how many pages it rendered.
 */
export function breakdownOf(result: BuildResult, seenAt: number | null, startedAt: number, buildMs: number): string {
  const parts = [
    `seen=${seenAt ?? startedAt}`,
    `quiet=${seenAt === null ? 0 : startedAt - seenAt}`,
    ...Object.entries(result.stages).map(([name, ms]) => `${name}=${Math.round(ms)}`),
    `build=${Math.round(buildMs)}`,
    `rendered=${result.pagesRendered}`,
    `bodiesReused=${result.bodiesReused}`,
    `written=${result.pagesRebuilt}`,
  ];
  return `breakdown ${parts.join(" ")}`;
}

/** Whether `path` is inside a folder matching `pattern` (a path with one `*` segment). */
function isUnder(path: string, pattern: string): boolean {
  const [before, after] = pattern.split("*") as [string, string];
  if (!path.startsWith(before)) return false;
  const rest = path.slice(before.length);
  const slash = rest.indexOf(sep);
  return slash > 0 && (rest.slice(slash) === after || rest.slice(slash).startsWith(after + sep));
}
