/**
 * A loopback HTTP proxy in front of a local service (the local S3) that, while `hang` matches a
 * request, accepts it and never answers: how a stuck upload looks from the client's side.
 */
import { createServer, request, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo, Socket } from "node:net";

export interface HangingProxy {
  endpoint: string;
  /** Requests held without an answer so far ("PUT /bucket/key"). */
  held: string[];
  /** Which requests to hold; null forwards everything. */
  hang: ((req: IncomingMessage) => boolean) | null;
  stop(): Promise<void>;
}

export async function startHangingProxy(target: string): Promise<HangingProxy> {
  const to = new URL(target);
  const sockets = new Set<Socket>();
  const proxy: HangingProxy = {
    endpoint: "",
    held: [],
    hang: null,
    stop: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
  const server: Server = createServer((req, res) => {
    if (proxy.hang?.(req)) {
      proxy.held.push(`${req.method} ${req.url}`);
      req.resume(); // read the body, answer nothing
      return;
    }
    const upstream = request(
      { host: to.hostname, port: to.port, method: req.method, path: req.url, headers: req.headers },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    upstream.on("error", () => res.destroy());
    req.pipe(upstream);
  });
  server.on("connection", (socket: Socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  proxy.endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return proxy;
}
