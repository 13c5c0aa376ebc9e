import { mkdir, mkdtemp, readFile, rename, rm, writeFile } from "node:fs/promises";
import { request } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { NzfError } from "../../src/core/errors.js";
import { createMemoryLogger, type MemoryLogger } from "../../src/core/logger.js";
import { createBuildQueue, type BuildQueue, type BuildTrigger, type RunBuild } from "../../src/server/build-queue.js";
import { startWebhookServer, startWebhookService, type WebhookServer } from "../../src/server/webhook-server.js";
import { resolveWebhookConfig } from "../../src/cli/settings.js";

const SECRET = "correct-horse-battery-staple-7f3a";
const REPOSITORY = "nzf2020";
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * A stand-in for the real build: it reads what "Prismic" holds when the build starts, writes the
 * page into a temporary folder and swaps it into dist/ only when everything worked, as the real
 * publish stage does. It can be made slow or made to fail half-way through.
 */
function fakeSite(root: string) {
  const site = {
    content: "v0",
    delayMs: 0,
    failNext: false,
    builds: [] as BuildTrigger[][],
    dist: join(root, "dist"),
    read: () => readFile(join(root, "dist", "index.html"), "utf8"),
  };
  const runBuild: RunBuild = async (triggers) => {
    const n = site.builds.push(triggers);
    const started = performance.now();
    const fetched = site.content;
    await sleep(site.delayMs);
    const temp = join(root, `dist-build-${n}`);
    await mkdir(temp, { recursive: true });
    await writeFile(join(temp, "index.html"), `<p>${fetched}</p>`);
    if (site.failNext) {
      site.failNext = false;
      await rm(temp, { recursive: true });
      throw new NzfError("RENDER_FAILED", `The page for document doc-broken threw while rendering.`);
    }
    await rm(site.dist, { recursive: true, force: true });
    await rename(temp, site.dist);
    return { ok: true, pagesRebuilt: 1, pagesTotal: 1, durationMs: performance.now() - started };
  };
  return { site, runBuild };
}

function webhookBody(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  // The shape Prismic sends (see @prismicio/client's WebhookBodyAPIUpdate).
  return {
    type: "api-update",
    secret: SECRET,
    masterRef: "ZxYz123",
    domain: REPOSITORY,
    apiUrl: `https://${REPOSITORY}.prismic.io/api`,
    releases: {},
    masks: {},
    tags: {},
    experiments: {},
    documents: ["doc-1"],
    ...overrides,
  };
}

let root: string;
let logger: MemoryLogger;
let queue: BuildQueue;
let server: WebhookServer;
let site: ReturnType<typeof fakeSite>["site"];
const allLogLines: string[] = [];

async function start(): Promise<void> {
  const fake = fakeSite(root);
  site = fake.site;
  queue = createBuildQueue(fake.runBuild, { logger });
  server = await startWebhookServer({ port: 0, secret: SECRET, repository: REPOSITORY, queue, logger });
}

function post(body: unknown, headers: Record<string, string> = {}, path = "/webhook"): Promise<Response> {
  return fetch(server.url + path, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: typeof body === "string" ? body : JSON.stringify(body),
  });
}

beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), "nzf-webhook-"));
  logger = createMemoryLogger();
});
afterEach(async () => {
  await server?.stop();
  await queue?.idle();
  allLogLines.push(...logger.lines.map((l) => l.message));
  await rm(root, { recursive: true, force: true });
});
afterAll(() => {
  // Every test's log lines, wrong secrets included: the secret never appears.
  expect(allLogLines.length).toBeGreaterThan(50);
  for (const line of allLogLines) expect(line).not.toContain(SECRET);
  for (const line of allLogLines) expect(line).not.toContain("wrong-secret");
});

