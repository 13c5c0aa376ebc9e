/**
 * `nzf-build preview`: the published site served as S3 behind CloudFront serves it, so what a
 * developer sees locally is what donors get after `nzf-build deploy`:
 *
 * - every request goes first through the site's CloudFront Function (src/deploy/edge-function.ts),
 *   its own code run in a fresh JavaScript context as CloudFront runs it: the redirects, the trailing
 *   slash (301) and `/path/` → `/path/index.html`;
 * - then to "S3": the key as the function left it, exactly (no folder index, no guessing), with the
 *   Content-Type and Cache-Control a deploy stores with that object (src/deploy/plan.ts) and an ETag;
 *   `_headers` and `_redirects`, which a deploy does not upload, are not there;
 * - the response headers policy: the security headers of the site's own `_headers` for the path
 *   asked (the account pages' policy for `/account/*`), read from the published version on each
 *   request, so a new build is served with its own policy;
 * - the distribution's error responses: a missing key is `404.html` with status 404 (a private
 *   bucket answers 403, which the distribution maps the same way), a server error is `500.html` with
 *   status 500;
 * - text compressed with gzip for a client that accepts it, from 1,000 bytes (CloudFront's rule).
 *
 * It reads the folder it is given (`dist`, a link a publish swaps) on every request, so a build
 * published meanwhile is served at once, whole.
 */
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { readFile, realpath, stat } from "node:fs/promises";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { join, sep } from "node:path";
import { createContext, runInContext, type Context } from "node:vm";
import { gzipSync } from "node:zlib";
import type { Logger } from "../core/logger.js";
import { edgeFunctionCode } from "../deploy/edge-function.js";
import { contentTypeOf } from "../deploy/content-types.js";
import { cacheControlOf, isUploaded } from "../deploy/plan.js";
import { headersFor, parseHeadersFile, type HeaderRule } from "../site-files/headers.js";
import { BadRequest, guard, hardenServer, parseTarget, serverOptions } from "./http-guard.js";
import type { StaticServer } from "./static-server.js";

export interface PreviewServerOptions {
  /** The published site: `dist`, a link to the version a publish made. */
  root: string;
  host: string;
  port: number;
  logger?: Logger;
}

type Query = Record<string, { value: string; multiValue?: { value: string }[] }>;
interface EdgeAnswer {
  uri?: string;
  statusCode?: number;
  statusDescription?: string;
  headers?: Record<string, { value: string }>;
}

/** The CloudFront Function, its code run alone in a context of its own (no require, no process). */
export function createEdgeFunction(code = edgeFunctionCode()): (uri: string, search: string) => EdgeAnswer {
  const context: Context = createContext({});
  runInContext(code, context, { filename: "cloudfront-function.js" });
  const handler = context.handler as (event: unknown) => EdgeAnswer;
  return (uri, search) =>
    handler({
      version: "1.0",
      context: { eventType: "viewer-request" },
      viewer: { ip: "127.0.0.1" },
      request: { method: "GET", uri, querystring: querystringOf(search), headers: {}, cookies: {} },
    });
}

/** CloudFront's event form of a query string: each name once, repeated values in multiValue. */
function querystringOf(search: string): Query {
  const query: Query = {};
  for (const [name, value] of new URLSearchParams(search)) {
    const entry = query[name];
    if (!entry) query[name] = { value };
    else (entry.multiValue ??= [{ value: entry.value }]).push({ value });
  }
  return query;
}

/** Headers a response headers policy may not set: S3's object metadata gives these. */
const OBJECT_HEADERS = new Set(["cache-control", "content-type"]);
const COMPRESSIBLE = /^(text\/|application\/(json|xml|manifest\+json|javascript)|image\/svg\+xml)/;

const inside = (dir: string, path: string) => path.startsWith(dir.endsWith(sep) ? dir : dir + sep);

