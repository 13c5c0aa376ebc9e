/**
 * Limits that keep the servers up under slow or hostile clients, measured over loopback sockets:
 * bounded request-body memory across many slow uploads, slow headers cut off, 413 (not a reset)
 * for a big body, CORS and no control routes on the payments service, and no symlink followed
 * out of a served folder. Figures are printed.
 */
import { mkdir, mkdtemp, rm, symlink, writeFile } from "node:fs/promises";
import { connect, type Socket } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import type { Logger } from "../../src/core/logger.js";
import { createBuildQueue } from "../../src/server/build-queue.js";
import { startApiServer } from "../../src/api/node-server.js";
import { corsPolicy } from "../../src/api/cors.js";
import type { ApiDb } from "../../src/api/db/open.js";
import { startStaticServer } from "../../src/server/static-server.js";
import { restoreServerLimits, shorten } from "../support/shortened-server-limits.js";
import { MAX_BODIES_IN_FLIGHT, startWebhookServer } from "../../src/server/webhook-server.js";
import { openTestApiDb } from "../support/api-db.js";
import { testDataDir } from "../support/api-db-open.js";
import { rawRequest } from "../support/raw-http.js";
import { hangLimit } from "../support/time-limits.js";

// The slow-client limits, shortened for one test at a time (test/support/shortened-server-limits.ts).
vi.mock("../../src/server/server-limits.js", () => import("../support/shortened-server-limits.js"));
afterEach(restoreServerLimits);

const quiet: Logger = { debug() {}, info() {}, warn() {}, error() {} } as unknown as Logger;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

interface SlowClient {
  socket: Socket;
  status: number | null;
  connectedAt: number | null;
  closedAt: number | null;
}

/** Opens a connection that sends `head`, then `bodyBytes` of body, then nothing more. */
function slowClient(port: number, head: string, bodyBytes: number, started: number): SlowClient {
  const client: SlowClient = {
    socket: connect({ host: "127.0.0.1", port }),
    status: null,
    connectedAt: null,
    closedAt: null,
  };
  let text = "";
  client.socket.on("connect", () => {
    client.connectedAt = performance.now() - started;
    client.socket.write(head);
    if (bodyBytes > 0) client.socket.write(Buffer.alloc(bodyBytes, 0x20));
  });
  client.socket.on("data", (chunk: Buffer) => {
    text += chunk.toString("latin1");
    const match = /^HTTP\/1\.1 (\d{3})/.exec(text);
    if (match && client.status === null) client.status = Number(match[1]);
  });
  client.socket.on("error", () => undefined);
  client.socket.on("close", () => (client.closedAt = performance.now() - started));
  return client;
}

async function until(check: () => boolean, timeoutMs: number): Promise<boolean> {
  const end = performance.now() + timeoutMs;
  while (performance.now() < end) {
    if (check()) return true;
    await sleep(50);
  }
  return check();
}

