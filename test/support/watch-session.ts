/**
 * A watch session (src/watch/watch.ts) a test can wait on: `nextBuild` and `settled`, read from the
 * lines the session logs with --verbose (each change seen, each build's start and end: SAW_LINE,
 * BUILD_LINE), through the logger the test gives it. The product has no hook only tests use.
 */
import type { BuildConfig } from "../../src/core/config.js";
import type { Logger } from "../../src/core/logger.js";
import {
  BUILD_LINE,
  DEBOUNCE_MS,
  SAW_LINE,
  startWatch,
  type WatchOptions,
  type WatchSession,
} from "../../src/watch/watch.js";

/** What a rebuild came to: the pages it wrote, or an Error with the last error the session logged. */
export type BuildOutcome = { pagesRebuilt: number } | Error;

/** One build's end as the session logs it. */
export interface BuildEnd {
  number: number;
  outcome: BuildOutcome;
  /** Saves were made while it ran that it may not have seen: another build follows. */
  more: boolean;
}

export interface WaitableWatchSession extends WatchSession {
  /** Resolves with the first rebuild that starts after this call and saw every change made before it ended. */
  nextBuild(): Promise<BuildOutcome>;
  /** Resolves when no rebuild is running or waiting, after a quiet while (late file-system events). */
  settled(): Promise<void>;
}

export interface WatchListeners {
  /** A change to the site was seen. */
  saw?(file: string): void;
  started?(number: number): void;
  /** Called while the build still counts as running: a save made here is one made during it. */
  ended?(end: BuildEnd): void;
}

const STARTED = new RegExp(`^${BUILD_LINE}(\\d+) started$`);
const ENDED = new RegExp(`^${BUILD_LINE}(\\d+) (?:ended: (\\d+) pages written|failed)(; saves made meanwhile)?`);

/**
 * `logger`, also telling `listeners` what the session's debug lines say. Fails the first build
 * when those lines are not there (their wording changed in src/watch/watch.ts), rather than leaving
 * a test to wait for a build it cannot see.
 */
export function listeningLogger(logger: Logger, listeners: WatchListeners): Logger & { sawFirstBuild(): void } {
  let lastError = "";
  let firstEnded = false;
  return {
    ...logger,
    error(label, message) {
      if (label === "watch") lastError = message;
      logger.error(label, message);
    },
    debug(label, message) {
      logger.debug(label, message);
      if (label !== "watch") return;
      if (message.startsWith(SAW_LINE)) return listeners.saw?.(message.slice(SAW_LINE.length));
      const started = STARTED.exec(message);
      if (started) return listeners.started?.(Number(started[1]));
      const ended = ENDED.exec(message);
      if (!ended) return;
      firstEnded = true;
      listeners.ended?.({
        number: Number(ended[1]),
        outcome: ended[2] === undefined ? new Error(lastError) : { pagesRebuilt: Number(ended[2]) },
        more: ended[3] !== undefined,
      });
    },
    sawFirstBuild() {
      if (!firstEnded)
        throw new Error(
          `the watch session logged no "${BUILD_LINE}1 ended" line: update test/support/watch-session.ts to src/watch/watch.ts`,
        );
    },
  };
}

/** startWatch with `listeners` told what the session logs; throws when the first build's end was not seen. */
export async function startListenedWatch(
  config: BuildConfig,
  options: WatchOptions,
  listeners: WatchListeners,
): Promise<WatchSession> {
  const logger = listeningLogger(options.logger, listeners);
  const session = await startWatch(config, { ...options, logger });
  try {
    logger.sawFirstBuild();
  } catch (error) {
    await session.stop();
    throw error;
  }
  return session;
}

export async function startWaitableWatch(config: BuildConfig, options: WatchOptions): Promise<WaitableWatchSession> {
  // Each waiter gets the first build that starts after it asked (not one already running).
  const waiters: { after: number; resolve: (outcome: BuildOutcome) => void }[] = [];
  let started = 0;
  let running: Promise<void> | null = null;
  let endRunning = () => {};
  // Changes seen since the last rebuild started: each starts one more.
  let waiting = 0;
  const session = await startListenedWatch(config, options, {
    saw: () => void waiting++,
    started(number) {
      started = number;
      waiting = 0;
      running = new Promise((resolve) => (endRunning = resolve));
    },
    ended({ number, outcome, more }) {
      running = null;
      endRunning();
      // A build that missed changes saved while it ran is not the one a waiter waits for.
      if (more) return;
      for (const waiter of [...waiters])
        if (waiter.after < number) {
          waiters.splice(waiters.indexOf(waiter), 1);
          waiter.resolve(outcome);
        }
    },
  });
  const quiet = DEBOUNCE_MS + 20;
  return Object.assign(session, {
    nextBuild: () => new Promise<BuildOutcome>((resolve) => waiters.push({ after: started, resolve })),
    async settled() {
      for (let still = 0; still < 3; ) {
        await new Promise((resolve) => setTimeout(resolve, quiet));
        if (running || waiting) {
          still = 0;
          await running;
        } else still++;
      }
    },
  });
}
