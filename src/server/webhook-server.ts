/**
 * `nzf-build webhook`: a small node:http server that receives Prismic webhooks and rebuilds the
 * site through the build queue. It answers Prismic at once (Prismic waits for the answer and
 * retries anything but 200), and the build runs behind it. Checks run cheapest first and nothing
 * is built for a request that fails one: method, content type, size, JSON, secret, repository.
 */

import { createHash, timingSafeEqual } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { NzfError } from "../core/errors.js";
import { formatMs, type Logger } from "../core/logger.js";
import { createBuildQueue, type BuildQueue, type RunBuild } from "./build-queue.js";
import { createDeployer, createInProcessDeployer, DEFAULT_DEPLOY_TIMEOUT_MS, isSecretEnvName } from "./deploy.js";
import {
  BadRequest,
  createBodyBudget,
  guard,
  hardenServer,
  parseTarget,
  printable,
  serverOptions,
} from "./http-guard.js";
import { healthOf, publicStatus } from "./webhook-views.js";

export const MAX_BODY_BYTES = 1024 * 1024;
/** Request bodies held at once over all connections; a Prismic webhook is a few kilobytes. */
export const MAX_BODIES_IN_FLIGHT = 4 * 1024 * 1024;
export const SECRET_HEADER = "x-nzf-webhook-secret";

export interface WebhookServerOptions {
  port: number;
  host?: string;
  secret: string | undefined;
  /** The Prismic repository this server builds; a webhook whose `domain` names another one gets 422. */
  repository: string;
  queue: BuildQueue;
  logger: Logger;
  /** A deploy running longer than this makes /health fail (stuck); default 10 minutes and 15 s. */
  deployStuckAfterMs?: number;
  /** Strings never shown by /status (the secret is always added). */
  redact?: string[];
}

export interface WebhookServer {
  url: string;
  port: number;
  /** Request-body bytes held now and at most so far, over all connections. */
  bodies(): { inFlight: number; peak: number };
  stop(): Promise<void>;
}

type Reply = { status: number; body: unknown; headers?: Record<string, string>; note: string };

