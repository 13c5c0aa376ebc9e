/**
 * A proxy in front of the test payments service (payments-service.ts), where the tests' faults and
 * request log live, so the service itself runs as deployed. Each request is read whole (as API
 * Gateway does, so a delayed request still completes), then either answered with an injected fault
 * or passed on with its target unchanged (a raw path: what the service sees is what the client
 * sent) and the answer passed back byte for byte; both are logged. OPTIONS is passed on unlogged
 * and never faulted, as the service answers preflights before anything else; `/stripe/` (the
 * stand-in's signed webhooks) is logged but never faulted.
 */
import { buffer } from "node:stream/consumers";
import {
  createServer,
  type IncomingHttpHeaders,
  request as httpRequest,
  type IncomingMessage,
  type ServerResponse,
} from "node:http";
import type { AddressInfo } from "node:net";
import { type CorsPolicy, EXPOSED_HEADERS } from "../../src/api/cors.js";

export interface Fault {
  status?: number;
  delayMs?: number;
  /** How many requests it applies to (default 1). */
  times?: number;
  /** Only requests whose path starts with this. */
  path?: string;
  rawBody?: string;
}

export interface RequestLogEntry {
  method: string;
  path: string;
  origin?: string;
  idempotencyKey?: string;
  status: number;
  replayed: boolean;
  donationId?: string;
}

export interface PaymentsProxy {
  url: string;
  port: number;
  stop(): Promise<void>;
}

const FAULT_CODES: Record<number, { code: string; message: string; retryAfter?: string }> = {
  429: {
    code: "rate_limited",
    message: "There have been too many attempts. Nothing was charged. Please wait a minute and try again.",
    retryAfter: "60",
  },
  500: {
    code: "internal_error",
    message: "Something went wrong on our side. Nothing was charged. Please try again in a moment.",
  },
  502: {
    code: "bad_gateway",
    message: "Something went wrong on our side. Nothing was charged. Please try again in a moment.",
  },
  503: {
    code: "unavailable",
    message: "Our payment service is briefly unavailable. Nothing was charged. Please try again in a few minutes.",
    retryAfter: "30",
  },
};

/** Headers of one hop only: never passed on. */
const HOP_BY_HOP = new Set([
  "connection",
  "keep-alive",
  "transfer-encoding",
  "content-length",
  "te",
  "trailer",
  "upgrade",
  "proxy-connection",
]);

function passable(headers: IncomingHttpHeaders): Record<string, string | string[]> {
  const kept: Record<string, string | string[]> = {};
  for (const [name, value] of Object.entries(headers))
    if (value !== undefined && !HOP_BY_HOP.has(name)) kept[name] = value;
  return kept;
}

/** The path as the service's router reads it; null for a target that is not one. */
function pathOf(target: string | undefined): string | null {
  try {
    return new URL(target ?? "/", "http://proxy.local").pathname;
  } catch {
    return null;
  }
}

interface Answer {
  status: number;
  headers: Record<string, string | string[]>;
  body: Buffer;
}

export async function startPaymentsProxy(
  upstream: string,
  hooks: {
    /** The fault for a request to `path`, used up by this call; none to pass the request on. */
    takeFault(path: string): Fault | undefined;
    log(entry: RequestLogEntry): void;
    /** The service's CORS policy (read at each request: watch mode changes it), for injected answers. */
    cors(): CorsPolicy;
  },
): Promise<PaymentsProxy> {
  const target = new URL(upstream);

  function faultAnswer(fault: Fault & { status: number }, origin: string | undefined): Answer {
    const cors: Record<string, string> = { vary: "Origin" };
    if (hooks.cors().allows(origin)) {
      cors["access-control-allow-origin"] = origin!;
      cors["access-control-expose-headers"] = EXPOSED_HEADERS;
    }
    if (fault.rawBody !== undefined)
      return {
        status: fault.status,
        headers: { "content-type": "text/html", "cache-control": "no-store", ...cors },
        body: Buffer.from(fault.rawBody),
      };
    const known = FAULT_CODES[fault.status] ?? { code: `http_${fault.status}`, message: "Injected fault." };
    return {
      status: fault.status,
      headers: {
        "content-type": "application/json",
        "cache-control": "no-store",
        ...(known.retryAfter ? { "retry-after": known.retryAfter } : {}),
        ...cors,
      },
      body: Buffer.from(JSON.stringify({ error: { code: known.code, message: known.message } })),
    };
  }

  function passOn(req: IncomingMessage, body: Buffer): Promise<Answer> {
    return new Promise((resolve, reject) => {
      const out = httpRequest(
        {
          host: target.hostname,
          port: Number(target.port),
          method: req.method,
          path: req.url,
          headers: { ...passable(req.headers), "content-length": String(body.length) },
        },
        (res) => {
          buffer(res).then(
            (answer) => resolve({ status: res.statusCode ?? 502, headers: passable(res.headers), body: answer }),
            reject,
          );
        },
      );
      out.on("error", reject);
      out.end(body);
    });
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const body = await buffer(req);
    const path = pathOf(req.url);
    const preflight = req.method === "OPTIONS";
    const fault = !preflight && path !== null && !path.startsWith("/stripe/") ? hooks.takeFault(path) : undefined;
    if (fault?.delayMs) await new Promise((r) => setTimeout(r, fault.delayMs));
    const origin = req.headers.origin;
    const answer = fault?.status
      ? faultAnswer(fault as Fault & { status: number }, origin)
      : await passOn(req, body).catch(
          (error: unknown): Answer => ({
            status: 502,
            headers: { "content-type": "text/plain" },
            body: Buffer.from(`the payments proxy could not reach the service: ${String(error)}`),
          }),
        );
    if (!preflight && path !== null) {
      const key = req.headers["idempotency-key"];
      let donationId: string | undefined;
      if (req.method === "POST" && path.replace(/\/+$/, "") === "/donations" && answer.status === 201)
        donationId = (JSON.parse(answer.body.toString("utf8")) as { donationId: string }).donationId;
      hooks.log({
        method: req.method ?? "GET",
        path: path.replace(/\/+$/, "") || "/",
        ...(origin ? { origin } : {}),
        ...(typeof key === "string" ? { idempotencyKey: key } : {}),
        status: answer.status,
        replayed: answer.headers["idempotent-replayed"] === "true",
        ...(donationId ? { donationId } : {}),
      });
    }
    res.writeHead(answer.status, { ...answer.headers, "content-length": String(answer.body.length) });
    res.end(answer.body);
  }

  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      if (!res.headersSent) res.writeHead(500, { "content-type": "text/plain" });
      res.end(`the payments proxy failed: ${String(error)}`);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    stop: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