describe("webhook server: rejected requests start no build", () => {
  it("answers each bad request with its status and builds nothing", async () => {
    await start();
    const cases: [string, () => Promise<Response>, number][] = [
      ["wrong secret", () => post(webhookBody({ secret: "wrong-secret" })), 401],
      ["missing secret", () => post(webhookBody({ secret: null })), 401],
      [
        "wrong secret in the header",
        () => post(webhookBody({ secret: undefined }), { "x-nzf-webhook-secret": "wrong-secret" }),
        401,
      ],
      ["no body", () => post(""), 400],
      ["bad JSON", () => post('{"type": "api-update", "secret": '), 400],
      ["a JSON array", () => post([webhookBody()]), 400],
      ["no type", () => post(webhookBody({ type: undefined })), 400],
      [
        "a huge body, even with the right secret",
        () => post(webhookBody({ padding: "x".repeat(2 * 1024 * 1024) })),
        413,
      ],
      ["text/plain", () => post(JSON.stringify(webhookBody()), { "content-type": "text/plain" }), 415],
      ["GET", () => fetch(server.url + "/webhook"), 405],
      [
        "PUT",
        () =>
          fetch(server.url + "/webhook", {
            method: "PUT",
            headers: { "content-type": "application/json" },
            body: JSON.stringify(webhookBody()),
          }),
        405,
      ],
      ["another repository", () => post(webhookBody({ domain: "someone-else" })), 422],
      ["an unknown path", () => post(webhookBody(), {}, "/hooks/prismic"), 404],
    ];
    for (const [what, send, status] of cases) {
      const response = await send();
      expect({ what, status: response.status }).toEqual({ what, status });
      const body = (await response.json()) as { ok: boolean; error: string };
      expect(body.ok).toBe(false);
      expect(body.error.length).toBeGreaterThan(10);
      if (status === 405) expect(response.headers.get("allow")).toBe("POST");
    }
    await sleep(100);
    await queue.idle();
    expect(site.builds).toHaveLength(0);
    expect(queue.status()).toMatchObject({ state: "idle", pending: { triggers: 0 }, builds: [] });
    const requestLines = logger.lines.filter((l) =>
      /^(POST|GET|PUT) \/\S* \d{3} \d+ ms from 127\.0\.0\.1/.test(l.message),
    );
    expect(requestLines).toHaveLength(cases.length);
    expect(logger.lines.find((l) => l.message.startsWith("POST /webhook 401"))).toMatchObject({ level: "warn" });
  });

  it("stops reading a body sent without a length once it passes 1 MB", async () => {
    await start();
    const status = await new Promise<number | string>((resolve) => {
      const req = request(
        server.url + "/webhook",
        { method: "POST", headers: { "content-type": "application/json", "transfer-encoding": "chunked" } },
        (res) => {
          resolve(res.statusCode ?? 0);
          res.resume();
        },
      );
      req.on("error", (error) => resolve(`error ${(error as NodeJS.ErrnoException).code}`));
      req.write(`{"secret": "${SECRET}", "padding": "`);
      let sent = 0;
      const more = () => {
        while (sent < 64) {
          sent++;
          if (!req.write(Buffer.alloc(64 * 1024, "x"))) return void req.once("drain", more);
        }
        req.end('"}');
      };
      more();
    });
    expect(status).toBe(413);
    expect(site.builds).toHaveLength(0);
  });

  it("answers a test-trigger with 200 and no build", async () => {
    await start();
    const response = await post(webhookBody({ type: "test-trigger", documents: undefined }));
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ ok: true, build: false });
    await sleep(100);
    expect(site.builds).toHaveLength(0);
  });

  it("refuses to start without a secret, and says how to set one", async () => {
    const q = createBuildQueue(async () => ({ ok: true, pagesRebuilt: 0, durationMs: 0 }), { logger });
    for (const secret of [undefined, "", "   "]) {
      const attempt = startWebhookServer({ port: 0, secret, repository: REPOSITORY, queue: q, logger });
      await expect(attempt).rejects.toMatchObject({
        code: "CONFIG_INVALID",
        hint: expect.stringMatching(/--secret.*NZF_WEBHOOK_SECRET/),
      });
    }
  });
});

