/**
 * The webhook server over HTTP, in this process: idle and slow connections are closed, /status
 * shows no secret a deploy printed, a deploy past its deadline is abandoned and reported, and
 * /health fails while a deploy is stuck (issue 36).
 */
import { connect } from "node:net";
import { afterEach, describe, expect, it, vi } from "vitest";
import { createMemoryLogger } from "../../src/core/logger.js";
import { createBuildQueue, type BuildQueue, type RunBuild } from "../../src/server/build-queue.js";
import { createInProcessDeployer, type DeployResult } from "../../src/server/deploy.js";
import { restoreServerLimits, shorten } from "../support/shortened-server-limits.js";
import { startWebhookServer, startWebhookService, type WebhookServer } from "../../src/server/webhook-server.js";
import { resolveWebhookConfig } from "../../src/cli/settings.js";
import { healthOf, redactText } from "../../src/server/webhook-views.js";

// The slow-client limits, shortened for one test at a time (test/support/shortened-server-limits.ts).
vi.mock("../../src/server/server-limits.js", () => import("../support/shortened-server-limits.js"));
afterEach(restoreServerLimits);

const SECRET = "resilience-secret-0123456789";
const goodBuild: RunBuild = async () => ({ ok: true, pagesRebuilt: 1, durationMs: 1 });
let server: WebhookServer | undefined;
let queue: BuildQueue | undefined;

afterEach(async () => {
  await server?.stop();
  await queue?.idle();
  server = undefined;
  queue = undefined;
});

/** How long the server leaves a connection open that sends `bytes` and then nothing. */
function heldFor(url: string, bytes: string): Promise<number> {
  const { port } = new URL(url);
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const socket = connect(Number(port), "127.0.0.1", () => socket.write(bytes));
    socket.on("data", () => undefined);
    socket.on("close", () => resolve(performance.now() - started));
    socket.on("error", reject);
    setTimeout(() => {
      socket.destroy();
      reject(new Error("the server never closed the connection"));
    }, 10_000).unref();
  });
}

describe("connections", () => {
  it("closes a connection that never sends a request, one that stops half-way, and an idle kept-alive one", async () => {
    queue = createBuildQueue(goodBuild, { logger: createMemoryLogger() });
    shorten({
      idleTimeoutMs: 400,
      keepAliveTimeoutMs: 400,
      headersTimeoutMs: 1_000,
      requestTimeoutMs: 1_500,
      checkIntervalMs: 100,
    });
    server = await startWebhookServer({
      port: 0,
      secret: SECRET,
      repository: "nzf2020",
      queue,
      logger: createMemoryLogger(),
    });
    expect(await heldFor(server.url, "")).toBeLessThan(5_000);
    expect(await heldFor(server.url, "GET /health HTTP/1.1\r\nHost: x\r\n")).toBeLessThan(5_000);
    // A whole request on a kept-alive connection is answered, then the silent connection closed.
    expect(await heldFor(server.url, "GET /health HTTP/1.1\r\nHost: x\r\n\r\n")).toBeLessThan(5_000);
    // The server still answers.
    expect((await fetch(`${server.url}/health`)).status).toBe(200);
  });
});

describe("/status", () => {
  it("shows no Stripe key, AWS key or access key id that a deploy printed", async () => {
    const env = {
      PATH: process.env.PATH,
      NZF_WEBHOOK_SECRET: SECRET,
      NZF_DEPLOY_COMMAND: [
        "echo using sk_live_51HabcdefGHIJKLmnopQRST0123",
        "echo key id AKIAIOSFODNN7EXAMPLE secret wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY",
        "echo whsec_abcdefgh12345678 rk_test_abcdefghijkl1234",
        "echo uploaded 3 files",
        "exit 1",
      ].join("; "),
    };
    const config = resolveWebhookConfig({ port: 0 }, env);
    const service = await startWebhookService(config, {
      runBuild: goodBuild,
      logger: createMemoryLogger(),
    });
    try {
      await service.queue.idle();
      const text = await (await fetch(`${service.url}/status`)).text();
      for (const leak of ["sk_live_", "AKIA", "wJalrXUtnFEMI", "whsec_", "rk_test_"]) expect(text).not.toContain(leak);
      expect(text).toContain("uploaded 3 files");
      expect(text).toContain("a line holding a secret was removed: a Stripe sk_live key");
    } finally {
      await service.stop();
    }
  });

  it("redacts line by line, keeping the lines with nothing secret", () => {
    const out = redactText("ok line\nkey AKIAIOSFODNN7EXAMPLE here\nsk_test_abcdefgh12345678\nlast\n", []);
    const lines = out.split("\n");
    expect(lines[0]).toBe("ok line");
    expect(lines[1]).not.toContain("AKIA");
    expect(lines[2]).toBe("[a line holding a secret was removed: a Stripe sk_test key]");
    expect(lines[3]).toBe("last");
  });
});

