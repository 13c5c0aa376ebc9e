/**
 * `nzf-build webhook`: a small node:http server that receives Prismic webhooks and rebuilds the
 * site through the build queue. It answers Prismic at once (Prismic waits for the answer and
 * retries anything but 200), and the build runs behind it. Checks run cheapest first and nothing
 * is built for a request that fails one: method, content type, size, JSON, secret, repository.
 */

import { createHash, timingSafeEqual } from "node:crypto";
import { createServer, type IncomingMessage } from "node:http";
import type { AddressInfo } from "node:net";
import { NzfError } from "../core/errors.js";
import { readOptions } from "../core/options.js";
import { webhookConfigFrom } from "../core/settings.js";
import { formatMs, type Logger } from "../core/logger.js";
import { createBuildQueue, type BuildQueue, type RunBuild } from "./build-queue.js";
import { createDeployer } from "./deploy.js";

export const MAX_BODY_BYTES = 1024 * 1024;
export const SECRET_HEADER = "x-nzf-webhook-secret";

export interface WebhookServerOptions {
  port: number;
  host?: string;
  secret: string | undefined;
  /** The Prismic repository this server builds; a webhook whose `domain` names another one gets 422. */
  repository: string;
  queue: BuildQueue;
  logger: Logger;
  maxBodyBytes?: number;
  clock?: () => number;
}

export interface WebhookServer {
  url: string;
  port: number;
  stop(): Promise<void>;
}

type Reply = { status: number; body: unknown; headers?: Record<string, string>; note: string };