describe("webhook server under slow clients", () => {
  it(
    "holds at most the in-flight cap of request bodies for 300 slow uploads, answers 503 past it, and cuts them all off",
    async () => {
      const queue = createBuildQueue(async () => ({ ok: true, pagesRebuilt: 0, durationMs: 0 }), {
        logger: quiet,
      });
      const requestTimeoutMs = 5000;
      shorten({ headersTimeoutMs: 1000, requestTimeoutMs, checkIntervalMs: 250 });
      const server = await startWebhookServer({ port: 0, secret: "s", repository: "nzf-test", queue, logger: quiet });
      try {
        const connections = 300;
        const sentPerConnection = 256 * 1024;
        const head =
          "POST /webhook HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 1048576\r\n\r\n";
        const rssBefore = process.memoryUsage().rss;
        const started = performance.now();
        const clients = Array.from({ length: connections }, () =>
          slowClient(server.port, head, sentPerConnection, started),
        );
        // A held upload the server has already cut off (its request timeout ran out: on a loaded machine
        // the last of 300 can connect more than 5 s after the first) frees its place for one more.
        const cutOff = () => clients.filter((c) => c.status === null && c.closedAt !== null).length;
        // Every byte sent has reached the server (read and held, read and dropped after a 503, or held
        // and then cut off).
        await until(
          () =>
            clients.filter((c) => c.status === 503).length +
              Math.floor(server.bodies().inFlight / sentPerConnection) +
              cutOff() >=
            connections,
          hangLimit(20_000),
        );
        const heldAtPeak = server.bodies().peak;
        const rssPeak = process.memoryUsage().rss;
        const refused = clients.filter((c) => c.status === 503).length;
        const cutOffBeforeAllSent = cutOff();
        // The server cuts every slow upload off after the request timeout (plus one check interval);
        // Node's own default (300 s) would keep them open past this wait, a limit scaled for load.
        const allClosed = await until(
          () => clients.every((c) => c.closedAt !== null),
          requestTimeoutMs + hangLimit(6000),
        );
        const lastClosedMs = Math.max(...clients.map((c) => c.closedAt ?? Infinity));
        // How long the server let a connection live: the request timeout counts from the request's start.
        const longestMs = Math.max(...clients.map((c) => (c.closedAt ?? Infinity) - (c.connectedAt ?? 0)));
        console.log(
          `slow uploads: ${connections} connections x ${sentPerConnection / 1024} KB sent of 1 MB announced = ${Math.round((connections * sentPerConnection) / 2 ** 20)} MB; ` +
            `bodies held at peak ${(heldAtPeak / 2 ** 20).toFixed(2)} MB (cap ${MAX_BODIES_IN_FLIGHT / 2 ** 20} MB); 503 answers ${refused}; ` +
            `held uploads cut off before the last was sent ${cutOffBeforeAllSent}; ` +
            `rss +${Math.round((rssPeak - rssBefore) / 2 ** 20)} MB (client and server in one process); all closed by the server ${Math.round(lastClosedMs)} ms after the first connect, none open longer than ${Math.round(longestMs)} ms (request timeout ${requestTimeoutMs} ms)`,
        );
        expect(heldAtPeak).toBeLessThanOrEqual(MAX_BODIES_IN_FLIGHT);
        // Only as many as the cap holds get in, and one more for each place a cut-off upload freed.
        expect(refused).toBeGreaterThanOrEqual(
          connections - Math.ceil(MAX_BODIES_IN_FLIGHT / sentPerConnection) - cutOffBeforeAllSent,
        );
        expect(allClosed).toBe(true);
        // Cut off by the request timeout, not earlier by something else: a held upload (no answer)
        // lived at least that long. Load only delays a close, so this holds on a loaded machine.
        const held = clients.filter((c) => c.status === null);
        expect(held.length).toBeGreaterThan(0);
        const shortestHeldMs = Math.min(...held.map((c) => c.closedAt! - c.connectedAt!));
        expect(shortestHeldMs).toBeGreaterThanOrEqual(requestTimeoutMs);
        expect(server.bodies().inFlight).toBe(0);
        // And it still works.
        expect(
          await rawRequest(server.port, "GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n"),
        ).toBe(200);
      } finally {
        await server.stop();
      }
    },
    hangLimit(30_000),
  );

  it(
    "cuts off connections that send their headers slowly",
    async () => {
      const queue = createBuildQueue(async () => ({ ok: true, pagesRebuilt: 0, durationMs: 0 }), {
        logger: quiet,
      });
      const headersTimeoutMs = 800;
      shorten({ headersTimeoutMs, requestTimeoutMs: 2000, checkIntervalMs: 200 });
      const server = await startWebhookServer({ port: 0, secret: "s", repository: "nzf-test", queue, logger: quiet });
      try {
        const started = performance.now();
        const clients = Array.from({ length: 50 }, () =>
          slowClient(server.port, "GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ", 0, started),
        );
        // Cut off by the shortened limits (closed by 2.5 s at rest): Node's defaults (60 s for the
        // headers) would keep them open past this wait, a limit scaled for load.
        expect(await until(() => clients.every((c) => c.closedAt !== null), hangLimit(2500))).toBe(true);
        const last = Math.max(...clients.map((c) => c.closedAt!));
        // And not before the headers timeout: load only delays a close.
        expect(Math.min(...clients.map((c) => c.closedAt! - c.connectedAt!))).toBeGreaterThanOrEqual(headersTimeoutMs);
        const statuses = new Set(clients.map((c) => c.status));
        console.log(
          `slow headers: 50 connections closed after at most ${Math.round(last)} ms (headers timeout 800 ms); answers ${[...statuses].join(", ")}`,
        );
        expect([...statuses].every((s) => s === null || s === 408)).toBe(true);
      } finally {
        await server.stop();
      }
    },
    hangLimit(15_000),
  );
});

