/**
 * Fuzz of every local server (webhook, static/dev with live reload, the payments service) over raw sockets
 * on loopback: a seeded generator builds bad request lines, paths, headers and bodies, and after
 * each one the server must still answer a good request. A malformed request may be answered 4xx or
 * closed by Node's parser, but never answered 5xx, and never stop the server (the servers run in
 * this process: an uncaught exception would fail the run). Prints the counts per server.
 */
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Logger } from "../../src/core/logger.js";
import { createBuildQueue } from "../../src/server/build-queue.js";
import { startStaticServer, type StaticServer } from "../../src/server/static-server.js";
import { startWebhookServer, type WebhookServer } from "../../src/server/webhook-server.js";
import { createLiveReload } from "../../src/watch/live-reload.js";
import { startTestPaymentsService, type TestPaymentsService } from "../support/payments-service.js";
import { rawRequest, seeded, type RawStatus } from "../support/raw-http.js";

const SEED = 20_240_521;
const REQUESTS_PER_SERVER = 150;

const quiet: Logger = { debug() {}, info() {}, warn() {}, error() {} } as unknown as Logger;

const METHODS = [
  "GET",
  "POST",
  "HEAD",
  "PUT",
  "DELETE",
  "OPTIONS",
  "PATCH",
  "TRACE",
  "CONNECT",
  "FOO",
  "get",
  "G\0T",
  "",
  "P".repeat(300),
];
const PATHS = [
  "//[",
  "//%5B/../health",
  "//[::1]:80/",
  "/%",
  "/%zz",
  "/%C0%AF",
  "/%ff%fe",
  "/%00",
  "/a\0b",
  "/%2e%2e/%2e%2e/etc/passwd",
  "/../../../../etc/passwd",
  "/..%2f..%2fetc%2fpasswd",
  "/\\..\\..\\etc\\passwd",
  "*",
  "http://evil.example/health",
  "//evil.example/",
  "/health?%",
  "/health?a=%zz&b",
  "/ä/ö",
  "/\u00ff\u00fe",
  "/health#frag",
  "",
  "/%F0%9F",
  "/" + "a".repeat(5000),
  "/" + "%41".repeat(2000),
  "/webhook?" + "x=1&".repeat(900),
  "/__dev/faults",
  "/__dev/requests",
  "/__nzf/reload.js",
  "/donations/%",
  "/donations/..",
  "/health",
  "/webhook",
  "/",
];
const VERSIONS = ["HTTP/1.1", "HTTP/1.0", "HTTP/2.0", "HTTP/9.9", "HTTP/1.1 extra", "", "HTTP/1.x", "http/1.1"];
const HEADER_SETS: ((r: () => number) => string[])[] = [
  () => ["Host: 127.0.0.1"],
  () => [],
  () => ["Host: a", "Host: b"],
  () => ["Host: 127.0.0.1", "Content-Length: 5", "Content-Length: 7"],
  () => ["Host: 127.0.0.1", "Content-Length: -1"],
  () => ["Host: 127.0.0.1", "Content-Length: 99999999999999999999"],
  () => ["Host: 127.0.0.1", "Content-Length: abc"],
  () => ["Host: 127.0.0.1", "Transfer-Encoding: chunked", "Content-Length: 3"],
  () => ["Host: 127.0.0.1", "Transfer-Encoding: chunked"],
  () => ["Host: 127.0.0.1", "Transfer-Encoding: gzip, chunked, identity"],
  () => ["Host: 127.0.0.1", "X-Bad\0Name: 1"],
  () => ["Host: 127.0.0.1", "No colon here"],
  () => ["Host: 127.0.0.1", "Bad Name: 1"],
  () => ["Host: 127.0.0.1", `X-Big: ${"b".repeat(20_000)}`],
  () => ["Host: 127.0.0.1", ...Array.from({ length: 300 }, (_, i) => `X-H${i}: ${i}`)],
  () => ["Host: 127.0.0.1", "Origin: null", "Origin: http://evil.example"],
  () => ["Host: 127.0.0.1", "Content-Type: application/json", "Content-Type: text/plain"],
  () => ["Host: 127.0.0.1", "x-nzf-webhook-secret: a", "x-nzf-webhook-secret: b", "Content-Type: application/json"],
  () => ["Host: 127.0.0.1", "Expect: 100-continue", "Content-Length: 10"],
  () => ["Host: 127.0.0.1", "Connection: Upgrade", "Upgrade: websocket"],
  () => ["Host: 127.0.0.1", "Idempotency-Key: \u00ff\u00fe", "Content-Type: application/json"],
  (r) => [
    "Host: 127.0.0.1",
    `X-Random: ${Array.from({ length: 40 }, () => String.fromCharCode(Math.floor(r() * 256))).join("")}`,
  ],
];
const BODIES = [
  "",
  "{}",
  '{"type":"api-update"}',
  "not json",
  "\0\0\0",
  "5\r\nhello\r\n0\r\n\r\n",
  "zz\r\nbad chunk\r\n",
  "x".repeat(3000),
];

