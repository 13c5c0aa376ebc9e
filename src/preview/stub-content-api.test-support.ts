/**
 * Test support only (never imported by runtime code): a real HTTP server on 127.0.0.1 speaking
 * the part of the Prismic v2 content API the preview uses, `GET /api/v2/documents/search` with
 * ref, q (`at(document.id, "...")`), lang, pageSize and access_token. It can require an access
 * token, knows a set of refs, and can be told to answer the next requests with given statuses.
 */

import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";

export interface StubDocument {
  id: string;
  uid: string | null;
  type: string;
  lang: string;
  data: Record<string, unknown>;
}

export interface StubOptions {
  /** Documents visible at each ref. */
  refs: Record<string, StubDocument[]>;
  /** When set, requests must carry this access_token. */
  accessToken?: string;
}

export interface InjectedAnswer {
  status: number;
  headers?: Record<string, string>;
  body?: unknown;
}

export interface StubContentApi {
  endpoint: string;
  requests: URL[];
  /** The next requests get these answers, in order, before normal service resumes. */
  inject(...answers: InjectedAnswer[]): void;
  close(): Promise<void>;
}

function documentIdFromQuery(q: string | null): string | null {
  if (!q) return null;
  return /at\(document\.id,\s*"([^"]+)"\)/.exec(q)?.[1] ?? null;
}

export async function startStubContentApi(options: StubOptions): Promise<StubContentApi> {
  const requests: URL[] = [];
  const injected: InjectedAnswer[] = [];
  const server: Server = createServer((req: IncomingMessage, res) => {
    const url = new URL(req.url ?? "/", "http://127.0.0.1");
    if (req.method === "OPTIONS") {
      // CORS preflight (happy-dom sends one for every cross-origin fetch): allow like the real CDN.
      res.writeHead(204, {
        "access-control-allow-origin": "*",
        "access-control-allow-methods": "GET",
        "access-control-allow-headers": "*",
      });
      return res.end();
    }
    requests.push(url);
    // Browsers (and happy-dom) send CORS requests: answer like the real CDN does.
    const send = (status: number, body: unknown, headers: Record<string, string> = {}) => {
      res.writeHead(status, { "content-type": "application/json", "access-control-allow-origin": "*", ...headers });
      res.end(body === undefined ? "" : JSON.stringify(body));
    };
    const next = injected.shift();
    if (next) return send(next.status, next.body, next.headers);
    if (url.pathname !== "/api/v2/documents/search") {
      res.writeHead(404, { "content-type": "text/plain", "access-control-allow-origin": "*" });
      return res.end("Not found");
    }
    if (options.accessToken !== undefined && url.searchParams.get("access_token") !== options.accessToken) {
      return send(401, { message: "Invalid access token", type: "api_security_error" });
    }
    const ref = url.searchParams.get("ref") ?? "";
    const docs = options.refs[ref];
    if (!docs) return send(404, { type: "api_notfound_error", message: `Ref not found. Ensure you have the correct ref and try again. Master ref is: master` });
    const id = documentIdFromQuery(url.searchParams.get("q"));
    const matching = id === null ? docs : docs.filter((d) => d.id === id);
    const pageSize = Number(url.searchParams.get("pageSize") ?? "20");
    const results = matching.slice(0, pageSize);
    send(200, { page: 1, total_pages: 1, results_size: results.length, total_results_size: matching.length, results });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    endpoint: `http://127.0.0.1:${port}/api/v2`,
    requests,
    inject: (...answers) => void injected.push(...answers),
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}
