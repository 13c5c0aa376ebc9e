/**
 * What every local HTTP server here (webhook, static/dev, payments dev) shares so that no request,
 * however malformed or slow, can stop the process or hold its memory:
 *
 * - `parseTarget`: the request target parsed as a path only. `new URL(req.url, base)` treats a
 *   target such as `//[` as a host and throws; here the host is fixed, so only the path is parsed,
 *   and a bad one is a 4xx answer, never an exception.
 * - `guard`: one error boundary per server. Anything a handler throws (sync or async) is answered
 *   (400 for a `BadRequest`, 500 otherwise), logged, and the server stays up.
 * - `hardenServer`: timeouts so slow clients are cut off, and answers for requests Node's parser
 *   refuses (400, 408, 413, 431) with a log line.
 * - `createBodyBudget`: request bodies are read against a per-request limit (413) and a total for
 *   all connections together (503), so many slow uploads cannot add up.
 */
import type { IncomingMessage, RequestListener, Server, ServerOptions, ServerResponse } from "node:http";
import type { Socket } from "node:net";
import type { Logger } from "../core/logger.js";
import { SERVER_LIMITS as limits } from "./server-limits.js";

/** Longer targets are refused (414): no page, asset or API path comes near it. */
export const MAX_TARGET_LENGTH = 4096;

/** An answer for the client's mistake: the boundary turns it into a 4xx, not a 500. */
export class BadRequest extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
    this.name = "BadRequest";
  }
}

export interface RequestTarget {
  /** Percent-encoded, dot segments resolved, always starting with "/". */
  path: string;
  /** The path with percent-encoding decoded (valid UTF-8 guaranteed). */
  decodedPath: string;
  /** "" or "?...". */
  search: string;
}

/** Parses a request target in origin form (`/path?query`); throws BadRequest for anything else. */
export function parseTarget(raw: string | undefined): RequestTarget {
  const target = raw ?? "/";
  if (target.length > MAX_TARGET_LENGTH)
    throw new BadRequest(414, `The request target is longer than ${MAX_TARGET_LENGTH} characters.`);
  if (!target.startsWith("/")) throw new BadRequest(400, "The request target must be a path starting with /.");
  // Node's parser refuses most of these; a NUL or space that got through is refused here.
  if (/[\u0000-\u0020\u007f]/.test(target))
    throw new BadRequest(400, "The request target contains a control character or a space.");
  let url: URL;
  try {
    // The host is fixed: only the path and query are parsed, so `//[` is a path, not a host.
    url = new URL(`http://localhost${target}`);
  } catch {
    throw new BadRequest(400, "The request target is not a valid path.");
  }
  if (url.host !== "localhost") throw new BadRequest(400, "The request target is not a valid path.");
  let decodedPath: string;
  try {
    decodedPath = decodeURIComponent(url.pathname);
  } catch {
    throw new BadRequest(400, "The request path has invalid percent-encoding.");
  }
  if (decodedPath.includes("\0")) throw new BadRequest(400, "The request path contains a NUL byte.");
  return { path: url.pathname, decodedPath, search: url.search };
}

/** A short, printable version of client-supplied text for a log line. */
export function printable(text: string, max = 120): string {
  const clean = text.replace(/[\u0000-\u001f\u007f]/g, "?");
  return clean.length > max ? `${clean.slice(0, max - 1)}…` : clean;
}

export interface GuardOptions {
  logger?: Logger;
  /** Log label, e.g. "webhook" or "watch". */
  label: "webhook" | "watch" | "preview";
  /** The server's name in log lines. */
  name: string;
  /** How a refusal is written (JSON servers send JSON); plain text by default. */
  reply?: (res: ServerResponse, status: number, message: string) => void;
  /** The site's page for server errors (its 500.html), sent instead of plain text for a 500 when there is one. */
  errorPage?: () => string | null;
}

const plainReply = (res: ServerResponse, status: number, message: string) => {
  res
    .writeHead(status, {
      "content-type": "text/plain; charset=utf-8",
      "cache-control": "no-store",
      connection: "close",
    })
    .end(message + "\n");
};

/** Wraps a handler in the server's error boundary: nothing it throws leaves the request unanswered or stops the process. */
export function guard(
  handler: (req: IncomingMessage, res: ServerResponse) => unknown,
  options: GuardOptions,
): RequestListener {
  const reply = options.reply ?? plainReply;
  const fail = (req: IncomingMessage, res: ServerResponse, error: unknown) => {
    const bad = error instanceof BadRequest;
    const status = bad ? error.status : 500;
    const message = bad ? error.message : "Internal error; see the server log.";
    const what = `${options.name}: ${printable(req.method ?? "?", 16)} ${printable(req.url ?? "", 80)} ${status}`;
    if (bad) options.logger?.warn(options.label, `${what}: ${error.message}`);
    else
      options.logger?.error(
        options.label,
        `${what}: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`,
      );
    try {
      const page = !bad ? options.errorPage?.() : null;
      if (res.headersSent || res.destroyed) res.destroy();
      else if (page)
        res
          .writeHead(status, {
            "content-type": "text/html; charset=utf-8",
            "cache-control": "no-store",
            connection: "close",
          })
          .end(page);
      else reply(res, status, message);
    } catch {
      res.destroy();
    }
  };
  return (req, res) => {
    try {
      const result = handler(req, res);
      if (result instanceof Promise) result.catch((error: unknown) => fail(req, res, error));
    } catch (error) {
      fail(req, res, error);
    }
  };
}