export async function startWebhookServer(options: WebhookServerOptions): Promise<WebhookServer> {
  const { queue, logger, repository } = options;
  const secret = options.secret?.trim();
  if (!secret) {
    throw missingSecret();
  }
  const clock = options.clock ?? Date.now;
  const maxBodyBytes = options.maxBodyBytes ?? MAX_BODY_BYTES;
  // Hash both sides so timingSafeEqual always compares equal lengths and the secret's length never leaks.
  const expectedDigest = digest(secret);
  const startedAt = clock();

  async function route(req: IncomingMessage, path: string): Promise<Reply> {
    const method = req.method ?? "GET";
    if (path === "/health" || path === "/status") {
      if (method !== "GET" && method !== "HEAD") return methodNotAllowed("GET, HEAD");
      const status = queue.status();
      if (path === "/status") return { status: 200, body: { ok: true, repository, startedAt, uptimeMs: clock() - startedAt, queue: status }, note: "" };
      const last = status.builds[0];
      const lastBuild = last ? { id: last.id, ok: last.ok, finishedAt: last.finishedAt, ...(last.error ? { error: last.error } : {}) } : null;
      // Healthy even after a failed build: the previous site is still being served.
      return { status: 200, body: { ok: true, state: status.state, lastBuild }, note: "" };
    }
    if (path !== "/webhook" && path !== "/") return fail(404, `Nothing here. The webhook is POST /webhook; see also GET /status and GET /health.`, "not found");
    if (method !== "POST") return methodNotAllowed("POST");
    return webhook(req);
  }

  async function webhook(req: IncomingMessage): Promise<Reply> {
    const mediaType = (req.headers["content-type"] ?? "").split(";")[0]!.trim().toLowerCase();
    if (mediaType !== "application/json") return fail(415, "Send the webhook as JSON with content-type: application/json.", `content-type ${mediaType || "missing"}`);
    const raw = await readBody(req, maxBodyBytes);
    if (raw === "too large") return { ...fail(413, `The body is larger than ${maxBodyBytes} bytes; a Prismic webhook is a few kilobytes.`, "body too large"), headers: { connection: "close" } };
    if (raw.length === 0) return fail(400, "The body is empty; expected a Prismic webhook JSON object.", "empty body");
    let payload: unknown;
    try {
      payload = JSON.parse(raw.toString("utf8"));
    } catch {
      return fail(400, "The body is not valid JSON.", "malformed JSON");
    }
    if (typeof payload !== "object" || payload === null || Array.isArray(payload)) return fail(400, "The body must be a JSON object (a Prismic webhook).", "not an object");
    const body = payload as Record<string, unknown>;

    const header = req.headers[SECRET_HEADER];
    const given = typeof body.secret === "string" ? body.secret : typeof header === "string" ? header : undefined;
    if (given === undefined) return fail(401, "The webhook secret is missing. Set the secret on the webhook in Prismic (Settings > Webhooks).", "secret missing");
    if (!timingSafeEqual(digest(given), expectedDigest)) return fail(401, "The webhook secret is wrong. Use the same secret in Prismic and in NZF_WEBHOOK_SECRET.", "secret wrong");

    // Prismic's `domain` is the repository name. A manual trigger may leave it out.
    if (body.domain !== undefined && String(body.domain).toLowerCase() !== repository.toLowerCase()) {
      return fail(422, `This server builds the Prismic repository "${repository}", not "${String(body.domain)}". Point that repository's webhook elsewhere.`, `domain ${String(body.domain)}`);
    }
    if (typeof body.type !== "string") return fail(400, 'The webhook has no "type" (expected "api-update" or "test-trigger").', "no type");
    if (body.type === "test-trigger") return { status: 200, body: { ok: true, build: false }, note: "test-trigger, no build" };

    // api-update, and any type Prismic may add later: an authenticated change notice is worth a
    // build (an unchanged master ref makes it cheap), whereas ignoring it could lose a change.
    const documentIds = Array.isArray(body.documents) ? body.documents.filter((d): d is string => typeof d === "string") : undefined;
    queue.enqueue({ reason: "webhook", ...(documentIds ? { documentIds } : {}), receivedAt: clock() });
    const docs = documentIds ? `${documentIds.length} document${documentIds.length === 1 ? "" : "s"}` : "documents not listed";
    const ref = typeof body.masterRef === "string" ? `, ref ${body.masterRef}` : "";
    return { status: 200, body: { ok: true, queued: true }, note: `${body.type} queued (${docs}${ref})` };
  }

  const server = createServer((req, res) => {
    const started = performance.now();
    const path = new URL(req.url ?? "/", "http://localhost").pathname;
    let note = "";
    res.on("close", () => {
      const status = res.writableFinished ? String(res.statusCode) : "aborted";
      const from = String(req.headers["x-forwarded-for"] ?? req.socket.remoteAddress ?? "?").split(",")[0]!.trim();
      const line = `${req.method} ${path} ${status} ${formatMs(performance.now() - started)} from ${from}${note ? `: ${note}` : ""}`;
      // Load balancers ask for /health every few seconds; those lines would drown the rest.
      if (path === "/health" && res.statusCode === 200) logger.debug("webhook", line);
      else if (res.statusCode >= 500 || status === "aborted") logger.error("webhook", line);
      else if (res.statusCode >= 400) logger.warn("webhook", line);
      else logger.info("webhook", line);
    });
    route(req, path)
      .catch((error: unknown): Reply => ({ status: 500, body: { ok: false, error: "Internal error; see the server log." }, note: `internal error: ${error instanceof Error ? error.message : String(error)}` }))
      .then((reply) => {
        note = printable(reply.note);
        res.writeHead(reply.status, { "content-type": "application/json; charset=utf-8", "cache-control": "no-store", ...reply.headers });
        res.end(JSON.stringify(reply.body));
        // After a 413 the rest of the body is never read: close the connection instead.
        if (reply.status === 413) res.on("finish", () => req.socket.destroySoon());
      });
  });
  // A slow client must not hold a connection open forever.
  server.headersTimeout = 10_000;
  server.requestTimeout = 30_000;

  await new Promise<void>((resolve, reject) => {
    server.once("error", (error: NodeJS.ErrnoException) => {
      const where = `${options.host ?? "127.0.0.1"}:${options.port}`;
      const why = error.code === "EADDRINUSE" ? "another process uses that port" : error.code === "EADDRNOTAVAIL" ? "that address is not one of this machine's" : error.message;
      reject(new NzfError("CONFIG_INVALID", `The webhook server could not listen on ${where}: ${why}.`, {
        subject: where,
        hint: "Choose another --port (NZF_WEBHOOK_PORT), or an address of this machine for --host (NZF_WEBHOOK_HOST).",
        cause: error,
      }));
    });
    server.listen(options.port, options.host ?? "127.0.0.1", () => {
      server.removeAllListeners("error");
      resolve();
    });
  });
  const address = server.address() as AddressInfo;
  const host = address.family === "IPv6" ? `[${address.address}]` : address.address;
  return {
    url: `http://${host}:${address.port}`,
    port: address.port,
    stop: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeIdleConnections();
        setTimeout(() => server.closeAllConnections(), 2000).unref();
      }),
  };
}

