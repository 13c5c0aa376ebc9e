/**
 * The payments service's port, bound before the service is ready, and light to load: watch mode
 * binds it before its first build (the pages carry its URL) and starts the service, whose modules
 * (node-server.ts: Stripe's SDK, PGlite, the routes) take a second of CPU to load, after it.
 */
import { createServer, type IncomingMessage, type RequestListener, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { EXPOSED_HEADERS, isLoopbackOrigin } from "./cors.js";
import type { ApiServer, ApiServerOptions } from "./node-server.js";

/** How long a request that came before the service was ready waits for it before a 503 (a fresh PGlite takes seconds). */
export const HOLD_UNTIL_READY_MS = 15_000;

/**
 * The service's port, bound before the service is ready (watch mode builds the site, which needs
 * the service's URL, while the database opens and migrates). A request that comes meanwhile waits
 * for the service and is answered by it; one still waiting after `holdMs`, or made after the start
 * failed, gets the contract's 503 `unavailable` with Retry-After.
 */
export interface ApiPort {
  url: string;
  port: number;
  /** Starts the service behind the port (once): its database opened and migrated. On failure the port is closed. */
  start(options: ApiServerOptions): Promise<ApiServer>;
  /** Closes the port, and the service once its start (if one runs) has finished. */
  stop(): Promise<void>;
}

export async function listenApiServer(
  options: Pick<ApiServerOptions, "port" | "host" | "logger"> & { holdMs?: number } = {},
): Promise<ApiPort> {
  const holdMs = options.holdMs ?? HOLD_UNTIL_READY_MS;
  let handle: RequestListener | null = null;
  let failed = false;
  let markReady!: () => void;
  const ready = new Promise<void>((resolve) => (markReady = resolve));
  const server = createServer((req, res) => {
    if (handle) return handle(req, res);
    let timer: NodeJS.Timeout | undefined;
    void Promise.race([ready, new Promise<void>((resolve) => (timer = setTimeout(resolve, holdMs)))]).then(() => {
      clearTimeout(timer);
      if (handle) handle(req, res);
      else notReady(req, res, failed);
    });
  });
  server.headersTimeout = 10_000;
  server.requestTimeout = 15_000;
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 8787, options.host ?? "127.0.0.1", () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const host = options.host ?? "127.0.0.1";
  const url = `http://${host.includes(":") ? `[${host}]` : host}:${port}`;
  const close = () =>
    new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeIdleConnections();
      setTimeout(() => server.closeAllConnections(), 2_000).unref();
    });
  let starting: Promise<ApiServer> | undefined;
  let stopped = false;
  return {
    url,
    port,
    start(serviceOptions) {
      if (starting) throw new Error("the payments API's port is started once");
      starting = import("./node-server.js")
        .then(({ startService }) => startService(serviceOptions, url, () => stopped))
        .then(
          (service) => {
            handle = service.listener;
            markReady();
            return { ...service.server, stop: () => service.stop(close) };
          },
          async (error: unknown) => {
            failed = true;
            markReady();
            await close();
            throw error;
          },
        );
      return starting;
    },
    async stop() {
      stopped = true;
      if (!starting) return close();
      // A start still running stops what it made when it ends; the port closes now.
      const closing = close();
      await starting.then(
        (service) => service.stop(),
        () => undefined,
      );
      await closing;
    },
  };
}

/** Before the service is ready: the contract's 503, with CORS for loopback sites so the page can read it. */
function notReady(req: IncomingMessage, res: ServerResponse, failed: boolean): void {
  const origin = req.headers.origin;
  const message = failed
    ? "The payments service could not start (its terminal says why). Nothing was charged."
    : "The payments service is still starting. Nothing was charged. Please try again in a moment.";
  res
    .writeHead(503, {
      "content-type": "application/json; charset=utf-8",
      "cache-control": "no-store",
      "retry-after": failed ? "30" : "2",
      ...(origin && isLoopbackOrigin(origin)
        ? { "access-control-allow-origin": origin, "access-control-expose-headers": EXPOSED_HEADERS, vary: "Origin" }
        : {}),
    })
    .end(JSON.stringify({ error: { code: "unavailable", message } }));
}