describe("a deploy past its deadline", () => {
  it("is told to stop at the deadline and fails with DEPLOY_TIMED_OUT", async () => {
    let aborted = false;
    const deploy = createInProcessDeployer(
      "nzf-build deploy",
      (signal) =>
        new Promise<string>((_, reject) =>
          signal.addEventListener("abort", () => {
            aborted = true;
            reject(Object.assign(new Error("stopped at the deadline"), { code: "DEPLOY_TIMED_OUT" }));
          }),
        ),
      200,
    );
    const result = await deploy();
    expect(aborted).toBe(true);
    expect(result).toMatchObject({ ok: false, timedOut: true });
    expect(result.error).toMatch(/^\[DEPLOY_TIMED_OUT\]/);
  });

  it("is abandoned 10 s after its deadline when it does not stop, so the queue moves on", async () => {
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
    try {
      const deploy = createInProcessDeployer("nzf-build deploy", () => new Promise<string>(() => undefined), 100);
      let result: DeployResult | undefined;
      void deploy().then((r) => {
        result = r;
      });
      await vi.advanceTimersByTimeAsync(100 + 9_999);
      expect(result).toBeUndefined();
      await vi.advanceTimersByTimeAsync(1);
      expect(result).toMatchObject({ ok: false, timedOut: true });
      expect(result?.error).toContain("abandoned");
    } finally {
      vi.useRealTimers();
    }
  });

  it("makes /health fail while it runs past the deadline", async () => {
    let finish: (value: string) => void = () => undefined;
    const stuck = createInProcessDeployer("nzf-build deploy", () => new Promise<string>((r) => (finish = r)), 60_000);
    queue = createBuildQueue(goodBuild, { logger: createMemoryLogger(), onDeploy: stuck });
    server = await startWebhookServer({
      port: 0,
      secret: SECRET,
      repository: "nzf2020",
      queue,
      logger: createMemoryLogger(),
      deployStuckAfterMs: 300,
    });
    queue.enqueue({ reason: "manual", receivedAt: Date.now() });
    await new Promise((r) => setTimeout(r, 100));
    expect(queue.status().state).toBe("deploying");
    expect((await fetch(`${server.url}/health`)).status).toBe(200);
    await new Promise((r) => setTimeout(r, 500));
    const health = await fetch(`${server.url}/health`);
    expect(health.status).toBe(503);
    expect(((await health.json()) as { reason: string }).reason).toMatch(
      /deploy after build #1 has run for \d+ s, past its deadline/,
    );
    finish("done");
    await queue.idle();
    expect((await fetch(`${server.url}/health`)).status).toBe(200);
  });

  it("is unhealthy in the health rule only after the stuck limit", () => {
    const status = {
      state: "deploying" as const,
      current: {
        id: 4,
        state: "deploying" as const,
        startedAt: 0,
        deployStartedAt: 1_000,
        triggers: 1,
        reasons: ["webhook" as const],
      },
      pending: { triggers: 0, documentIds: 0, oldestReceivedAt: null },
      carried: { triggers: 0 },
      deploy: { configured: true, pending: true, last: null },
      builds: [],
    };
    expect(healthOf(status, { now: 2_000, deployStuckAfterMs: 5_000 }).ok).toBe(true);
    expect(healthOf(status, { now: 7_000, deployStuckAfterMs: 5_000 }).ok).toBe(false);
  });
});
