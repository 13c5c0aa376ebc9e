import { afterEach, describe, expect, it, vi } from "vitest";
import { NzfError } from "../../src/core/errors.js";
import { createMemoryLogger } from "../../src/core/logger.js";
import {
  compactTriggers,
  createBuildQueue,
  type BuildRunResult,
  type BuildTrigger,
  type RunBuild,
} from "../../src/server/build-queue.js";

/** A build the test finishes by hand, so it can send triggers while a build is running. */
function controlledBuild() {
  const calls: { triggers: BuildTrigger[]; finish: (result?: Partial<BuildRunResult> | Error) => void }[] = [];
  let running = 0;
  let maxRunning = 0;
  const runBuild: RunBuild = (triggers) =>
    new Promise((resolve, reject) => {
      running++;
      maxRunning = Math.max(maxRunning, running);
      calls.push({
        triggers,
        finish: (result) => {
          running--;
          if (result instanceof Error) reject(result);
          else resolve({ ok: true, pagesRebuilt: 3, pagesTotal: 10, durationMs: 1, ...result });
        },
      });
    });
  return { calls, runBuild, maxRunning: () => maxRunning };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
async function waitFor(condition: () => boolean, what: string, timeoutMs = 3000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await sleep(5);
  }
}
const base = Date.now();
const trigger = (n: number, ids?: string[]): BuildTrigger => ({
  reason: "webhook",
  receivedAt: base + n,
  ...(ids ? { documentIds: ids } : {}),
});

afterEach(() => {
  vi.useRealTimers();
});

