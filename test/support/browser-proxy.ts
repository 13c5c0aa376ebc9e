/**
 * The network of a browser test's context, as a loopback HTTP proxy the context is set to use
 * (Chromium's own proxy setting), in place of Playwright routes. A route, even one that matches
 * nothing, makes Playwright pause every request of the context for the test to decide and switches
 * the context's HTTP cache off, so every page load fetched and compiled React, Amplify, axe-core
 * again. Through the proxy the cache stays on, and the tests' stand-ins are still answered at the
 * network layer, at their real addresses:
 *
 * - `answer(match, handler)`: requests whose URL matches are answered by the test (the tag
 *   manager's, Stripe.js's and PayPal's SDK stand-ins, a checker script on the site's origin), or
 *   fail at the network (`"fail"`: the connection is closed unanswered). The latest answer that
 *   matches wins, as with routes.
 * - `forward(from, to)`: requests to the origin `from` (an address a shared build was made with)
 *   are sent on to `to`, method, path, headers and body as the page sent them, and the answer
 *   handed back whole: the browser applies CSP to the built address and CORS to the service's own
 *   headers, preflights included (the service answers those, as deployed).
 * - Other loopback requests (the site itself) pass through unchanged; anything else beyond loopback
 *   fails at the network, so no test reaches the internet.
 *
 * HTTPS addresses (js.stripe.com, www.paypal.com, www.googletagmanager.com) reach the proxy as a
 * CONNECT tunnel; the proxy speaks TLS in it with a throw-away self-signed certificate (made with
 * the openssl command, as hosted-ui.ts does) and reads the request inside, so contexts using it
 * accept certificate errors (`ignoreHTTPSErrors`). A CONNECT to a loopback address (a WebSocket) is
 * tunnelled as it is.
 */
import { execFile } from "node:child_process";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import {
  createServer,
  type IncomingHttpHeaders,
  type IncomingMessage,
  request as httpRequest,
  type ServerResponse,
} from "node:http";
import { createServer as createHttpsServer } from "node:https";
import { connect, type AddressInfo, type Socket } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { buffer } from "node:stream/consumers";
import { promisify } from "node:util";

export interface ProxiedRequest {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

export interface ProxyAnswer {
  status?: number;
  headers?: Record<string, string | string[]>;
  body?: string | Buffer;
}

/** What a handler does with a request: an answer, or `"fail"` (the connection closed, as a network error). */
export type ProxyHandler = (request: ProxiedRequest) => ProxyAnswer | "fail" | Promise<ProxyAnswer | "fail">;

export type UrlMatch = string | RegExp | ((url: URL) => boolean);

export interface BrowserProxy {
  /** The proxy's address, for a context's `proxy.server`. */
  url: string;
  /**
   * Answers requests whose URL matches (a string: the URL starts with it); the latest match wins.
   * Returns what takes the answer away again.
   */
  answer(match: UrlMatch, handler: ProxyHandler): () => void;
  /** Sends requests to the origin `from` on to the origin `to`; `onRequest` sees each as it is sent on. */
  forward(from: string, to: string, onRequest?: (method: string, path: string) => void): void;
  stop(): Promise<void>;
}

/** Headers of one hop only: never passed on. */
const HOP_BY_HOP = new Set([
  "connection",
  "keep-alive",
  "proxy-connection",
  "proxy-authorization",
  "transfer-encoding",
  "te",
  "trailer",
  "upgrade",
]);

function passable(headers: IncomingHttpHeaders): Record<string, string | string[]> {
  const kept: Record<string, string | string[]> = {};
  for (const [name, value] of Object.entries(headers))
    if (value !== undefined && !HOP_BY_HOP.has(name)) kept[name] = value;
  return kept;
}

const LOOPBACK = new Set(["127.0.0.1", "localhost", "[::1]"]);

function matches(match: UrlMatch, url: URL): boolean {
  if (typeof match === "string") return url.href.startsWith(match);
  if (match instanceof RegExp) return match.test(url.href);
  return match(url);
}

let certificate: Promise<{ key: string; cert: string }> | undefined;

/** One throw-away certificate per test process. */
function selfSignedCertificate(): Promise<{ key: string; cert: string }> {
  certificate ??= (async () => {
    const dir = await mkdtemp(join(tmpdir(), "nzf-proxy-tls-"));
    try {
      await promisify(execFile)("openssl", [
        "req",
        "-x509",
        "-newkey",
        "ec",
        "-pkeyopt",
        "ec_paramgen_curve:prime256v1",
        "-nodes",
        "-days",
        "2",
        "-subj",
        "/CN=browser-test-stand-ins",
        "-keyout",
        join(dir, "key.pem"),
        "-out",
        join(dir, "cert.pem"),
      ]);
      return { key: await readFile(join(dir, "key.pem"), "utf8"), cert: await readFile(join(dir, "cert.pem"), "utf8") };
    } catch (error) {
      throw new Error(`The browser tests' proxy needs the openssl command for its certificate: ${String(error)}`);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  })();
  return certificate;
}

/** Sends one request on and reads the answer whole. */
function send(
  target: URL,
  request: ProxiedRequest,
): Promise<{ status: number; headers: Record<string, string | string[]>; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const out = httpRequest(
      {
        host: target.hostname,
        port: Number(target.port || 80),
        method: request.method,
        path: target.pathname + target.search,
        headers: { ...passable(request.headers), host: target.host, "content-length": String(request.body.length) },
        // A connection of its own each time: no reused keep-alive connection the server may close
        // just as the request is sent (the ECONNRESET payments-route.ts once had to retry).
        agent: false,
      },
      (res) => {
        buffer(res).then(
          (body) => resolve({ status: res.statusCode ?? 502, headers: passable(res.headers), body }),
          reject,
        );
      },
    );
    out.on("error", reject);
    out.end(request.body);
  });
}

