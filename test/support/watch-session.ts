/**
 * A watch session (src/watch/watch.ts) a test can wait on: `nextBuild` and `settled`, made from
 * the session's events (WatchOptions.events), so the product itself has no waits only tests use.
 */
import type { BuildConfig } from "../../src/core/config.js";
import type { BuildResult } from "../../src/pipeline/build.js";
import { DEBOUNCE_MS, startWatch, type WatchOptions, type WatchSession } from "../../src/watch/watch.js";

export interface WaitableWatchSession extends WatchSession {
  /** Resolves with the first rebuild that starts after this call and saw every change made before it ended. */
  nextBuild(): Promise<BuildResult | Error>;
  /** Resolves when no rebuild is running or waiting, after a quiet while (late file-system events). */
  settled(): Promise<void>;
}

export async function startWaitableWatch(config: BuildConfig, options: WatchOptions): Promise<WaitableWatchSession> {
  // Each waiter gets the first build that starts after it asked (not one already running).
  const waiters: { after: number; resolve: (outcome: BuildResult | Error) => void }[] = [];
  let started = 0;
  let running: Promise<void> | null = null;
  let endRunning = () => {};
  // Changes seen since the last rebuild started: each starts one more.
  let waiting = 0;
  const session = await startWatch(config, {
    ...options,
    events: {
      change: () => void waiting++,
      buildStarted(number) {
        started = number;
        waiting = 0;
        running = new Promise((resolve) => (endRunning = resolve));
      },
      buildEnded(number, outcome, more) {
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
    },
  });
  const quiet = DEBOUNCE_MS + 20;
  return Object.assign(session, {
    nextBuild: () => new Promise<BuildResult | Error>((resolve) => waiters.push({ after: started, resolve })),
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