describe("build queue", () => {
  it("runs one build at a time and folds everything that arrives meanwhile into exactly one next build", async () => {
    const build = controlledBuild();
    const queue = createBuildQueue(build.runBuild, { logger: createMemoryLogger() });
    queue.enqueue(trigger(1, ["a"]));
    await waitFor(() => build.calls.length === 1, "build 1");
    for (let n = 2; n <= 4; n++) queue.enqueue(trigger(n, [`d${n}`]));
    await sleep(50);
    expect(build.calls).toHaveLength(1);
    expect(queue.status()).toMatchObject({
      state: "building",
      current: { id: 1, triggers: 1 },
      pending: { triggers: 3, documentIds: 3 },
    });

    build.calls[0]!.finish();
    await waitFor(() => build.calls.length === 2, "build 2");
    // Build 1 only ever saw the trigger accepted before it started.
    expect(build.calls[0]!.triggers.map((t) => t.receivedAt - base)).toEqual([1]);
    expect(build.calls[1]!.triggers.map((t) => t.receivedAt - base)).toEqual([2, 3, 4]);

    queue.enqueue(trigger(5));
    build.calls[1]!.finish();
    await waitFor(() => build.calls.length === 3, "build 3");
    build.calls[2]!.finish({ pagesRebuilt: 0 });
    await queue.idle();

    expect(build.maxRunning()).toBe(1);
    const { builds, state } = queue.status();
    expect(state).toBe("idle");
    expect(builds.map((b) => b.id)).toEqual([3, 2, 1]);
    expect(builds[1]).toMatchObject({
      triggers: 3,
      reasons: ["webhook"],
      documentIds: ["d2", "d3", "d4"],
      documentCount: 3,
      pagesRebuilt: 3,
      pagesTotal: 10,
      ok: true,
    });
    expect(builds[0]).toMatchObject({ triggers: 1, documentIds: [], pagesRebuilt: 0 });
  });

  it("records a failed build, does not retry it alone, and hands its changes to the next build", async () => {
    const build = controlledBuild();
    const logger = createMemoryLogger();
    const queue = createBuildQueue(build.runBuild, { logger });
    queue.enqueue(trigger(1, ["a"]));
    await waitFor(() => build.calls.length === 1, "build 1");
    build.calls[0]!.finish(new NzfError("RENDER_FAILED", "The page for document a threw while rendering."));
    await queue.idle();
    await sleep(50);
    expect(build.calls).toHaveLength(1);
    expect(queue.status()).toMatchObject({ state: "idle", carried: { triggers: 1 } });
    expect(queue.status().builds[0]).toMatchObject({
      id: 1,
      ok: false,
      error: "[RENDER_FAILED] The page for document a threw while rendering.",
    });
    expect(logger.lines.at(-1)).toMatchObject({ level: "error" });
    expect(logger.lines.at(-1)!.message).toMatch(
      /^build #1 failed in \d+ ms.* for 1 trigger \(webhook, 1 document\): \[RENDER_FAILED\] The page .*\(the previous site stays live\)$/,
    );

    queue.enqueue(trigger(2, ["b"]));
    await waitFor(() => build.calls.length === 2, "build 2");
    expect(build.calls[1]!.triggers.flatMap((t) => t.documentIds ?? [])).toEqual(["a", "b"]);
    build.calls[1]!.finish({ ok: false, error: "no space left on device" });
    await queue.idle();
    expect(queue.status().builds[0]).toMatchObject({
      ok: false,
      error: "no space left on device",
      documentIds: ["a", "b"],
    });

    queue.enqueue(trigger(3, ["c"]));
    await waitFor(() => build.calls.length === 3, "build 3");
    build.calls[2]!.finish();
    await queue.idle();
    expect(queue.status()).toMatchObject({ carried: { triggers: 0 } });
    expect(queue.status().builds[0]).toMatchObject({ id: 3, ok: true, documentIds: ["a", "b", "c"] });
    expect(logger.lines.at(-1)!.message).toMatch(
      /^build #3 ok in \d+ ms.* for 2 triggers \(webhook, 3 documents\): 3 of 10 pages rebuilt$/,
    );
  });

  describe("the quiet window, on fake timers", () => {
    afterEach(() => {
      vi.useRealTimers();
    });
    const fake = () => vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "performance", "Date"] });
    // The production figures: a lone trigger waits 100 ms, a burst 500 ms of quiet, none more than 5 s.
    const options = { logger: createMemoryLogger() };

    it("starts a lone trigger's build after 100 ms, not the burst's 500 ms", async () => {
      fake();
      const build = controlledBuild();
      const queue = createBuildQueue(build.runBuild, options);
      queue.enqueue(trigger(1, ["a"]));
      await vi.advanceTimersByTimeAsync(99);
      expect(build.calls).toHaveLength(0);
      expect(queue.status().state).toBe("waiting");
      await vi.advanceTimersByTimeAsync(1);
      expect(build.calls).toHaveLength(1);
      build.calls[0]!.finish();
      await vi.runAllTimersAsync();
      await queue.idle();
    });

    it("makes a burst of a second trigger within 100 ms: one build, after 500 ms of quiet", async () => {
      fake();
      const build = controlledBuild();
      const queue = createBuildQueue(build.runBuild, options);
      queue.enqueue(trigger(1, ["a"]));
      await vi.advanceTimersByTimeAsync(60);
      queue.enqueue(trigger(2, ["b"]));
      // Past the lone trigger's 100 ms: the burst waits 500 ms after its last trigger.
      await vi.advanceTimersByTimeAsync(499);
      expect(build.calls).toHaveLength(0);
      await vi.advanceTimersByTimeAsync(1);
      expect(build.calls).toHaveLength(1);
      expect(build.calls[0]!.triggers.flatMap((t) => t.documentIds ?? [])).toEqual(["a", "b"]);
      build.calls[0]!.finish();
      await vi.runAllTimersAsync();
      await queue.idle();
      expect(build.calls).toHaveLength(1);
    });

    it("builds what arrives during a lone trigger's build once, after 500 ms of quiet, not at each arrival", async () => {
      fake();
      const build = controlledBuild();
      const queue = createBuildQueue(build.runBuild, options);
      queue.enqueue(trigger(1, ["a"]));
      await vi.advanceTimersByTimeAsync(100);
      expect(build.calls).toHaveLength(1);
      // The rest of the burst: during the build and after it, 200 ms apart.
      for (let n = 2; n <= 6; n++) {
        queue.enqueue(trigger(n, [`d${n}`]));
        if (n === 3) build.calls[0]!.finish();
        await vi.advanceTimersByTimeAsync(200);
      }
      expect(build.calls).toHaveLength(1);
      expect(queue.status()).toMatchObject({ state: "waiting", pending: { triggers: 5 } });
      await vi.advanceTimersByTimeAsync(299);
      expect(build.calls).toHaveLength(1);
      await vi.advanceTimersByTimeAsync(1);
      expect(build.calls).toHaveLength(2);
      expect(build.calls[1]!.triggers.flatMap((t) => t.documentIds ?? [])).toEqual(["d2", "d3", "d4", "d5", "d6"]);
      build.calls[1]!.finish();
      await vi.runAllTimersAsync();
      await queue.idle();
    });

    it("waits for a burst to settle, but a steady stream no longer than 5 s", async () => {
      fake();
      const build = controlledBuild();
      const queue = createBuildQueue(build.runBuild, options);
      // A trigger every 50 ms never leaves 500 ms of quiet: the build starts 5 s after the first.
      let sent = 0;
      for (; build.calls.length === 0 && sent < 200; sent++) {
        queue.enqueue(trigger(100 + sent));
        await vi.advanceTimersByTimeAsync(50);
      }
      expect(sent).toBe(100);
      expect(build.calls[0]!.triggers).toHaveLength(100);
      build.calls[0]!.finish();
      await vi.runAllTimersAsync();
      await queue.idle();
      expect(build.calls).toHaveLength(1);
    });

    it("starts the build after the last one at once when its triggers have waited 5 s (a long build)", async () => {
      fake();
      const build = controlledBuild();
      const queue = createBuildQueue(build.runBuild, options);
      queue.enqueue(trigger(1, ["a"]));
      await vi.advanceTimersByTimeAsync(100);
      queue.enqueue(trigger(2, ["b"]));
      await vi.advanceTimersByTimeAsync(6000);
      queue.enqueue(trigger(3, ["c"]));
      build.calls[0]!.finish();
      await vi.advanceTimersByTimeAsync(0);
      expect(build.calls).toHaveLength(2);
      expect(build.calls[1]!.triggers.flatMap((t) => t.documentIds ?? [])).toEqual(["b", "c"]);
      build.calls[1]!.finish();
      await vi.runAllTimersAsync();
      await queue.idle();
    });
  });

  it("tells the deploy as each build starts (it reads ahead), and goes on when that throws", async () => {
    const build = controlledBuild();
    const events: string[] = [];
    const onDeploy = async () => {
      events.push("deploy");
      return { ok: true, command: "", durationMs: 0, exitCode: 0, signal: null, timedOut: false, outputTail: "" };
    };
    let calls = 0;
    const onBuildStart = () => {
      events.push(`prepare ${++calls}`);
      if (calls === 2) throw new Error("no credentials");
    };
    const queue = createBuildQueue(
      async (triggers) => {
        events.push("build");
        return build.runBuild(triggers);
      },
      { logger: createMemoryLogger(), onDeploy, onBuildStart },
    );
    for (const n of [1, 2]) {
      queue.enqueue(trigger(n, [`d${n}`]));
      await waitFor(() => build.calls.length === n, `build ${n}`);
      build.calls[n - 1]!.finish();
      await queue.idle();
    }
    expect(events).toEqual(["prepare 1", "build", "deploy", "prepare 2", "build", "deploy"]);
    expect(queue.status().builds.map((b) => b.ok)).toEqual([true, true]);

    // Without a deploy there is nothing to prepare.
    const alone = createBuildQueue(build.runBuild, { logger: createMemoryLogger(), onBuildStart });
    alone.enqueue(trigger(3));
    await waitFor(() => build.calls.length === 3, "build 3");
    build.calls[2]!.finish();
    await alone.idle();
    expect(calls).toBe(2);
  });

  it("keeps the last 50 builds, newest first", async () => {
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "performance", "Date"] });
    // Each build takes 10 ms of the fake clock.
    const runBuild: RunBuild = async () => {
      await new Promise((resolve) => setTimeout(resolve, 10));
      return { ok: true, pagesRebuilt: 1, durationMs: 10 };
    };
    const queue = createBuildQueue(runBuild, { logger: createMemoryLogger() });
    for (let n = 1; n <= 55; n++) {
      queue.enqueue(trigger(n));
      await vi.runAllTimersAsync();
      await queue.idle();
    }
    const { builds } = queue.status();
    expect(builds).toHaveLength(50);
    expect(builds[0]!.id).toBe(55);
    expect(builds[49]!.id).toBe(6);
    // Start and finish by the wall clock: the build's 10 ms apart.
    expect(builds[0]!.finishedAt - builds[0]!.startedAt).toBe(10);
    expect(builds[0]!.durationMs).toBe(10);
  });

  it("idle() resolves at once when nothing is queued", async () => {
    const queue = createBuildQueue(async () => ({ ok: true, pagesRebuilt: 0, durationMs: 0 }), {
      logger: createMemoryLogger(),
    });
    await expect(queue.idle()).resolves.toBeUndefined();
  });
});

describe("compactTriggers", () => {
  it("keeps one trigger per reason with the union of the documents and the earliest arrival", () => {
    const compacted = compactTriggers([
      { reason: "webhook", documentIds: ["a", "b"], receivedAt: 30 },
      { reason: "webhook", documentIds: ["b", "c"], receivedAt: 10 },
      { reason: "manual", documentIds: ["x"], receivedAt: 20 },
      { reason: "manual", receivedAt: 25 },
    ]);
    expect(compacted).toEqual([
      { reason: "webhook", documentIds: ["a", "b", "c"], receivedAt: 10 },
      // A trigger that does not list its documents means "look at everything".
      { reason: "manual", receivedAt: 20 },
    ]);
  });
});