export async function startWebhookServer(options: WebhookServerOptions): Promise<WebhookServer> {
  const { queue, logger, repository } = options;
  const secret = options.secret?.trim();
  if (!secret) {
    throw missingSecret();
  }
  // Hash both sides so timingSafeEqual always compares equal lengths and the secret's length never leaks.
  const expectedDigest = digest(secret);
  const startedAt = Date.now();
  const budget = createBodyBudget(MAX_BODIES_IN_FLIGHT);
  const redact = [secret, ...(options.redact ?? [])];

  async function route(req: IncomingMessage, path: string): Promise<Reply> {
    const method = req.method ?? "GET";
    if (path === "/health" || path === "/status") {
      if (method !== "GET" && method !== "HEAD") return methodNotAllowed("GET, HEAD");
      const status = queue.status();
      if (path === "/status")
        return {
          status: 200,
          body: { ok: true, repository, startedAt, uptimeMs: Date.now() - startedAt, ...publicStatus(status, redact) },
          note: "",
        };
      const health = healthOf(status, {
        now: Date.now(),
        deployStuckAfterMs: options.deployStuckAfterMs ?? DEFAULT_DEPLOY_TIMEOUT_MS + 15_000,
      });
      return { status: health.ok ? 200 : 503, body: health, note: health.ok ? "" : `unhealthy: ${health.reason}` };
    }
    if (path !== "/webhook" && path !== "/")
      return fail(
        404,
        `Nothing here. The webhook is POST /webhook; see also GET /status and GET /health.`,
        "not found",
      );
    if (method !== "POST") return methodNotAllowed("POST");
    return webhook(req);
  }

  async function webhook(req: IncomingMessage): Promise<Reply> {
    const mediaType = (req.headers["content-type"] ?? "").split(";")[0]!.trim().toLowerCase();
    if (mediaType !== "application/json")
      return fail(
        415,
        "Send the webhook as JSON with content-type: application/json.",
        `content-type ${mediaType || "missing"}`,
      );
    const read = await budget.read(req, MAX_BODY_BYTES);
    if (!read.ok && read.status === 413)
      return fail(
        413,
        `The body is larger than ${MAX_BODY_BYTES} bytes; a Prismic webhook is a few kilobytes.`,
        "body too large",
      );
    if (!read.ok && read.status === 503)
      return {
        ...fail(503, "The server is busy receiving other requests; try again in a few seconds.", read.reason),
        headers: { "retry-after": "5" },
      };
    if (!read.ok) return fail(400, "The body did not arrive in full.", read.reason);
    const raw = read.body;
    if (raw.length === 0) return fail(400, "The body is empty; expected a Prismic webhook JSON object.", "empty body");
    let payload: unknown;
    try {
      payload = JSON.parse(raw.toString("utf8"));
    } catch {
      return fail(400, "The body is not valid JSON.", "malformed JSON");
    }
    if (typeof payload !== "object" || payload === null || Array.isArray(payload))
      return fail(400, "The body must be a JSON object (a Prismic webhook).", "not an object");
    const body = payload as Record<string, unknown>;

    const header = req.headers[SECRET_HEADER];
    const given = typeof body.secret === "string" ? body.secret : typeof header === "string" ? header : undefined;
    if (given === undefined)
      return fail(
        401,
        "The webhook secret is missing. Set the secret on the webhook in Prismic (Settings > Webhooks).",
        "secret missing",
      );
    if (!timingSafeEqual(digest(given), expectedDigest))
      return fail(
        401,
        "The webhook secret is wrong. Use the same secret in Prismic and in NZF_WEBHOOK_SECRET.",
        "secret wrong",
      );

    // Prismic's `domain` is the repository name. A manual trigger may leave it out.
    if (body.domain !== undefined && String(body.domain).toLowerCase() !== repository.toLowerCase()) {
      return fail(
        422,
        `This server builds the Prismic repository "${repository}", not "${String(body.domain)}". Point that repository's webhook elsewhere.`,
        `domain ${String(body.domain)}`,
      );
    }
    if (typeof body.type !== "string")
      return fail(400, 'The webhook has no "type" (expected "api-update" or "test-trigger").', "no type");
    if (body.type === "test-trigger")
      return { status: 200, body: { ok: true, build: false }, note: "test-trigger, no build" };

    // api-update, and any type Prismic may add later: an authenticated change notice is worth a
    // build (an unchanged master ref makes it cheap), whereas ignoring it could lose a change.
    const documentIds = Array.isArray(body.documents)
      ? body.documents.filter((d): d is string => typeof d === "string")
      : undefined;
    queue.enqueue({ reason: "webhook", ...(documentIds ? { documentIds } : {}), receivedAt: Date.now() });
    const docs = documentIds
      ? `${documentIds.length} document${documentIds.length === 1 ? "" : "s"}`
      : "documents not listed";
    const ref = typeof body.masterRef === "string" ? `, ref ${body.masterRef}` : "";
    return { status: 200, body: { ok: true, queued: true }, note: `${body.type} queued (${docs}${ref})` };
  }

  const send = (res: ServerResponse, reply: Reply) => {
    res.writeHead(reply.status, {
      "content-type": "application/json; charset=utf-8",
      "cache-control": "no-store",
      ...reply.headers,
    });
    res.end(reply.body === undefined ? "" : JSON.stringify(reply.body));
  };

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const started = performance.now();
    let path = "?";
    let note = "";
    res.on("close", () => {
      const status = res.writableFinished ? String(res.statusCode) : "aborted";
      const from = printable(
        String(req.headers["x-forwarded-for"] ?? req.socket.remoteAddress ?? "?")
          .split(",")[0]!
          .trim(),
        60,
      );
      const line = `${printable(req.method ?? "?", 16)} ${printable(path, 100)} ${status} ${formatMs(performance.now() - started)} from ${from}${note ? `: ${note}` : ""}`;
      // Monitors ask for /health every few seconds; those lines would drown the rest (an unhealthy
      // answer too: the failed build it reports was logged as an error when it failed).
      if (path === "/health" && (res.statusCode === 200 || res.statusCode === 503)) logger.debug("webhook", line);
      else if (res.statusCode >= 500 || status === "aborted") logger.error("webhook", line);
      else if (res.statusCode >= 400) logger.warn("webhook", line);
      else logger.info("webhook", line);
    });
    let reply: Reply;
    try {
      path = parseTarget(req.url).path;
      reply = await route(req, path);
    } catch (error) {
      if (!(error instanceof BadRequest)) throw error;
      reply = fail(error.status, error.message, `bad request: ${error.message}`);
      path = req.url ?? "";
    }
    note = printable(reply.note);
    if (res.destroyed) return;
    send(res, reply);
  };
  const server = createServer(
    serverOptions(),
    guard(handle, {
      logger,
      label: "webhook",
      name: "webhook server",
      reply: (res, status, error) => send(res, fail(status, error, "")),
    }),
  );
  hardenServer(server, { logger, label: "webhook", name: "webhook server" });

  await new Promise<void>((resolve, reject) => {
    server.once("error", (error: NodeJS.ErrnoException) => {
      const where = `${options.host ?? "127.0.0.1"}:${options.port}`;
      const why =
        error.code === "EADDRINUSE"
          ? "another process uses that port"
          : error.code === "EADDRNOTAVAIL"
            ? "that address is not one of this machine's"
            : error.message;
      reject(
        new NzfError("CONFIG_INVALID", `The webhook server could not listen on ${where}: ${why}.`, {
          subject: where,
          hint: "Choose another --port (NZF_WEBHOOK_PORT), or an address of this machine for --host (NZF_WEBHOOK_HOST).",
          cause: error,
        }),
      );
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
    bodies: () => ({ inFlight: budget.inFlight(), peak: budget.peak() }),
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

function secretValues(env: NodeJS.ProcessEnv): string[] {
  return Object.entries(env)
    .filter(([name, value]) => isSecretEnvName(name) && value !== undefined && value.length >= 8)
    .map(([, value]) => value!);
}

function digest(value: string): Buffer {
  return createHash("sha256").update(value, "utf8").digest();
}

function fail(status: number, error: string, note: string): Reply {
  return { status, body: { ok: false, error }, note };
}

function methodNotAllowed(allow: string): Reply {
  return {
    status: 405,
    body: { ok: false, error: `Method not allowed; use ${allow}.` },
    headers: { allow },
    note: "method not allowed",
  };
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
  /** Secret-looking variables to pass to the deploy command anyway (comma-separated names). */
  deployEnv?: string;
}

export interface WebhookConfig {
  port: number;
  host: string;
  secret: string;
  repository: string;
  deployCommand?: string;
  deployTimeoutMs: number;
  /** Secret-looking variables the deploy command gets anyway (NZF_DEPLOY_ENV); all others are removed. */
  deployPassEnv: string[];
}

export const DEFAULT_WEBHOOK_PORT = 8080;

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
  deps: {
    runBuild: RunBuild;
    logger: Logger;
    /** The project folder (`--root`): the deploy command runs there. */
    projectFolder?: string;
    /** The in-process deploy (`nzf-build deploy`, with a bucket configured), instead of a deploy command. */
    deploy?: {
      label: string;
      run: (signal: AbortSignal) => Promise<string>;
      /** Called as each build starts: the deploy after it may read ahead (src/deploy/webhook-deploy.ts). */
      prepare?: () => void;
    };
  },
): Promise<WebhookService> {
  const { logger } = deps;
  const env = process.env;
  const onDeploy = deps.deploy
    ? createInProcessDeployer(deps.deploy.label, deps.deploy.run, config.deployTimeoutMs)
    : config.deployCommand
      ? createDeployer({
          command: config.deployCommand,
          ...(deps.projectFolder ? { folder: deps.projectFolder } : {}),
          timeoutMs: config.deployTimeoutMs,
          env,
          passEnv: config.deployPassEnv,
        })
      : undefined;
  const queue = createBuildQueue(deps.runBuild, {
    logger,
    ...(onDeploy ? { onDeploy } : {}),
    ...(deps.deploy?.prepare ? { onBuildStart: deps.deploy.prepare } : {}),
  });
  // /status never shows these: the deploy command and the values of secret-looking variables.
  const redact = [...(config.deployCommand ? [config.deployCommand] : []), ...secretValues(env)];
  const server = await startWebhookServer({
    port: config.port,
    host: config.host,
    secret: config.secret,
    repository: config.repository,
    queue,
    logger,
    redact,
    // The deploy's deadline, then the grace before an in-process deploy is abandoned, then a margin.
    deployStuckAfterMs: config.deployTimeoutMs + 15_000,
  });
  const deploy = deps.deploy
    ? `then ${deps.deploy.label}`
    : config.deployCommand
      ? `then \`${config.deployCommand}\``
      : "no deploy";
  logger.info("webhook", `listening on ${server.url} for Prismic repository ${config.repository} (${deploy})`);
  // The last net: a promise some library forgot to handle must not end a server that editors'
  // publishes depend on (Node's default for an unhandled rejection is to exit). It is logged as
  // an error; the build or request it belonged to has failed or answered already.
  const stray = (reason: unknown) =>
    logger.error(
      "webhook",
      `[INTERNAL] an operation failed outside any build or request; the server keeps running: ${reason instanceof Error ? (reason.stack ?? reason.message) : String(reason)}`,
    );
  process.on("unhandledRejection", stray);
  queue.enqueue({ reason: "startup", receivedAt: Date.now() });
  return {
    url: server.url,
    queue,
    stop: async () => {
      await server.stop();
      await queue.idle();
      process.off("unhandledRejection", stray);
    },
  };
}
