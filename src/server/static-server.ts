/**
 * Serves a built site from a folder over HTTP, the way the production host does: the trailing-slash
 * policy (`/about` → 301 `/about/`), `index.html` for folders, `404.html` with status 404 for unknown
 * paths, long cache lifetimes for hashed assets, and text compressed with gzip when the browser
 * accepts it (CloudFront's "compress objects automatically", docs/deploy.md). Used by watch mode,
 * the browser tests and the Lighthouse bench, whose simulated slow network would otherwise charge
 * every page three to four times its real HTML, CSS and JavaScript bytes.
 */
import { createReadStream } from "node:fs";
import { stat } from "node:fs/promises";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { createGzip, gzipSync } from "node:zlib";
import type { AddressInfo } from "node:net";
import { extname, join, normalize, sep } from "node:path";
import { normalizePath } from "../content/routes.js";

const TYPES: Record<string, string> = {
  ".html": "text/html; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".mjs": "text/javascript; charset=utf-8",
  ".json": "application/json; charset=utf-8",
  ".webmanifest": "application/manifest+json",
  ".xml": "application/xml; charset=utf-8",
  ".txt": "text/plain; charset=utf-8",
  ".svg": "image/svg+xml",
  ".png": "image/png",
  ".jpg": "image/jpeg",
  ".jpeg": "image/jpeg",
  ".gif": "image/gif",
  ".webp": "image/webp",
  ".avif": "image/avif",
  ".ico": "image/x-icon",
  ".map": "application/json",
  ".pdf": "application/pdf",
};

/** Types worth compressing: text. Images and fonts are compressed already. */
const COMPRESSIBLE = /^(text\/|application\/(json|xml|manifest\+json)|image\/svg\+xml)/;

function acceptsGzip(req: IncomingMessage, type: string): boolean {
  return COMPRESSIBLE.test(type) && /\bgzip\b/.test(String(req.headers["accept-encoding"] ?? ""));
}

export interface StaticServerOptions {
  /** The folder to serve; a function so watch mode can swap it after each publish. */
  root: string | (() => string);
  host?: string;
  port?: number;
  /** Extra headers on every response (e.g. the Content-Security-Policy under test). */
  headers?: Record<string, string> | ((path: string) => Record<string, string>);
  /** Handles a request first (watch mode's live-reload endpoint); return true when handled. */
  intercept?: (req: IncomingMessage, res: ServerResponse) => boolean;
  /** Changes an HTML page before it is sent (watch mode injects its reload client). */
  transformHtml?: (html: string) => string;
}

export interface StaticServer {
  url: string;
  server: Server;
  stop(): Promise<void>;
}

async function fileAt(root: string, urlPath: string): Promise<string | null> {
  const decoded = decodeURIComponent(urlPath);
  const full = normalize(join(root, decoded));
  if (full !== root && !full.startsWith(root.endsWith(sep) ? root : root + sep)) return null;
  try {
    const info = await stat(full);
    if (info.isFile()) return full;
    if (info.isDirectory()) {
      const index = join(full, "index.html");
      if ((await stat(index)).isFile()) return index;
    }
  } catch {
    // not found
  }
  return null;
}

export async function startStaticServer(options: StaticServerOptions): Promise<StaticServer> {
  const rootOf = () => (typeof options.root === "function" ? options.root() : options.root);
  const server = createServer(async (req, res) => {
    try {
      if (options.intercept?.(req, res)) return;
      const url = new URL(req.url ?? "/", "http://localhost");
      const path = url.pathname;
      const extra = typeof options.headers === "function" ? options.headers(path) : (options.headers ?? {});
      if (req.method !== "GET" && req.method !== "HEAD") {
        res.writeHead(405, { allow: "GET, HEAD" }).end();
        return;
      }
      // The trailing-slash policy: page paths end in "/", file paths never do.
      const wanted = normalizePath(path);
      if (wanted !== path && !extname(path)) {
        res.writeHead(301, { location: wanted + url.search, ...extra }).end();
        return;
      }
      const root = rootOf();
      let file = await fileAt(root, path);
      let status = 200;
      if (!file) {
        file = await fileAt(root, "/404.html");
        status = 404;
        if (!file) {
          res.writeHead(404, { "content-type": "text/plain; charset=utf-8", ...extra }).end("Not found");
          return;
        }
      }
      const type = TYPES[extname(file).toLowerCase()] ?? "application/octet-stream";
      const immutable = /\/(_islands|_assets|_images)\//.test(path);
      const headers: Record<string, string> = {
        "content-type": type,
        "cache-control": immutable ? "public, max-age=31536000, immutable" : "no-cache",
        ...extra,
      };
      const gzip = acceptsGzip(req, type);
      if (COMPRESSIBLE.test(type)) headers.vary = "accept-encoding";
      if (gzip) headers["content-encoding"] = "gzip";
      if (type.startsWith("text/html") && options.transformHtml) {
        const { readFile } = await import("node:fs/promises");
        const html = options.transformHtml(await readFile(file, "utf8"));
        res.writeHead(status, headers).end(req.method === "HEAD" ? undefined : gzip ? gzipSync(html) : html);
        return;
      }
      res.writeHead(status, headers);
      if (req.method === "HEAD") {
        res.end();
        return;
      }
      const body = createReadStream(file).on("error", () => res.destroy());
      (gzip ? body.pipe(createGzip()) : body).pipe(res);
    } catch (error) {
      res.writeHead(500, { "content-type": "text/plain; charset=utf-8" }).end(`Server error: ${(error as Error).message}`);
    }
  });
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, options.host ?? "127.0.0.1", resolve));
  const address = server.address() as AddressInfo;
  return {
    url: `http://${options.host ?? "127.0.0.1"}:${address.port}`,
    server,
    stop: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
