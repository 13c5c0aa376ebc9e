/**
 * Watch mode: build, serve dist/ on loopback, watch the sources, rebuild with the same build()
 * (incremental, so a content edit re-renders only the pages that show it), and tell open pages to
 * reload. A failed rebuild keeps the last good site served and shows the error in the terminal and
 * in the browser; the next good save recovers without a restart.
 */
import { BundlerContexts } from "../render/bundler-contexts.js";
import { watch, type FSWatcher } from "node:fs";
import { join, relative } from "node:path";
import type { BuildConfig } from "../core/config.js";
import type { Logger } from "../core/logger.js";
import { formatError } from "../core/errors.js";
import { formatMs } from "../core/logger.js";
import { build, type BuildDeps, type BuildResult } from "../build.js";
import { createBuilder } from "../builder.js";
import { startStaticServer, type StaticServer } from "../server/static-server.js";
import { createLiveReload } from "./live-reload.js";

export interface WatchOptions {
  logger: Logger;
  port?: number;
  host?: string;
  /** Milliseconds of quiet after a change before rebuilding (editors save in bursts). */
  debounceMs?: number;
  buildDeps?: Partial<BuildDeps>;
}

export interface WatchSession {
  url: string;
  server: StaticServer;
  /** Resolves with the first rebuild that starts after this call and saw every change made before it ended (for tests). */
  nextBuild(): Promise<BuildResult | Error>;
  /** Resolves when no rebuild is running or waiting (for tests). */
  settled(): Promise<void>;
  stop(): Promise<void>;
}

/** What is watched, relative to the project root. */
export const WATCHED = ["templates", "src/client", "src/render", "src/content/routes.ts", "src/zakat", "src/payments", "src/preview", "src/preview-app"];

export async function startWatch(config: BuildConfig, options: WatchOptions): Promise<WatchSession> {
  const { logger } = options;
  const live = createLiveReload();
  // Kept between rebuilds so a template edit recompiles only what changed; disposed by stop().
  const bundlers = new BundlerContexts();
  const builder = createBuilder();
  // Each waiter gets the first build that starts after it asked (not one already running).
  const waiters: { after: number; resolve: (r: BuildResult | Error) => void }[] = [];
  let buildsStarted = 0;
  let running: Promise<void> | null = null;
  let pending = false;
  let timer: NodeJS.Timeout | undefined;
  const changed = new Set<string>();

  const runBuild = async (): Promise<void> => {
    const files = [...changed];
    changed.clear();
    const number = ++buildsStarted;
    const started = performance.now();
    let outcome: BuildResult | Error;
    try {
      outcome = await build(config, { logger, bundlers, builder, ...options.buildDeps });
      if (outcome.published) live.send("reload", "");
      live.clearError();
      if (files.length) logger.info("watch", `${files.slice(0, 3).join(", ")}${files.length > 3 ? ` and ${files.length - 3} more` : ""} → rebuilt in ${formatMs(performance.now() - started)}`);
    } catch (error) {
      outcome = error as Error;
      const text = formatError(error);
      logger.error("watch", `${text}\n        the last good site is still served; fix the error and save again`);
      live.showError(text);
    }
    // Files saved while this build ran may not be in it (an editor truncates, then writes): the build
    // that follows has them, so a waiter is answered by that one instead.
    if (changed.size > 0) return;
    for (const waiter of [...waiters]) {
      if (waiter.after < number) {
        waiters.splice(waiters.indexOf(waiter), 1);
        waiter.resolve(outcome);
      }
    }
  };

  const schedule = (file: string) => {
    changed.add(file);
    clearTimeout(timer);
    timer = setTimeout(() => {
      if (running) {
        pending = true;
        return;
      }
      running = runBuild().finally(() => {
        running = null;
        if (pending) {
          pending = false;
          schedule("(changes during the last build)");
        }
      });
    }, options.debounceMs ?? 60);
  };

  // The first build: a failure here is shown like any other and the server still starts.
  await runBuild();
  const server = await startStaticServer({
    root: config.outDir,
    port: options.port ?? 4321,
    host: options.host ?? "127.0.0.1",
    intercept: live.handle,
    transformHtml: live.inject,
  });

  const watchers: FSWatcher[] = [];
  const contentDir = config.contentDir;
  for (const target of [...WATCHED.map((p) => join(config.root, p)), contentDir]) {
    try {
      watchers.push(
        watch(target, { recursive: true }, (_event, name) => {
          const file = relative(config.root, join(target, String(name ?? "")));
          if (/(^|\/)\.|~$|\.tmp$|\.swp$/.test(file)) return; // editor and atomic-write temp files
          schedule(file);
        }),
      );
    } catch {
      logger.debug("watch", `not watching ${target} (missing)`);
    }
  }
  logger.info("watch", `serving ${config.outDir} at ${server.url}/ — watching templates, src/client and content; Ctrl+C to stop`);

  return {
    url: server.url,
    server,
    nextBuild: () => new Promise((resolve) => waiters.push({ after: buildsStarted, resolve })),
    async settled() {
      // Late file-system events may still arrive: wait until a quiet period passes with nothing to do.
      for (let quiet = 0; quiet < 3; ) {
        await new Promise((r) => setTimeout(r, (options.debounceMs ?? 60) + 20));
        if (running || changed.size) {
          quiet = 0;
          await running;
        } else quiet++;
      }
    },
    async stop() {
      clearTimeout(timer);
      for (const w of watchers) w.close();
      live.close();
      await running;
      await bundlers.dispose();
      await builder.close();
      await server.stop();
    },
  };
}

/** The CLI's entry: runs until interrupted. */
export async function runWatch(config: BuildConfig, options: WatchOptions): Promise<void> {
  const session = await startWatch(config, options);
  await new Promise<void>((resolve) => {
    for (const signal of ["SIGINT", "SIGTERM"] as const) process.once(signal, () => resolve());
  });
  await session.stop();
}
