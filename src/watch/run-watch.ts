/**
 * `nzf-build --watch` (`npm start`): everything watch mode starts and stops. It builds into a folder
 * of its own (.nzf-cache/watch/site/, unless --out names another folder), never dist/, so the
 * development settings it builds with (the local payments API's http://127.0.0.1 URL in the pages
 * and the headers' connect-src) never reach a folder that gets deployed; and it keeps its own build
 * record there, so the next plain build of dist/ is still incremental.
 *
 * It starts the local payments API when PAYMENTS_API_URL is not set and the local account API when a
 * user pool is configured without NZF_ACCOUNT_API_URL (src/watch/local-apis.ts), the server and the watcher
 * (src/watch/watch.ts). One Ctrl+C (SIGINT) or SIGTERM stops all of it within 2 s; a second ends
 * the process at once. Run from a checkout by bin/nzf-build, it runs in a child process that
 * recompiles nzf-build and restarts when its own code in src/ changes (src/watch/supervisor.ts).
 */
import { spawn } from "node:child_process";
import { join, relative, resolve } from "node:path";
import type { BuildConfig } from "../core/config.js";
import type { Logger } from "../core/logger.js";
import { defaultOf } from "../core/options.js";
import { formatError, NzfError } from "../core/errors.js";
import { startLocalApis, type LocalApis } from "./local-apis.js";
import { startWatch, type WatchSession } from "./watch.js";
import { currentInstallation, readCliSources, type Installation } from "./cli-sources.js";
import {
  CHILD_ENV,
  PAYMENTS_PORT_ENV,
  PORT_ENV,
  RESTART_EXIT_CODE,
  superviseWatch,
  type ToChild,
  type ToSupervisor,
} from "./supervisor.js";

export interface RunWatchOptions {
  logger: Logger;
  /** The port asked for (default 4321); a busy one moves on to the next free port. */
  port?: number;
  host?: string;
  /** The public configuration handed to islands; its payments API is the local one when none is set. */
  publicConfig: Record<string, unknown>;
}

/** After a stop is asked, the process ends by this time even if stopping is held up (the stop must take under 2 s). */
const EXIT_AFTER_MS = 1500;
/** How long a stop waits for a running build to finish before leaving it. */
const BUILD_GRACE_MS = 700;

/** The output folder and work folder watch mode builds with: its own, unless --out names a folder other than dist/. */
export function watchBuildConfig(config: BuildConfig): BuildConfig {
  if (config.outDir !== resolve(config.root, defaultOf("out"))) return config;
  const workDir = join(config.workDir, "watch");
  return { ...config, outDir: join(workDir, "site"), workDir };
}

/** Runs watch mode until Ctrl+C (or SIGTERM); resolves after everything it started has stopped. */
export async function runWatch(config: BuildConfig, options: RunWatchOptions): Promise<void> {
  const installation = currentInstallation();
  const isChild = process.env[CHILD_ENV] === "1" && typeof process.send === "function";
  delete process.env[CHILD_ENV];
  // A checkout started by its launcher can recompile itself: the watching runs in a child process.
  if (!isChild && installation?.compilable && installation.root === config.root) {
    const code = await superviseWatch(options.logger);
    if (code !== 0) process.exitCode = code;
    return;
  }
  await watchUntilStopped(
    config,
    options,
    isChild ? installation : null,
    installation?.sources ?? readCliSources(config.root),
  );
}