export async function startPreviewServer(options: PreviewServerOptions): Promise<StaticServer> {
  const edge = createEdgeFunction();
  let policy: { file: string; mtimeMs: number; rules: HeaderRule[] } | null = null;

  /** The security headers the site's `_headers` gives `path`, from the version published now. */
  const policyHeaders = async (site: string, path: string): Promise<Record<string, string>> => {
    const file = join(site, "_headers");
    const info = await stat(file).catch(() => null);
    if (!info) return {};
    if (policy?.file !== file || policy.mtimeMs !== info.mtimeMs)
      policy = { file, mtimeMs: info.mtimeMs, rules: parseHeadersFile(await readFile(file, "utf8")) };
    return Object.fromEntries(
      Object.entries(headersFor(policy.rules, path)).filter(([name]) => !OBJECT_HEADERS.has(name.toLowerCase())),
    );
  };

  /** The object S3 holds at `key`: a regular file of the site that a deploy uploads, or null. */
  const object = async (site: string, key: string): Promise<Buffer | null> => {
    if (!key || !isUploaded(key) || key.split("/").some((part) => part === ".." || part === ".")) return null;
    try {
      const real = await realpath(join(site, key));
      if (!inside(site, real) || !(await stat(real)).isFile()) return null;
      return await readFile(real);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === "ENOENT" || code === "ENOTDIR" || code === "EISDIR") return null;
      throw error; // unreadable: the guard answers with 500.html
    }
  };

  const send = (
    req: IncomingMessage,
    res: ServerResponse,
    status: number,
    key: string,
    body: Buffer,
    security: Record<string, string>,
  ) => {
    const type = contentTypeOf(key);
    const etag = `"${createHash("md5").update(body).digest("hex")}"`;
    const headers: Record<string, string> = {
      "content-type": type,
      "cache-control": cacheControlOf(key),
      etag,
      ...security,
    };
    if (status === 200 && req.headers["if-none-match"] === etag) {
      res.writeHead(304, headers).end();
      return;
    }
    let payload = body;
    if (COMPRESSIBLE.test(type) && body.length >= 1000) {
      headers.vary = "accept-encoding";
      if (/\bgzip\b/.test(String(req.headers["accept-encoding"] ?? ""))) {
        payload = gzipSync(body);
        headers["content-encoding"] = "gzip";
      }
    }
    headers["content-length"] = String(payload.length);
    res.writeHead(status, headers).end(req.method === "HEAD" ? undefined : payload);
  };

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    let target: ReturnType<typeof parseTarget>;
    try {
      target = parseTarget(req.url);
    } catch (error) {
      if (!(error instanceof BadRequest)) throw error;
      res.writeHead(error.status, { "content-type": "text/plain; charset=utf-8" }).end(error.message + "\n");
      return;
    }
    if (req.method !== "GET" && req.method !== "HEAD") {
      res.writeHead(405, { allow: "GET, HEAD", "content-type": "text/plain; charset=utf-8" }).end("GET or HEAD\n");
      return;
    }
    const site = await realpath(options.root);
    const security = await policyHeaders(site, target.path);
    const answer = edge(target.path, target.search.replace(/^\?/, ""));
    if (answer.statusCode) {
      const headers = Object.fromEntries(Object.entries(answer.headers ?? {}).map(([name, h]) => [name, h.value]));
      res.writeHead(answer.statusCode, { ...headers, ...security }).end();
      return;
    }
    let key: string;
    try {
      key = decodeURIComponent((answer.uri ?? target.path).replace(/^\//, ""));
    } catch {
      key = "";
    }
    const body = await object(site, key);
    if (body) {
      send(req, res, 200, key, body, security);
      return;
    }
    const missing = await object(site, "404.html");
    if (!missing) {
      res.writeHead(404, { "content-type": "text/plain; charset=utf-8", ...security }).end("Not found\n");
      return;
    }
    send(req, res, 404, "404.html", missing, security);
  };

  const server = createServer(
    serverOptions(),
    guard(handle, {
      logger: options.logger,
      label: "preview",
      name: "preview server",
      // The distribution's error response for 500: the site's own page.
      errorPage: () => {
        try {
          return readFileSync(join(options.root, "500.html"), "utf8");
        } catch {
          return null;
        }
      },
    }),
  );
  hardenServer(server, { logger: options.logger, label: "preview", name: "preview server" });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port, options.host, () => {
      server.off("error", reject);
      resolve();
    });
  });
  const address = server.address() as AddressInfo;
  return {
    url: `http://${options.host}:${address.port}`,
    server,
    stop: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
