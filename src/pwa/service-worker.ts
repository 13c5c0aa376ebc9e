/**
 * Generates /sw.js: esbuild bundles src/pwa/worker/sw-source.ts (Workbox's modules, minified, no
 * source map, no timestamps), then workbox-build's injectManifest adds the precache list (URLs with
 * content revisions, sorted). Same site in, byte-identical sw.js out; a changed precached file
 * changes sw.js, which is how browsers notice a new build.
 *
 * injectManifest rather than generateSW: generateSW bundles Workbox with rollup and terser on every
 * build (seconds); esbuild does the same in about a tenth of a second.
 */
import { mkdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { NzfError } from "../core/errors.js";

/** What the worker precaches, relative to the site root. */
export const PRECACHE_PATTERNS = ["_islands/**/*.js", "_assets/**/*.css", "offline.html", "404.html", "manifest.webmanifest", "icons/*.png", "favicon.svg"];

export interface ServiceWorkerResult {
  /** Precached URLs, for logs and tests. */
  urls: string[];
  bytes: number;
}

/**
 * The key of a service worker: its source and every file it precaches. workbox-build is slow to load
 * (seconds), so an unchanged key reuses the last worker written for it.
 */
async function serviceWorkerKey(options: { root: string; siteDir: string; ignore: string[] }): Promise<string> {
  const { createHash } = await import("node:crypto");
  const fg = (await import("fast-glob")).default;
  const hash = createHash("sha1");
  const sources = await fg("src/pwa/worker/**/*", { cwd: options.root });
  const files = await fg(PRECACHE_PATTERNS, { cwd: options.siteDir, ignore: options.ignore });
  for (const file of [...sources.map((f) => join(options.root, f)), ...files.sort().map((f) => join(options.siteDir, f))]) {
    hash.update(file.slice(file.startsWith(options.siteDir) ? options.siteDir.length : options.root.length)).update(await readFile(file));
  }
  return hash.digest("hex").slice(0, 16);
}

export async function generateServiceWorker(options: { root: string; siteDir: string; workDir: string; ignore?: string[] }): Promise<ServiceWorkerResult> {
  const ignore = options.ignore ?? [];
  const templateDir = join(options.workDir, "sw");
  await mkdir(templateDir, { recursive: true });
  const cached = join(templateDir, `sw-${await serviceWorkerKey({ ...options, ignore })}.js`);
  const saved = await readFile(cached, "utf8").catch(() => null);
  if (saved !== null) {
    await writeFile(join(options.siteDir, "sw.js"), saved);
    return { urls: [...saved.matchAll(/"url":"([^"]+)"/g)].map((m) => m[1]!), bytes: Buffer.byteLength(saved) };
  }
  const { build } = await import("esbuild");
  const template = join(templateDir, "sw-template.js");
  try {
    const result = await build({
      absWorkingDir: options.root,
      entryPoints: [join(options.root, "src/pwa/worker/sw-source.ts")],
      bundle: true,
      format: "iife",
      platform: "browser",
      target: ["es2020"],
      minify: true,
      write: false,
      legalComments: "none",
      logLevel: "silent",
      // Workbox strips its development logging when NODE_ENV is production.
      define: { "process.env.NODE_ENV": '"production"' },
    });
    await writeFile(template, result.outputFiles[0]!.contents);
  } catch (error) {
    throw new NzfError("ISLAND_BUNDLE_FAILED", `The service worker (src/pwa/worker/sw-source.ts) did not compile: ${(error as Error).message}`, { cause: error });
  }
  const { injectManifest } = await import("workbox-build");
  const swDest = join(options.siteDir, "sw.js");
  let result: Awaited<ReturnType<typeof injectManifest>>;
  try {
    result = await injectManifest({
      swSrc: template,
      swDest,
      globDirectory: options.siteDir,
      globPatterns: PRECACHE_PATTERNS,
      // The editor-only preview bundle is left out: donors never need it.
      globIgnores: ignore,
      // Names with a content hash change when their content does: no revision needed.
      dontCacheBustURLsMatching: /^_(islands|assets)\//,
      // The largest island bundle is far below this; a runaway bundle should still be precached.
      maximumFileSizeToCacheInBytes: 5 * 1024 * 1024,
    });
  } catch (error) {
    throw new NzfError("INTERNAL", `workbox-build could not write the service worker: ${(error as Error).message}`, { subject: swDest, cause: error });
  }
  if (result.warnings.length) throw new NzfError("INTERNAL", `workbox-build warned: ${result.warnings.join("; ")}`, { subject: swDest });
  const text = await readFile(swDest, "utf8");
  await writeFile(cached, text);
  const urls = [...text.matchAll(/"url":"([^"]+)"/g)].map((m) => m[1]!);
  return { urls, bytes: Buffer.byteLength(text) };
}