async function watchUntilStopped(
  config: BuildConfig,
  options: RunWatchOptions,
  restartable: Installation | null,
  cliSources: ReadonlySet<string> | null,
): Promise<void> {
  const { logger } = options;
  const watchConfig = watchBuildConfig(config);
  if (watchConfig === config)
    logger.warn(
      "watch",
      `building into ${config.outDir} with development settings (the local payments API): build it again without --watch before deploying it`,
    );

  // Stop requests: a signal, the supervisor's message, or the supervisor gone.
  let stopAsked!: (reason: "stop" | "restart") => void;
  const stopRequested = new Promise<"stop" | "restart">((resolve) => (stopAsked = resolve));
  let stopping: "stop" | "restart" | null = null;
  const requestStop = (reason: "stop" | "restart") => {
    if (stopping) return;
    stopping = reason;
    stopAsked(reason);
    // A build cannot be interrupted: if one holds the process past this, it ends anyway (the next
    // watch session finishes the interrupted publish of its own folder).
    setTimeout(() => exitNow(reason), EXIT_AFTER_MS).unref();
  };
  let signals = 0;
  const onSignal = () => (++signals > 1 ? process.exit(130) : requestStop("stop"));
  const onMessage = (message: ToChild) => message?.type === "stop" && requestStop("stop");
  const onDisconnect = () => requestStop("stop");
  process.on("SIGINT", onSignal);
  process.on("SIGTERM", onSignal);
  if (restartable) {
    process.on("message", onMessage);
    process.on("disconnect", onDisconnect);
  }

  let apis: LocalApis | undefined;
  let session: WatchSession | undefined;
  let leftBuilding = false;
  try {
    apis = await startLocalApis(
      logger,
      options.publicConfig,
      Number(process.env[PAYMENTS_PORT_ENV]) || 0,
      // Its own data folder: never the one `nzf-build api` may have open, nor another watch's.
      watchConfig.outDir === config.outDir ? `${watchConfig.outDir}.nzf-data` : join(config.root, ".nzf-data", "watch"),
      { dir: config.contentDir, repository: config.repository, sample: config.content === "sample" },
    );
    const { publicConfig } = apis;
    if (stopping) return;

    const recompile = restartable?.compilable
      ? createRecompiler(
          restartable,
          logger,
          () => session,
          () => requestStop("restart"),
        )
      : null;
    const port = Number(process.env[PORT_ENV]) || options.port;
    const starting = startWatch(watchConfig, {
      logger,
      port,
      host: options.host,
      buildDeps: { publicConfig },
      cliSources: cliSources ?? undefined,
      onCliChange(files) {
        const what = `${files.join(", ")} ${files.length === 1 ? "is" : "are"} part of nzf-build itself`;
        if (recompile) {
          logger.info("watch", `${what}: recompiling nzf-build and restarting`);
          recompile();
          return "restarting";
        }
        logger.warn(
          "watch",
          `${what}: run \`npm run compile\` and restart watch mode to use the change (the site is rebuilt, but with the nzf-build that is running)`,
        );
      },
    });
    // Stopped during the first build (which cannot be interrupted): the process ends below.
    const started = await Promise.race([starting, stopRequested.then(() => null)]);
    if (started === null) {
      starting.catch(() => undefined);
      leftBuilding = true;
      return;
    }
    session = started;
    // The site's port is known only now (a busy one moves on): the local payments API answers CORS
    // for this site alone from here on, and for loopback origins during the first build.
    apis.payments?.allowOrigins([`http://127.0.0.1:${session.port}`, `http://localhost:${session.port}`]);
    // The first build may have fetched the snapshot (--fetch): the service's prices are that content's.
    await apis.payments?.refreshPrices();
    if (restartable)
      process.send!({
        type: "listening",
        port: session.port,
        paymentsPort: apis.payments?.port,
      } satisfies ToSupervisor);
    await stopRequested;
  } finally {
    // Everything started above, whatever stopped it (a signal, a restart, an error at start-up).
    if (session && !(await session.stop({ waitForBuildMs: BUILD_GRACE_MS }))) leftBuilding = true;
    await apis?.stop();
    process.off("SIGINT", onSignal);
    process.off("SIGTERM", onSignal);
    process.off("message", onMessage);
    process.off("disconnect", onDisconnect);
    // A build left running would hold the process until it ends: nothing needs it any more.
    if (leftBuilding) exitNow(stopping ?? "stop");
    if (stopping === "restart") process.exitCode = RESTART_EXIT_CODE;
  }

  function exitNow(reason: "stop" | "restart"): never {
    logger.info("watch", "stopped during a build; the next watch session builds again");
    process.exit(reason === "restart" ? RESTART_EXIT_CODE : 0);
  }
}

/**
 * Recompiles nzf-build (scripts/compile-cli.mjs) and asks for a restart when that succeeded. Changes
 * saved while it compiles compile again after it. A compile error is shown in the terminal and the
 * browser, and the running nzf-build goes on.
 */
function createRecompiler(
  installation: Installation,
  logger: Logger,
  session: () => WatchSession | undefined,
  restart: () => void,
): () => void {
  let compiling = false;
  let again = false;
  const run = async (): Promise<void> => {
    compiling = true;
    const started = performance.now();
    const result = await compile(installation.root);
    compiling = false;
    if (again) {
      again = false;
      return run();
    }
    if (result.ok) {
      logger.info("watch", `recompiled nzf-build in ${Math.round(performance.now() - started)} ms`);
      restart();
      return;
    }
    const error = new NzfError("CLI_COMPILE_FAILED", `nzf-build could not be recompiled:\n${result.output.trim()}`, {
      subject: relative(process.cwd(), join(installation.root, "src")) || "src",
    });
    const text = formatError(error);
    logger.error("watch", text);
    session()?.live.showError(text);
  };
  return () => {
    if (compiling) again = true;
    else void run();
  };
}

function compile(root: string): Promise<{ ok: boolean; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [join(root, "scripts", "compile-cli.mjs")], {
      cwd: root,
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    child.stdout.on("data", (chunk: Buffer) => (output += chunk));
    child.stderr.on("data", (chunk: Buffer) => (output += chunk));
    child.on("error", (error) => resolve({ ok: false, output: error.message }));
    child.on("close", (code) => resolve({ ok: code === 0, output }));
  });
}