/** Options for `createServer`: the timeouts that cut off slow clients. */
export function serverOptions(): ServerOptions {
  return {
    headersTimeout: Math.min(limits.headersTimeoutMs, limits.requestTimeoutMs),
    requestTimeout: limits.requestTimeoutMs,
    connectionsCheckingInterval: limits.checkIntervalMs,
    // Fewer headers than Node's 2000: nothing here needs more than a browser sends.
    maxHeadersCount: 100,
  } as ServerOptions;
}

const PARSER_STATUS: Record<string, [number, string]> = {
  HPE_HEADER_OVERFLOW: [431, "Request Header Fields Too Large"],
  ERR_HTTP_REQUEST_TIMEOUT: [408, "Request Timeout"],
  HPE_CHUNK_EXTENSIONS_OVERFLOW: [413, "Payload Too Large"],
};

/** Answers requests Node's parser refuses (and logs them), and keeps idle sockets from piling up. */
export function hardenServer(
  server: Server,
  options: { logger?: Logger; label: GuardOptions["label"]; name: string },
): void {
  // Without a "timeout" listener Node destroys a socket idle for this long.
  server.setTimeout(limits.idleTimeoutMs);
  server.keepAliveTimeout = limits.keepAliveTimeoutMs;
  server.on("clientError", (error: Error & { code?: string }, socket: Socket) => {
    const [status, text] = PARSER_STATUS[error.code ?? ""] ?? [400, "Bad Request"];
    if (error.code !== "ECONNRESET")
      options.logger?.warn(
        options.label,
        `${options.name}: refused a malformed request (${status}, ${error.code ?? error.message})`,
      );
    if (socket.writable && !(socket as Socket & { _httpMessage?: unknown })._httpMessage) {
      socket.end(`HTTP/1.1 ${status} ${text}\r\nconnection: close\r\ncontent-length: 0\r\n\r\n`);
    }
    socket.destroySoon();
  });
}

export type BodyResult = { ok: true; body: Buffer } | { ok: false; status: 413 | 503 | 400; reason: string };

export interface BodyBudget {
  /** Bytes of request bodies held right now, over all connections. */
  inFlight(): number;
  /** The most held at once since the server started. */
  peak(): number;
  /** Reads a body of at most `limit` bytes; past `limit` 413, past the shared total 503. */
  read(req: IncomingMessage, limit: number): Promise<BodyResult>;
}

/** After a refusal, up to this much of the rest of a body is read and dropped, so the client sees the answer instead of a reset. */
const DRAIN_LIMIT_BYTES = 64 * 1024 * 1024;
const DRAIN_LIMIT_MS = 10_000;

export function createBodyBudget(totalBytes: number): BodyBudget {
  let held = 0;
  let peak = 0;
  return {
    inFlight: () => held,
    peak: () => peak,
    read(req, limit) {
      const declared = Number(req.headers["content-length"]);
      if (Number.isFinite(declared) && declared > limit) {
        drain(req);
        return Promise.resolve({ ok: false, status: 413, reason: `the body is larger than ${limit} bytes` });
      }
      return new Promise<BodyResult>((resolve) => {
        const chunks: Buffer[] = [];
        let mine = 0;
        let settled = false;
        const settle = (result: BodyResult) => {
          if (settled) return;
          settled = true;
          held -= mine;
          mine = 0;
          req.off("data", onData);
          req.off("end", onEnd);
          req.off("close", onClose);
          if (!result.ok) {
            chunks.length = 0;
            drain(req);
          }
          resolve(result);
        };
        const onData = (chunk: Buffer) => {
          if (mine + chunk.length > limit)
            return settle({ ok: false, status: 413, reason: `the body is larger than ${limit} bytes` });
          if (held + chunk.length > totalBytes)
            return settle({
              ok: false,
              status: 503,
              reason: `request bodies in flight would pass ${totalBytes} bytes`,
            });
          held += chunk.length;
          mine += chunk.length;
          peak = Math.max(peak, held);
          chunks.push(chunk);
        };
        const onEnd = () => settle({ ok: true, body: Buffer.concat(chunks) });
        const onClose = () =>
          settle({ ok: false, status: 400, reason: "the client closed the connection before the body ended" });
        req.on("data", onData);
        req.once("end", onEnd);
        req.once("close", onClose);
      });
    },
  };
}

/**
 * Reads and drops the rest of a refused body, so the answer reaches the client (closing a socket
 * with unread data makes the kernel send a reset, and the client never sees the 413). Bounded in
 * bytes and time; past either the connection is closed.
 */
function drain(req: IncomingMessage): void {
  if (req.complete || req.destroyed) return;
  let dropped = 0;
  const timer = setTimeout(() => req.socket.destroy(), DRAIN_LIMIT_MS);
  timer.unref();
  req.on("data", (chunk: Buffer) => {
    dropped += chunk.length;
    if (dropped > DRAIN_LIMIT_BYTES) req.socket.destroy();
  });
  req.once("close", () => clearTimeout(timer));
  req.resume();
}