export async function startBrowserProxy(): Promise<BrowserProxy> {
  const answers: { match: UrlMatch; handler: ProxyHandler }[] = [];
  const sockets = new Set<Socket>();

  async function handle(req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> {
    const found = answers.findLast((a) => matches(a.match, url));
    if (!found && LOOPBACK.has(url.hostname)) return passThrough(req, res, url);
    const body = await buffer(req);
    const outcome = found
      ? await found.handler({ method: req.method ?? "GET", url: url.href, headers: req.headers, body })
      : "fail";
    if (outcome === "fail") {
      // Closed with nothing sent: net::ERR_EMPTY_RESPONSE in the page, as a network failure.
      req.socket.destroy();
      return;
    }
    const payload = typeof outcome.body === "string" ? Buffer.from(outcome.body) : (outcome.body ?? Buffer.alloc(0));
    // The connection closes after each answer of the test's: a later "fail" then always comes on a
    // fresh connection, which Chromium reports as a failure, where on a reused one it sends the
    // request again by itself (it takes a closed keep-alive connection for a stale one).
    res.writeHead(outcome.status ?? 200, {
      ...outcome.headers,
      "content-length": String(payload.length),
      connection: "close",
    });
    res.end(payload);
  }

  /** The site's own requests, streamed both ways (a watch session's event stream never ends). */
  function passThrough(req: IncomingMessage, res: ServerResponse, url: URL): void {
    const out = httpRequest(
      {
        host: url.hostname,
        port: Number(url.port || 80),
        method: req.method,
        path: url.pathname + url.search,
        headers: { ...passable(req.headers), host: url.host },
        agent: false,
      },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.statusMessage, passable(answer.headers));
        answer.pipe(res);
        answer.on("error", () => res.destroy());
      },
    );
    out.on("error", () => req.socket.destroy());
    res.on("close", () => out.destroy());
    req.pipe(out);
  }

  const onRequest = (scheme: "http" | "https") => (req: IncomingMessage, res: ServerResponse) => {
    let url: URL;
    try {
      url = scheme === "http" ? new URL(req.url ?? "") : new URL(req.url ?? "/", `https://${req.headers.host}`);
    } catch {
      res.writeHead(400).end();
      return;
    }
    handle(req, res, url).catch(() => req.socket.destroy());
  };

  const { key, cert } = await selfSignedCertificate();
  const tls = createHttpsServer({ key, cert }, onRequest("https"));
  const server = createServer(onRequest("http"));
  server.on("connection", (socket: Socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });
  server.on("connect", (req: IncomingMessage, socket: Socket, head: Buffer) => {
    const [host = "", port = "443"] = (req.url ?? "").split(/:(?=\d+$)/);
    socket.on("error", () => socket.destroy());
    if (LOOPBACK.has(host)) {
      const upstream = connect(Number(port), host === "[::1]" ? "::1" : host, () => {
        socket.write("HTTP/1.1 200 Connection Established\r\n\r\n");
        if (head.length) upstream.write(head);
        upstream.pipe(socket);
        socket.pipe(upstream);
      });
      upstream.on("error", () => socket.destroy());
      socket.on("close", () => upstream.destroy());
      return;
    }
    socket.write("HTTP/1.1 200 Connection Established\r\n\r\n");
    if (head.length) socket.unshift(head);
    tls.emit("connection", socket);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));

  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    answer(match, handler) {
      const entry = { match, handler };
      answers.push(entry);
      return () => {
        const at = answers.indexOf(entry);
        if (at >= 0) answers.splice(at, 1);
      };
    },
    forward(from, to, onRequest = () => {}) {
      const origin = new URL(from).origin;
      answers.push({
        match: (url) => url.origin === origin,
        async handler(request) {
          const url = new URL(request.url);
          const path = url.pathname + url.search;
          onRequest(request.method, path);
          try {
            return await send(new URL(to + path), request);
          } catch {
            // The service is gone (the file is stopping): the page sees the connection close.
            return "fail";
          }
        },
      });
    },
    stop: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        for (const socket of sockets) socket.destroy();
      }),
  };
}