describe("payments service limits", () => {
  let database: ApiDb;
  let dataDir: string;
  beforeAll(async () => {
    database = await openTestApiDb();
    dataDir = await testDataDir(database);
  }, 60_000);
  afterAll(() => database?.close());
  /** The service as `nzf-build api` starts it, on this file's database; no Stripe key is needed here. */
  const start = (allowedOrigins?: string[]) =>
    startApiServer({
      port: 0,
      dataDir,
      env: allowedOrigins ? { NZF_API_ALLOWED_ORIGINS: allowedOrigins.join(",") } : {},
      logger: quiet,
    });

  it("answers a 10 MB body with 413, not a reset, with or without a content-length", async () => {
    const server = await start();
    try {
      const headers = { "content-type": "application/json", "idempotency-key": "5f0c4a52-8a0e-4b8e-9d55-2b0e9f6f4c11" };
      const big = "x".repeat(10 * 1024 * 1024);
      const declared = await fetch(server.url + "/donations", { method: "POST", headers, body: big });
      expect(declared.status).toBe(413);
      expect(await declared.json()).toMatchObject({ error: { code: "body_too_large" } });
      // Chunked: the size is only known while reading.
      const stream = new ReadableStream({
        start(controller) {
          for (let i = 0; i < 10; i++) controller.enqueue(new TextEncoder().encode(big.slice(0, 1024 * 1024)));
          controller.close();
        },
      });
      const chunked = await fetch(server.url + "/donations", {
        method: "POST",
        headers,
        body: stream,
        duplex: "half",
      } as RequestInit);
      expect(chunked.status).toBe(413);
      console.log(`payments service: 10 MB body -> ${declared.status} (content-length), ${chunked.status} (chunked)`);
      expect((await fetch(server.url + "/donations/none")).status).toBe(404);
    } finally {
      await server.stop();
    }
  });

  it("answers CORS for the site's origin or loopback only, and refuses *", async () => {
    const preflight = (url: string, origin: string) =>
      fetch(url + "/donations", {
        method: "OPTIONS",
        headers: {
          origin,
          "access-control-request-method": "POST",
          "access-control-request-headers": "content-type, idempotency-key",
        },
      });
    const loopback = await start();
    const told = await start(["http://127.0.0.1:4321"]);
    try {
      const local = await preflight(loopback.url, "http://localhost:4321");
      expect(local.status).toBe(204);
      expect(local.headers.get("access-control-allow-origin")).toBe("http://localhost:4321");
      const evil = await preflight(loopback.url, "https://evil.example");
      expect(evil.status).toBe(403);
      expect(evil.headers.get("access-control-allow-origin")).toBeNull();
      expect((await preflight(told.url, "http://127.0.0.1:4321")).status).toBe(204);
      expect((await preflight(told.url, "http://127.0.0.1:9999")).status).toBe(403);
      // Watch mode learns the site's port after start: from then on only that origin is answered.
      loopback.deps.cors.set(["http://127.0.0.1:4400"]);
      expect((await preflight(loopback.url, "http://127.0.0.1:4400")).status).toBe(204);
      expect((await preflight(loopback.url, "http://localhost:4321")).status).toBe(403);
      // A simple GET from another origin is answered without the header, so its page cannot read it.
      const read = await fetch(loopback.url + "/donations/none", { headers: { origin: "https://evil.example" } });
      expect(read.headers.get("access-control-allow-origin")).toBeNull();
    } finally {
      await loopback.stop();
      await told.stop();
    }
    // "*" is refused, from the settings as from code.
    await expect(
      startApiServer({ port: 0, dataDir, env: { NZF_API_ALLOWED_ORIGINS: "*" }, logger: quiet }),
    ).rejects.toMatchObject({ code: "API_CONFIG_INVALID" });
    expect(() => corsPolicy(["*"])).toThrow(expect.objectContaining({ code: "API_CONFIG_INVALID" }));
  });

  it("has no control routes: a test's faults and request log are in a proxy of test/support, never the service's", async () => {
    // The old dev server had /__dev/ routes for tests; the service has none, so nothing can be
    // told over HTTP to fail, mark a gift paid or list requests.
    const server = await start();
    try {
      const fault = JSON.stringify({ status: 500, times: 5 });
      for (const path of ["/__dev/faults", "/__dev/outcome", "/__dev/paypal"]) {
        const refused = await fetch(server.url + path, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: fault,
        });
        expect(refused.status, path).toBe(404);
      }
      expect((await fetch(server.url + "/__dev/requests")).status).toBe(404);
      // Nothing was installed: the API still answers normally.
      expect((await fetch(server.url + "/donations/none")).status).toBe(404);
    } finally {
      await server.stop();
    }
  });
});

