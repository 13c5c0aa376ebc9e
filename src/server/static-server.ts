/**
 * Serves a built site from a folder over HTTP, the way the production host does: the trailing-slash
 * policy (`/about` → 301 `/about/`), `index.html` for folders, `404.html` with status 404 for unknown
 * paths, long cache lifetimes for hashed assets, and text compressed with gzip when the browser
 * accepts it (CloudFront's "compress objects automatically", docs/deploy.md). Used by watch mode and
 * tests that serve a folder; the site with its `_headers` (the CSP) is served as `nzf-build preview`
 * serves it (preview-server.ts), which the browser tests and the Lighthouse bench use.
 *
 * A file is served only if its real path (symlinks resolved) is inside the real path of the root,
 * resolved per request because the root itself may be a symlink that a publish swaps.
 */
import { readFileSync } from "node:fs";
import { open, readFile, realpath, stat } from "node:fs/promises";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { createGzip, gzipSync } from "node:zlib";
import type { AddressInfo } from "node:net";
import { extname, join, normalize, sep } from "node:path";
import type { Logger } from "../core/logger.js";
import { normalizePath } from "../content/routes.js";
import { BadRequest, guard, hardenServer, parseTarget, serverOptions } from "./http-guard.js";

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
  /** Handles a request first (watch mode's live-reload endpoint); return true when handled. */
  intercept?: (req: IncomingMessage, res: ServerResponse) => boolean;
  /** Changes an HTML page before it is sent (watch mode injects its reload client). */
  transformHtml?: (html: string) => string;
  /** Refused requests and server errors are logged here (watch mode: its terminal). */
  logger?: Logger;
}

export interface StaticServer {
  url: string;
  server: Server;
  stop(): Promise<void>;
}

const inside = (dir: string, path: string) => path === dir || path.startsWith(dir.endsWith(sep) ? dir : dir + sep);

/** The real path of the file to serve for `decodedPath`, or null (missing, or outside the root once symlinks are resolved). */
async function fileAt(root: string, decodedPath: string): Promise<string | null> {
  const full = normalize(join(root, decodedPath));
  if (!inside(root, full)) return null;
  try {
    const realRoot = await realpath(root);
    let real = await realpath(full);
    let info = await stat(real);
    if (info.isDirectory()) {
      real = await realpath(join(real, "index.html"));
      info = await stat(real);
    }
    return info.isFile() && inside(realRoot, real) ? real : null;
  } catch {
    return null; // not found
  }
}

export async function startStaticServer(options: StaticServerOptions): Promise<StaticServer> {
  const rootOf = () => (typeof options.root === "function" ? options.root() : options.root);
  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    {
      let target: ReturnType<typeof parseTarget>;
      try {
        target = parseTarget(req.url);
      } catch (error) {
        if (!(error instanceof BadRequest)) throw error;
        options.logger?.warn(
          "watch",
          `static server: refused ${String(req.method)} (${error.status}): ${error.message}`,
        );
        res.writeHead(error.status, { "content-type": "text/plain; charset=utf-8" }).end(error.message + "\n");
        return;
      }
      if (options.intercept?.(req, res)) return;
      const path = target.path;
      if (req.method !== "GET" && req.method !== "HEAD") {
        res.writeHead(405, { allow: "GET, HEAD" }).end();
        return;
      }
      // The trailing-slash policy: page paths end in "/", file paths never do.
      const wanted = normalizePath(path);
      if (wanted !== path && !extname(path)) {
        res.writeHead(301, { location: wanted + target.search }).end();
        return;
      }
      const root = rootOf();
      let file = await fileAt(root, target.decodedPath);
      let status = 200;
      if (!file) {
        file = await fileAt(root, "/404.html");
        status = 404;
        if (!file) {
          res.writeHead(404, { "content-type": "text/plain; charset=utf-8" }).end("Not found");
          return;
        }
      }
      const type = TYPES[extname(file).toLowerCase()] ?? "application/octet-stream";
      const immutable = /\/(_islands|_assets|_images)\//.test(path);
      const headers: Record<string, string> = {
        "content-type": type,
        "cache-control": immutable ? "public, max-age=31536000, immutable" : "no-cache",
      };
      const gzip = acceptsGzip(req, type);
      if (COMPRESSIBLE.test(type)) headers.vary = "accept-encoding";
      if (gzip) headers["content-encoding"] = "gzip";
      if (type.startsWith("text/html") && options.transformHtml) {
        const html = options.transformHtml(await readFile(file, "utf8"));
        res.writeHead(status, headers).end(req.method === "HEAD" ? undefined : gzip ? gzipSync(html) : html);
        return;
      }
      // Opened before the answer starts: a file that cannot be read (EACCES, EIO) is a 500 with the
      // site's 500.html (the guard), not a 200 cut short.
      const handle = await open(file, "r");
      res.writeHead(status, headers);
      if (req.method === "HEAD") {
        await handle.close();
        res.end();
        return;
      }
      const body = handle.createReadStream().on("error", () => res.destroy());
      (gzip ? body.pipe(createGzip()) : body).pipe(res);
    }
  };
  const server = createServer(
    serverOptions(),
    guard(handle, {
      logger: options.logger,
      label: "watch",
      name: "static server",
      // The built site's own page for server errors, as CloudFront serves it (src/deploy/edge-files.ts).
      errorPage: () => {
        try {
          return readFileSync(join(rootOf(), "500.html"), "utf8");
        } catch {
          return null;
        }
      },
    }),
  );
  hardenServer(server, { logger: options.logger, label: "watch", name: "static server" });
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