/**
 * A request with one to three parts broken: its method, path, version, line ending, headers or
 * body (or a request line that is garbage altogether). The rest stays valid, so most requests get
 * past Node's parser and reach the server's own code.
 */
function badRequest(r: () => number): string {
  const pick = <T>(list: readonly T[]) => list[Math.floor(r() * list.length)]!;
  const broken = new Set(
    Array.from({ length: 1 + Math.floor(r() * 3) }, () =>
      pick(["method", "path", "path", "path", "version", "eol", "headers", "headers", "body", "line"]),
    ),
  );
  const method = broken.has("method") ? pick(METHODS) : pick(["GET", "POST", "HEAD", "OPTIONS"]);
  const path = broken.has("path") ? pick(PATHS) : pick(["/", "/health", "/webhook", "/donations", "/index.html"]);
  const version = broken.has("version") ? pick(VERSIONS) : pick(["HTTP/1.1", "HTTP/1.0"]);
  const eol = broken.has("eol") ? "\n" : "\r\n";
  const line = broken.has("line")
    ? pick(["\r\n", "GET\r\n", "GET /\r\n", " / HTTP/1.1\r\n", "\x16\x03\x01\x02\x00\x01"])
    : `${method} ${path} ${version}${eol}`;
  const headers = broken.has("headers")
    ? pick(HEADER_SETS)(r)
    : ["Host: 127.0.0.1", ...(r() < 0.5 ? ["Content-Type: application/json"] : [])];
  const body = broken.has("body") || r() < 0.3 ? pick(BODIES) : "";
  const withLength =
    body && !headers.some((h) => /^(content-length|transfer-encoding)/i.test(h)) && r() < 0.8
      ? [`Content-Length: ${body.length}`]
      : [];
  return line + [...headers, ...withLength].map((h) => h + eol).join("") + eol + body;
}

interface Target {
  name: string;
  port: () => number;
  /** A good request and the status it must get. */
  good: string;
  goodStatus: number;
}

let dir: string;
let webhook: WebhookServer;
let site: StaticServer;
let payments: TestPaymentsService;
const live = createLiveReload();

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "nzf-fuzz-"));
  await writeFile(join(dir, "index.html"), "<!doctype html><title>t</title><body><p>home</p></body>");
  await writeFile(join(dir, "404.html"), "<!doctype html><title>Not found</title>");
  const queue = createBuildQueue(async () => ({ ok: true, pagesRebuilt: 0, durationMs: 0 }), {
    logger: quiet,
  });
  webhook = await startWebhookServer({ port: 0, secret: "fuzz-secret", repository: "nzf-test", queue, logger: quiet });
  site = await startStaticServer({ root: dir, intercept: live.handle, transformHtml: live.inject, logger: quiet });
  payments = await startTestPaymentsService();
}, 60_000);
afterAll(async () => {
  live.close();
  await Promise.all([webhook?.stop(), site?.stop(), payments?.stop()]);
  await rm(dir, { recursive: true, force: true });
});

