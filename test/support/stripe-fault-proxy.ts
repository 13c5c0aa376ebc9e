/**
 * A proxy between the payments service's Stripe SDK and the Stripe stand-in, where a test puts the
 * network's faults, so the service and its SDK (retries and idempotency keys included) run as
 * deployed. A fault meets requests by method and path prefix ("POST /v1/subscriptions/"):
 * - `unreachable`: the connection is cut before the request reaches Stripe (nothing happens there);
 * - `answer-lost`: Stripe gets the request and acts, then the connection is cut before its answer
 *   reaches the service (what a timeout or a dropped connection after the fact looks like).
 * Everything else is passed on as it came, and Stripe's answer passed back byte for byte.
 */
import { buffer } from "node:stream/consumers";
import { createServer, request as httpRequest, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo, Socket } from "node:net";

export interface StripeFault {
  kind: "unreachable" | "answer-lost";
  /** Method and path prefix of the requests it meets, e.g. "POST /v1/subscriptions/". */
  match: string;
  /** How many requests it meets (default 1). */
  times?: number;
}

export interface StripeFaultProxy {
  /** What the service's STRIPE_API_BASE is set to. */
  url: string;
  inject(fault: StripeFault): void;
  /** The requests a fault met: "answer-lost POST /v1/subscriptions/sub_…". */
  met: string[];
  stop(): Promise<void>;
}

export async function startStripeFaultProxy(stripeUrl: string): Promise<StripeFaultProxy> {
  const target = new URL(stripeUrl);
  const faults: (StripeFault & { times: number })[] = [];
  const met: string[] = [];
  const sockets = new Set<Socket>();

  function takeFault(method: string, path: string): StripeFault | undefined {
    const index = faults.findIndex((f) => `${method} ${path}`.startsWith(f.match));
    if (index < 0) return undefined;
    const fault = faults[index]!;
    if (--fault.times <= 0) faults.splice(index, 1);
    met.push(`${fault.kind} ${method} ${path}`);
    return fault;
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const body = await buffer(req);
    const fault = takeFault(req.method ?? "GET", new URL(req.url ?? "/", target).pathname);
    if (fault?.kind === "unreachable") return void req.socket.destroy();
    const answer = await new Promise<{ status: number; headers: IncomingMessage["headers"]; body: Buffer }>(
      (resolve, reject) => {
        const { host: _host, connection: _connection, ...headers } = req.headers;
        const out = httpRequest(
          { host: target.hostname, port: Number(target.port), method: req.method, path: req.url, headers },
          (upstream) =>
            buffer(upstream).then(
              (answerBody) =>
                resolve({ status: upstream.statusCode ?? 502, headers: upstream.headers, body: answerBody }),
              reject,
            ),
        );
        out.on("error", reject);
        out.end(body);
      },
    );
    // Stripe has acted on it; the service never hears.
    if (fault?.kind === "answer-lost") return void req.socket.destroy();
    const { connection: _c, "keep-alive": _k, "transfer-encoding": _t, ...headers } = answer.headers;
    res.writeHead(answer.status, { ...headers, "content-length": String(answer.body.length) });
    res.end(answer.body);
  }

  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      if (!res.headersSent) res.writeHead(502, { "content-type": "text/plain" });
      res.end(`the Stripe fault proxy could not reach the stand-in: ${String(error)}`);
    });
  });
  server.on("connection", (socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    inject: (fault) => void faults.push({ ...fault, times: fault.times ?? 1 }),
    met,
    stop: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