function missingSecret(): NzfError {
  return new NzfError("CONFIG_INVALID", "The webhook server needs a secret and none was given, so it did not start.", {
    subject: "NZF_WEBHOOK_SECRET",
    hint: "Pass --secret <value> or set NZF_WEBHOOK_SECRET, and enter the same value as the secret of the webhook in Prismic (Settings > Webhooks).",
  });
}

function digest(value: string): Buffer {
  return createHash("sha256").update(value, "utf8").digest();
}

/** Notes quote parts of the request (domain, ref): no control characters, no endless lines in the log. */
function printable(text: string): string {
  const clean = text.replace(/[\u0000-\u001f\u007f]/g, "?");
  return clean.length > 120 ? `${clean.slice(0, 119)}…` : clean;
}

function fail(status: number, error: string, note: string): Reply {
  return { status, body: { ok: false, error }, note };
}

function methodNotAllowed(allow: string): Reply {
  return { status: 405, body: { ok: false, error: `Method not allowed; use ${allow}.` }, headers: { allow }, note: "method not allowed" };
}

/** Reads the body up to `limit` bytes; past it, stops reading (nothing more is buffered). */
function readBody(req: IncomingMessage, limit: number): Promise<Buffer | "too large"> {
  const declared = Number(req.headers["content-length"]);
  if (Number.isFinite(declared) && declared > limit) return Promise.resolve("too large");
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        req.off("data", onData);
        req.pause();
        resolve("too large");
        return;
      }
      chunks.push(chunk);
    };
    req.on("data", onData);
    req.once("end", () => resolve(Buffer.concat(chunks)));
    req.once("error", reject);
  });
}

/** What the CLI passes through from its flags; every field falls back to the environment. */
export interface WebhookCommandOptions {
  port?: string | number;
  host?: string;
  secret?: string;
  repository?: string;
  deployCommand?: string;
  /** Seconds. */
  deployTimeout?: string | number;
}

export interface WebhookConfig {
  port: number;
  host: string;
  secret: string;
  repository: string;
  deployCommand?: string;
  deployTimeoutMs: number;
}

export const DEFAULT_WEBHOOK_PORT = 8080;

/** Options first, then NZF_WEBHOOK_PORT (or PORT), NZF_WEBHOOK_HOST, NZF_WEBHOOK_SECRET, PRISMIC_REPOSITORY, NZF_DEPLOY_COMMAND: the declaration in src/core/options.ts. */
export function resolveWebhookConfig(options: WebhookCommandOptions, env: NodeJS.ProcessEnv = process.env): WebhookConfig {
  return webhookConfigFrom(readOptions("webhook", { ...options }, env));
}

export interface WebhookService {
  url: string;
  queue: BuildQueue;
  /** Stops accepting requests, then waits for the running and pending builds to finish. */
  stop(): Promise<void>;
}

/**
 * Everything `nzf-build webhook` runs: queue, optional deploy, server, and one build at start-up
 * so that changes published while the server was down are not missed.
 */
export async function startWebhookService(
  config: WebhookConfig,
  deps: { runBuild: RunBuild; logger: Logger; buildOnStart?: boolean; settleMs?: number },
): Promise<WebhookService> {
  const { logger } = deps;
  const onDeploy = config.deployCommand ? createDeployer({ command: config.deployCommand, timeoutMs: config.deployTimeoutMs }) : undefined;
  const queue = createBuildQueue(deps.runBuild, { logger, ...(onDeploy ? { onDeploy } : {}), ...(deps.settleMs === undefined ? {} : { settleMs: deps.settleMs }) });
  const server = await startWebhookServer({ port: config.port, host: config.host, secret: config.secret, repository: config.repository, queue, logger });
  const deploy = config.deployCommand ? `then \`${config.deployCommand}\`` : "no deploy command";
  logger.info("webhook", `listening on ${server.url} for Prismic repository ${config.repository} (${deploy})`);
  if (deps.buildOnStart ?? true) queue.enqueue({ reason: "startup", receivedAt: Date.now() });
  return {
    url: server.url,
    queue,
    stop: async () => {
      await server.stop();
      await queue.idle();
    },
  };
}