const portOf = (url: string) => Number(new URL(url).port);
const targets: Target[] = [
  {
    name: "webhook",
    port: () => webhook.port,
    good: "GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n",
    goodStatus: 200,
  },
  {
    name: "static+live-reload",
    port: () => portOf(site.url),
    good: "GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n",
    goodStatus: 200,
  },
  {
    name: "payments-service",
    port: () => payments.direct.port,
    good: "GET /donations/none HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n",
    goodStatus: 404,
  },
];

describe("every server survives a fuzz of malformed requests", () => {
  for (const target of targets) {
    it(`${target.name}: answers ${REQUESTS_PER_SERVER} bad requests with 4xx (or a parser close) and still answers a good one after each`, async () => {
      const random = seeded(SEED);
      const seen = new Map<RawStatus, number>();
      const serverErrors: string[] = [];
      const started = performance.now();
      for (let i = 0; i < REQUESTS_PER_SERVER; i++) {
        const request = badRequest(random);
        const status = await rawRequest(target.port(), request);
        seen.set(status, (seen.get(status) ?? 0) + 1);
        if (typeof status === "number" && status >= 500)
          serverErrors.push(`${status} for ${JSON.stringify(request.slice(0, 120))}`);
        // A good request is never half-closed early: under load the answer may take longer than a bad one.
        const good = await rawRequest(target.port(), target.good, 10_000, 10_000);
        if (good !== target.goodStatus)
          throw new Error(`after request ${i} (${JSON.stringify(request.slice(0, 160))}) the good request got ${good}`);
      }
      const counts = [...seen].sort((a, b) => String(a[0]).localeCompare(String(b[0]))).map(([s, n]) => `${s}: ${n}`);
      console.log(
        `fuzz ${target.name}: ${REQUESTS_PER_SERVER} bad requests + ${REQUESTS_PER_SERVER} good ones in ${Math.round(performance.now() - started)} ms (seed ${SEED}); statuses ${counts.join(", ")}`,
      );
      expect(serverErrors).toEqual([]);
      expect(seen.get("timeout") ?? 0).toBe(0);
      // The fuzz reached the handlers, not only Node's parser.
      expect([...seen.keys()].some((s) => typeof s === "number" && s >= 400 && s < 500)).toBe(true);
    }, 60_000);
  }

  it("the cases from the issue: `//[`, `//%5B/../health`, bad percent-encoding and NUL get 400, not an exit", async () => {
    const cases = [
      "GET //[ HTTP/1.1",
      "GET //%5B/../health HTTP/1.1",
      "GET /%zz HTTP/1.1",
      "GET /%00 HTTP/1.1",
      "GET http://evil.example/ HTTP/1.1",
    ];
    const results: Record<string, RawStatus[]> = {};
    for (const line of cases) {
      results[line] = [];
      for (const target of targets)
        results[line]!.push(await rawRequest(target.port(), `${line}\r\nHost: 127.0.0.1\r\n\r\n`));
    }
    console.log(`issue cases (webhook, static, payments): ${JSON.stringify(results)}`);
    // Both are plain paths once the host is fixed (`//%5B/../health` resolves to //health): the
    // webhook and payments servers have no such route (404); the static server's trailing-slash
    // policy redirects them to a same-origin path (/[/, /health/). The payments service (Hono on
    // Node, as behind API Gateway) reads an absolute-form target as its path, `/`: no route, 404,
    // and never a request to the other host.
    expect(results).toEqual({
      "GET //[ HTTP/1.1": [404, 301, 404],
      "GET //%5B/../health HTTP/1.1": [404, 301, 404],
      "GET /%zz HTTP/1.1": [400, 400, 400],
      "GET /%00 HTTP/1.1": [400, 400, 400],
      "GET http://evil.example/ HTTP/1.1": [400, 400, 404],
    });
    // A NUL that would reach the database (PostgreSQL refuses it in text) is refused first.
    for (const target of ["/donations/%00", "/donations/a%00b/paypal/order", "/donations/%01"])
      expect(await rawRequest(payments.direct.port, `GET ${target} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n`), target).toBe(
        400,
      );
    for (const target of targets)
      expect(await rawRequest(target.port(), target.good, 10_000, 10_000)).toBe(target.goodStatus);
  });
});
