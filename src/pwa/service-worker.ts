/**
 * Generates /sw.js: esbuild bundles src/pwa/worker/sw-source.ts (Workbox's runtime modules,
 * minified, no source map, no timestamps), with the precache list (URLs with content revisions,
 * sorted) put where the worker reads `self.__WB_MANIFEST`. The same site gives a byte-identical
 * sw.js; a changed precached file changes sw.js, which is how browsers notice a new build.
 *
 * Why not workbox-build: its injectManifest does exactly this (glob, hash, replace one identifier),
 * but it loads babel and rollup to do it (seconds per build), and rollup's platform packages make
 * `npm ci` fail against a registry that lacks the other platforms' builds. We keep Workbox where it
 * matters, in the worker (workbox-precaching, -routing, -strategies, -expiration).
 */
import { createHash } from "node:crypto";
import { mkdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { NzfError } from "../core/errors.js";

/** What the worker precaches, relative to the site root: island code, CSS, offline and 404 pages, app icons. */
const PRECACHED = [/^_islands\/.+\.js$/, /^_assets\/.+\.css$/, /^offline\.html$/, /^404\.html$/, /^manifest\.webmanifest$/, /^icons\/[^/]+\.png$/, /^favicon\.svg$/];

/** Names with a content hash change whenever their content does: they need no revision. */
const HASHED = /^_(islands|assets)\//;
const MAX_PRECACHE_BYTES = 5 * 1024 * 1024;
const PLACEHOLDER = "__NZF_PRECACHE_MANIFEST__";

export interface ServiceWorkerResult {
  /** Precached URLs, for logs and tests. */
  urls: string[];
  bytes: number;
  /** The worker's code, for /sw.js. */
  text: string;
}

/** The files of a site and a way to read them (the new site before it is published, or a folder). */
export interface SiteFiles {
  files: string[];
  read(file: string): Promise<Buffer>;
  /** The size of a file without reading it: content-hashed files need only their size checked. */
  size(file: string): Promise<number>;
}

export interface PrecacheEntry {
  url: string;
  revision: string | null;
}

/** The precache manifest of a site: sorted, revisions as md5 of content (as Workbox does). */
export async function precacheManifest(site: SiteFiles, ignore: string[] = []): Promise<PrecacheEntry[]> {
  const skip = new Set(ignore);
  const files = site.files.filter((file) => !skip.has(file) && PRECACHED.some((pattern) => pattern.test(file))).sort();
  const entries: PrecacheEntry[] = [];
  for (const file of files) {
    // A content-hashed name needs no revision, so only its size is checked.
    const bytes = HASHED.test(file) ? null : await site.read(file);
    const size = bytes?.length ?? (await site.size(file));
    if (size > MAX_PRECACHE_BYTES) {
      throw new NzfError("INTERNAL", `${file} is ${size} bytes, too large to precache in the service worker`, { subject: file });
    }
    entries.push({ url: file, revision: bytes && createHash("md5").update(bytes).digest("hex") });
  }
  return entries;
}

/** Builds the worker for a site (its files and their content); the caller writes it to /sw.js. */
export async function generateServiceWorker(options: SiteFiles & { root: string; workDir: string; ignore?: string[] }): Promise<ServiceWorkerResult> {
  const manifest = await precacheManifest(options, options.ignore ?? []);
  const source = join(options.root, "src/pwa/worker/sw-source.ts");
  const cacheDir = join(options.workDir, "sw");
  await mkdir(cacheDir, { recursive: true });
  // The bundled worker depends only on its source and the manifest: reuse it when neither changed.
  const key = createHash("sha1")
    .update(await readFile(source))
    .update(JSON.stringify(manifest))
    .digest("hex")
    .slice(0, 16);
  const cached = join(cacheDir, `sw-${key}.js`);
  let text = await readFile(cached, "utf8").catch(() => null);
  if (text === null) {
    const { build } = await import("esbuild");
    try {
      const result = await build({
        absWorkingDir: options.root,
        entryPoints: [source],
        bundle: true,
        format: "iife",
        platform: "browser",
        target: ["es2020"],
        minify: true,
        write: false,
        legalComments: "none",
        logLevel: "silent",
        // Workbox strips its development logging when NODE_ENV is production. The manifest replaces a
        // placeholder afterwards, as plain JSON (minifying would rewrite its keys).
        define: { "process.env.NODE_ENV": '"production"', "self.__WB_MANIFEST": PLACEHOLDER },
      });
      const bundled = result.outputFiles[0]!.text;
      if (!bundled.includes(PLACEHOLDER)) throw new Error("the worker does not read self.__WB_MANIFEST");
      text = bundled.replace(PLACEHOLDER, () => JSON.stringify(manifest));
    } catch (error) {
      throw new NzfError("ISLAND_BUNDLE_FAILED", `The service worker (src/pwa/worker/sw-source.ts) did not compile: ${(error as Error).message}`, { cause: error });
    }
    await writeFile(cached, text);
  }
  return { urls: manifest.map((m) => m.url), bytes: Buffer.byteLength(text), text };
}