describe("webhook server: builds", () => {
  it("turns 200 webhooks in two seconds into at most two builds, and the site ends with the last content", async () => {
    await start();
    site.delayMs = 300;
    // 20 waves of 10 concurrent webhooks, 90 ms apart: 200 webhooks in under two seconds.
    const started = performance.now();
    for (let wave = 0; wave < 20; wave++) {
      site.content = `v${wave * 10 + 10}`; // published in Prismic, then the webhooks arrive
      const ids = Array.from({ length: 10 }, (_, k) => `doc-${wave * 10 + k + 1}`);
      const responses = await Promise.all(ids.map((id) => post(webhookBody({ documents: [id] }))));
      for (const response of responses) {
        expect(response.status).toBe(200);
        expect(await response.json()).toEqual({ ok: true, queued: true });
      }
      const due = started + (wave + 1) * 90;
      if (performance.now() < due) await sleep(due - performance.now());
    }
    await queue.idle();

    // Two builds at most for a burst that arrives as sent. Not a timing test: a loaded machine may
    // space the webhooks out, and each pause lets the queue build once more (build-queue.ts), so
    // the bound grows by one for each gap between two arrivals of at least QUICK_SETTLE_MS (100 ms,
    // the shortest quiet that starts a build) and each MAX_WAIT_MS (5 s) the burst lasted.
    const arrivals = site.builds
      .flat()
      .map((t) => t.receivedAt)
      .sort((a, b) => a - b);
    const pauses = arrivals.slice(1).filter((at, i) => at - arrivals[i]! >= 100).length;
    const streams = Math.floor((arrivals.at(-1)! - arrivals[0]!) / 5000);
    const allowed = 2 + pauses + streams;
    expect(site.builds.length).toBeGreaterThanOrEqual(1);
    expect(site.builds.length, `${pauses} pauses of 100 ms or more, ${streams} spans of 5 s`).toBeLessThanOrEqual(
      allowed,
    );
    expect(site.builds.at(-1)!.flatMap((t) => t.documentIds ?? [])).toContain("doc-200");
    // None lost: every document id reached a build.
    expect(new Set(site.builds.flat().flatMap((t) => t.documentIds ?? [])).size).toBe(200);
    expect(await site.read()).toBe("<p>v200</p>");
  });

  it("keeps the previous site when a build fails, reports it on /health, and recovers on the next webhook", async () => {
    await start();
    site.content = "first";
    await post(webhookBody({ documents: ["doc-a"] }));
    await queue.idle();
    expect(await site.read()).toBe("<p>first</p>");

    site.content = "broken";
    site.failNext = true;
    expect((await post(webhookBody({ documents: ["doc-broken"] }))).status).toBe(200);
    await queue.idle();
    expect(await site.read()).toBe("<p>first</p>");

    // Unhealthy while the newest build failed: editors' changes are not live. Codes only, no message.
    const health = await fetch(server.url + "/health");
    expect(health.status).toBe(503);
    const failing = (await health.json()) as Record<string, unknown>;
    expect(failing).toMatchObject({
      ok: false,
      state: "idle",
      lastBuild: { id: 2, ok: false, errorCode: "RENDER_FAILED" },
      failuresSinceLastGood: 1,
    });
    expect(failing.reason).toBe("the last build failed (RENDER_FAILED); the previous site is still served");
    expect(JSON.stringify(failing)).not.toMatch(/error"|broken/);
    const status = (await (await fetch(server.url + "/status")).json()) as {
      queue: { builds: { ok: boolean; error?: string }[] };
    };
    expect(status.queue.builds.map((b) => b.ok)).toEqual([false, true]);

    site.content = "fixed";
    await post(webhookBody({ documents: ["doc-fixed"] }));
    await queue.idle();
    expect(await site.read()).toBe("<p>fixed</p>");
    expect((await fetch(server.url + "/health")).status).toBe(200);
    // The recovery build also covers the change the failed build could not publish.
    expect(site.builds.at(-1)!.flatMap((t) => t.documentIds ?? [])).toEqual(["doc-broken", "doc-fixed"]);
    const buildLines = logger.lines.filter((l) => l.level !== "debug" && l.message.startsWith("build #"));
    expect(buildLines.map((l) => l.level)).toEqual(["info", "error", "info"]);
  });

  it("accepts the secret in the x-nzf-webhook-secret header, and a manual trigger without domain", async () => {
    await start();
    const response = await post({ type: "api-update", secret: null }, { "x-nzf-webhook-secret": SECRET });
    expect(response.status).toBe(200);
    await queue.idle();
    expect(site.builds).toHaveLength(1);
    // No document list: the build has to look at everything.
    expect(site.builds[0]![0]!.documentIds).toBeUndefined();
  });
});

describe("webhook server: status and health", () => {
  it("reports the last builds and the queue", async () => {
    await start();
    site.delayMs = 600;
    const before = Date.now();
    await post(webhookBody({ documents: ["doc-x", "doc-y"] }));
    // A lone webhook's build starts after 100 ms; the next one arrives while it runs.
    await expect.poll(() => queue.status().state).toBe("building");
    await post(webhookBody({ documents: ["doc-z"] }));
    const during = (await (await fetch(server.url + "/status")).json()) as { queue: Record<string, unknown> };
    expect(during.queue).toMatchObject({
      state: "building",
      current: { id: 1, triggers: 1 },
      pending: { triggers: 1, documentIds: 1 },
    });
    await queue.idle();

    const response = await fetch(server.url + "/status");
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toMatch(/^application\/json/);
    const status = (await response.json()) as {
      ok: boolean;
      repository: string;
      queue: { state: string; builds: Record<string, unknown>[] };
    };
    expect(status).toMatchObject({ ok: true, repository: REPOSITORY, queue: { state: "idle" } });
    const [second, first] = status.queue.builds;
    expect(first).toMatchObject({
      id: 1,
      triggers: 1,
      reasons: ["webhook"],
      documentIds: ["doc-x", "doc-y"],
      pagesRebuilt: 1,
      ok: true,
    });
    expect(second).toMatchObject({ id: 2, documentIds: ["doc-z"], ok: true });
    expect(first!.startedAt as number).toBeGreaterThanOrEqual(before);
    expect(first!.durationMs as number).toBeGreaterThanOrEqual(590);

    const health = await fetch(server.url + "/health");
    expect(await health.json()).toEqual({
      ok: true,
      state: "idle",
      lastBuild: { id: 2, ok: true, finishedAt: second!.finishedAt },
      lastGoodBuildAt: second!.finishedAt,
      failuresSinceLastGood: 0,
    });
    const head = await fetch(server.url + "/health", { method: "HEAD" });
    expect(head.status).toBe(200);
    expect(await head.text()).toBe("");
    const postStatus = await fetch(server.url + "/status", { method: "POST" });
    expect(postStatus.status).toBe(405);
    expect(postStatus.headers.get("allow")).toBe("GET, HEAD");
    // Health checks are logged at debug level so they do not drown the rest.
    expect(logger.lines.find((l) => l.message.startsWith("GET /health 200"))).toMatchObject({ level: "debug" });
    expect(logger.lines.find((l) => l.message.startsWith("POST /webhook 200"))!.message).toMatch(
      /^POST \/webhook 200 \d+ ms from 127\.0\.0\.1: api-update queued \(2 documents, ref ZxYz123\)$/,
    );
  });
});

describe("startWebhookService", () => {
  it("shows no deploy command, token or internal URL on /status and /health, and passes no token to the deploy", async () => {
    const token = "prismic-access-token-0123456789";
    const env = {
      PATH: process.env.PATH,
      NZF_WEBHOOK_SECRET: SECRET,
      PRISMIC_ACCESS_TOKEN: token,
      NZF_DEPLOY_COMMAND: 'echo "token=[$PRISMIC_ACCESS_TOKEN] to s3://nzf-internal-bucket/site"; exit 3',
    };
    const config = resolveWebhookConfig({ port: 0 }, env);
    let fail = true;
    const runBuild: RunBuild = async () => {
      if (fail)
        throw new NzfError(
          "PRISMIC_UNAVAILABLE",
          `The Prismic API did not answer http://10.0.0.5:3000/api/v2?access_token=${token} after 6 attempts.`,
        );
      return { ok: true, pagesRebuilt: 1, durationMs: 1 };
    };
    // The service's own environment holds the token, as `nzf-build webhook`'s would.
    vi.stubEnv("PRISMIC_ACCESS_TOKEN", token);
    const service = await startWebhookService(config, { runBuild, logger });
    try {
      await service.queue.idle();
      const health = await fetch(service.url + "/health");
      expect(health.status).toBe(503);
      const healthText = await health.text();
      expect(JSON.parse(healthText)).toMatchObject({
        ok: false,
        lastBuild: { ok: false, errorCode: "PRISMIC_UNAVAILABLE" },
        lastGoodBuildAt: null,
        failuresSinceLastGood: 1,
      });

      fail = false;
      service.queue.enqueue({ reason: "manual", receivedAt: Date.now() });
      await service.queue.idle();
      const status = await (await fetch(service.url + "/status")).text();
      const health2 = await fetch(service.url + "/health");
      // The build is good now, but its deploy failed: still unhealthy, saying why.
      expect(health2.status).toBe(503);
      expect(await health2.json()).toMatchObject({
        ok: false,
        reason: "the last deploy failed; the host still has an older build",
      });
      for (const text of [healthText, status]) {
        expect(text).not.toContain(token);
        expect(text).not.toContain("10.0.0.5");
        expect(text).not.toContain("s3://");
        expect(text).not.toContain("echo");
      }
      const parsed = JSON.parse(status) as {
        queue: { deploy: { last: Record<string, unknown> }; builds: { error?: string }[] };
      };
      expect(parsed.queue.deploy.last).not.toHaveProperty("command");
      // The deploy ran without the token, and its output lost the URL.
      expect(parsed.queue.deploy.last.outputTail).toBe("token=[] to <url>\n");
      expect(parsed.queue.builds[1]!.error).toBe(
        "[PRISMIC_UNAVAILABLE] The Prismic API did not answer <url> after 6 attempts.",
      );
    } finally {
      await service.stop();
      vi.unstubAllEnvs();
    }
  });

  it("builds once at start-up, deploys after it, serves webhooks, and stops after the running build", async () => {
    const fake = fakeSite(root);
    fake.site.delayMs = 100;
    const config = resolveWebhookConfig({ port: 0, deployCommand: "echo synced" }, { NZF_WEBHOOK_SECRET: SECRET });
    const service = await startWebhookService(config, { runBuild: fake.runBuild, logger });
    expect(logger.lines[0]!.message).toBe(
      `listening on ${service.url} for Prismic repository nzf2020 (then \`echo synced\`)`,
    );
    await service.queue.idle();
    expect(fake.site.builds).toEqual([[{ reason: "startup", receivedAt: expect.any(Number) }]]);
    expect(service.queue.status().builds[0]!.deploy).toMatchObject({ ok: true, outputTail: "synced\n" });

    fake.site.content = "after start";
    const response = await fetch(service.url + "/webhook", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(webhookBody()),
    });
    expect(response.status).toBe(200);
    await sleep(20);
    await service.stop();
    // stop() waited for the build the webhook started.
    expect(fake.site.builds).toHaveLength(2);
    expect(await fake.site.read()).toBe("<p>after start</p>");
    await expect(fetch(service.url + "/health")).rejects.toThrow();
  });

  it("runs the deploy command in the project folder, not the folder the server was started from", async () => {
    const fake = fakeSite(root);
    const projectFolder = await mkdtemp(join(tmpdir(), "nzf-project-"));
    await writeFile(join(projectFolder, "marker.txt"), "this project\n");
    const config = resolveWebhookConfig({ port: 0, deployCommand: "cat marker.txt" }, { NZF_WEBHOOK_SECRET: SECRET });
    const service = await startWebhookService(config, { runBuild: fake.runBuild, logger, projectFolder });
    try {
      await service.queue.idle();
      expect(process.cwd()).not.toBe(projectFolder);
      expect(service.queue.status().builds[0]!.deploy).toMatchObject({ ok: true, outputTail: "this project\n" });
    } finally {
      await service.stop();
      await rm(projectFolder, { recursive: true, force: true });
    }
  });

  it("keeps control characters sent in a webhook out of the log", async () => {
    await start();
    const response = await post(webhookBody({ domain: "evil\nbuild #99 ok" }));
    expect(response.status).toBe(422);
    const line = logger.lines.find((l) => l.message.startsWith("POST /webhook 422"))!.message;
    expect(line).toMatch(/: domain evil\?build #99 ok$/);
  });
});

describe("resolveWebhookConfig", () => {
  it("takes options first, then the environment", () => {
    const env = {
      NZF_WEBHOOK_SECRET: "from-env",
      NZF_WEBHOOK_PORT: "9100",
      PRISMIC_REPOSITORY: "nzf-staging",
      NZF_DEPLOY_COMMAND: "aws s3 sync dist s3://b",
    };
    expect(resolveWebhookConfig({}, env)).toEqual({
      port: 9100,
      host: "127.0.0.1",
      secret: "from-env",
      repository: "nzf-staging",
      deployCommand: "aws s3 sync dist s3://b",
      deployTimeoutMs: 600_000,
      deployPassEnv: [],
    });
    expect(
      resolveWebhookConfig({ secret: "s" }, { NZF_DEPLOY_ENV: "AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY" })
        .deployPassEnv,
    ).toEqual(["AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY"]);
    expect(resolveWebhookConfig({ secret: "flag", port: "0", deployTimeout: "30" }, env)).toMatchObject({
      secret: "flag",
      port: 0,
      deployTimeoutMs: 30_000,
    });
    expect(resolveWebhookConfig({ secret: "s" }, {})).toMatchObject({ port: 8080, repository: "nzf2020" });
    expect(resolveWebhookConfig({ secret: "s" }, {}).deployCommand).toBeUndefined();
  });

  it("rejects a missing secret and a bad port with errors that name the setting", () => {
    expect(() => resolveWebhookConfig({}, {})).toThrow(
      expect.objectContaining({ code: "CONFIG_INVALID", subject: "NZF_WEBHOOK_SECRET" }),
    );
    expect(() => resolveWebhookConfig({ secret: "s", port: "http" }, {})).toThrow(/"http" is not a port number/);
    expect(() => resolveWebhookConfig({ secret: "s", port: "70000" }, {})).toThrow(/not a port number/);
    expect(() => resolveWebhookConfig({ secret: "s", deployTimeout: "soon" }, {})).toThrow(
      /not a positive number of seconds/,
    );
  });
});