describe("static server and symlinks", () => {
  let base: string;
  beforeAll(async () => {
    base = await mkdtemp(join(tmpdir(), "nzf-symlinks-"));
  });
  afterAll(() => rm(base, { recursive: true, force: true }));

  it("never follows a symlink out of the served folder, and serves a root that is itself a symlink", async () => {
    const outside = join(base, "outside");
    const site = join(base, "site-v1");
    await mkdir(join(outside, "dir"), { recursive: true });
    await writeFile(join(outside, "secret.txt"), "outside secret");
    await writeFile(join(outside, "dir", "index.html"), "<p>outside page</p>");
    await mkdir(join(site, "about"), { recursive: true });
    await writeFile(join(site, "index.html"), "<p>home</p>");
    await writeFile(join(site, "about", "index.html"), "<p>about</p>");
    await writeFile(join(site, "404.html"), "<p>not found</p>");
    await symlink(join(outside, "secret.txt"), join(site, "leak.txt"));
    await symlink(join(outside, "dir"), join(site, "leakdir"));
    await symlink(join(site, "about", "index.html"), join(site, "alias.html"));
    // The root is a symlink to a versioned folder, as a publish by symlink swap leaves it.
    const root = join(base, "dist");
    await symlink(site, root);

    const server = await startStaticServer({ root, logger: quiet });
    try {
      const get = async (path: string) => {
        const response = await fetch(server.url + path, { redirect: "manual" });
        return `${response.status} ${(await response.text()).trim()}`;
      };
      const results = {
        home: await get("/"),
        about: await get("/about/"),
        alias: await get("/alias.html"),
        leakFile: await get("/leak.txt"),
        leakDir: await get("/leakdir/"),
        traversal: await get("/..%2foutside%2fsecret.txt"),
      };
      console.log(`symlinks: ${JSON.stringify(results)}`);
      expect(results).toEqual({
        home: "200 <p>home</p>",
        about: "200 <p>about</p>",
        alias: "200 <p>about</p>",
        leakFile: "404 <p>not found</p>",
        leakDir: "404 <p>not found</p>",
        traversal: "404 <p>not found</p>",
      });
    } finally {
      await server.stop();
    }
  });
});
