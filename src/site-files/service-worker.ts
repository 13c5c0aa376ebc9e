/**
 * Generates /sw.js in two steps:
 * 1. esbuild bundles src/site-files/worker/sw-source.ts (Workbox's runtime modules, minified, no source
 *    map, no timestamps). The bundle depends only on that source and Workbox's version, so it is
 *    kept in the work folder and reused.
 * 2. workbox-build's `injectManifest` globs the new site for what to precache, gives each file a
 *    revision (the md5 of its content; none for content-hashed names, whose name changes with their
 *    content) and writes the list where the worker reads `self.__WB_MANIFEST`.
 *
 * The new site is not whole yet when sw.js is made (src/publish/site-output.ts: new files are in
 * the new version's tree, unchanged ones only in the published one), so step 2 globs a "precache view": the candidate
 * files hard-linked at their site paths, a few dozen links. The same site gives a byte-identical
 * sw.js; a changed precached file changes sw.js, which is how browsers notice a new build.
 *
 * Loading workbox-build and validating its options costs a new process real CPU time, so each
 * worker made is also kept in the work folder under the hash of what it was made from (the worker
 * source, the options and every precached file's content): a CLI build whose precached files are
 * unchanged (a content edit, a build from the content cache) takes it from there, as a long-running
 * process takes it from memory.
 *
 * workbox-build is pinned to 7.4.0, its last release on rollup 2: 7.4.1 moved to rollup 4, whose
 * per-platform packages made `npm ci` fail against a registry that lacks the other platforms' builds.
 * Only `injectManifest` is loaded (once per process): `generateSW`, which would load
 * babel and rollup to bundle the worker, is not used; esbuild does that part.
 */
import { createHash } from "node:crypto";
import { mkdir, mkdtemp, readdir, readFile, rm, stat } from "node:fs/promises";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { NzfError } from "../core/errors.js";
import { exists, linkOrCopy, writeFileAtomic } from "../core/fs.js";
import { hashFile } from "../cache/file-hash.js";
import { familyFolder, hashBytes, readJsonEntry, verifyFiles, writeJsonEntry } from "../cache/entry.js";

/** What the worker precaches, relative to the site root: island code, CSS, offline and 404 pages, app icons. */
export const PRECACHE_PATTERNS = [
  "_islands/**/*.js",
  "_assets/*.css",
  "offline.html",
  "404.html",
  "manifest.webmanifest",
  "icons/*.png",
];
/** The same patterns for picking the candidates to link into the precache view. */
const CANDIDATE =
  /^(_islands\/.+\.js|_assets\/[^/]+\.css|offline\.html|404\.html|manifest\.webmanifest|icons\/[^/]+\.png)$/;
/** Names with a content hash change whenever their content does: they need no revision. */
const HASHED = /^_(islands|assets)\//;
const MAX_PRECACHE_BYTES = 5 * 1024 * 1024;
/** Workers kept in the work folder (worker-<key>.json): the newest few, enough for switching branches. */
const STORED_WORKERS = 8;
const STORED = /^worker-[0-9a-f]{16}\.json$/;

export interface ServiceWorkerResult {
  /** Precached URLs, for logs and tests. */
  urls: string[];
  bytes: number;
  /** The worker's code, for /sw.js. */
  text: string;
}

/** The files of the new site and where each one's content is on disk (staged or published). */
export interface SiteFiles {
  files: string[];
  pathOf(file: string): string;
}

interface ManifestEntry {
  url: string;
  revision: string | null;
}
type InjectManifest = (
  options: Record<string, unknown>,
) => Promise<{ count: number; size: number; warnings: string[] }>;

let injectManifestFn: InjectManifest | undefined;
/** workbox-build's injectManifest alone (its index would load generateSW, babel and rollup too). */
function injectManifest(): InjectManifest {
  if (!injectManifestFn) {
    const require = createRequire(import.meta.url);
    injectManifestFn = (require("workbox-build/build/inject-manifest.js") as { injectManifest: InjectManifest })
      .injectManifest;
    // Its first call compiles the options' JSON schema: do that now too.
    const { validateInjectManifestOptions } = require("workbox-build/build/lib/validate-options.js") as {
      validateInjectManifestOptions(o: object): unknown;
    };
    try {
      validateInjectManifestOptions({ swSrc: "sw-source.js", swDest: "sw.js", globDirectory: "." });
    } catch {
      // Only the schema's compilation was wanted.
    }
  }
  return injectManifestFn;
}

/**
 * Loads workbox-build (costly in a new process) ahead of use, while the render workers
 * work, so sw.js does not wait for it at the end. Only for a work folder that has no stored worker
 * yet (a first build, as in CI): otherwise the stored one is likely to fit, and loading the tools
 * would take a core from the render for nothing.
 */
export async function preloadServiceWorkerTools(workDir: string): Promise<void> {
  const stored = await readdir(join(workDir, "sw")).catch(() => [] as string[]);
  if (stored.some((name) => STORED.test(name))) return;
  setTimeout(() => {
    try {
      injectManifest();
    } catch {
      // generateServiceWorker loads it again and reports what is wrong.
    }
  }, 0).unref();
}

/** The bundled worker source with `self.__WB_MANIFEST` still in it, from the work folder when it is there. */
async function bundledWorker(root: string, cacheDir: string): Promise<string> {
  const source = join(root, "src/site-files/worker/sw-source.ts");
  const workbox = await hashFile(join(root, "node_modules/workbox-precaching/package.json"));
  const key = createHash("sha1")
    .update(`${await hashFile(source)}:${workbox}`)
    .digest("hex")
    .slice(0, 16);
  const cached = join(cacheDir, `sw-source-${key}.js`);
  // workbox reads the source from its file, so the file stays plain JavaScript and its record beside it holds its hash.
  const record = `${cached}.json`;
  const kept = (await exists(cached)) ? await readJsonEntry<{ sha256?: string }>(record, "service worker") : null;
  if (
    typeof kept?.sha256 === "string" &&
    (await verifyFiles({ [cached]: kept.sha256 }, "service worker", record)) === null
  )
    return cached;
  const { build } = await import("esbuild");
  try {
    const result = await build({
      absWorkingDir: root,
      entryPoints: [source],
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
    const text = result.outputFiles[0]!.text;
    if (!text.includes("self.__WB_MANIFEST")) throw new Error("the worker does not read self.__WB_MANIFEST");
    await writeFileAtomic(cached, text);
    await writeJsonEntry(record, { sha256: hashBytes(text) });
    return cached;
  } catch (error) {
    throw new NzfError(
      "ISLAND_BUNDLE_FAILED",
      `The service worker (src/site-files/worker/sw-source.ts) did not compile: ${(error as Error).message}`,
      { cause: error },
    );
  }
}

/** Workers a caller made or read (src/pipeline/builder.ts), by the kept file's name (the hash of what they were made from). */
export type ServiceWorkerMemory = Map<string, ServiceWorkerResult>;

/** Builds the worker for a site; the caller writes it to /sw.js. `ignore`: candidates never precached. */
export async function generateServiceWorker(
  options: SiteFiles & { root: string; workDir: string; ignore?: string[]; memory?: ServiceWorkerMemory },
): Promise<ServiceWorkerResult> {
  const madeWorkers = options.memory ?? new Map<string, ServiceWorkerResult>();
  // By its real path, which the stored worker's key names (src/cache/entry.ts familyFolder).
  const cacheDir = await familyFolder(join(options.workDir, "sw"));
  const swSrc = await bundledWorker(options.root, cacheDir);
  const candidates = options.files.filter((file) => CANDIDATE.test(file));
  // Made from the same files before (a content edit leaves them all as they were): that worker,
  // from memory or the work folder, without linking and globbing again. The candidates' hashes are
  // memoized by file identity, so this costs a stat per file in a long-running process.
  const storedFile = join(cacheDir, `worker-${await contentKey(options, swSrc, candidates)}.json`);
  const known = madeWorkers.get(storedFile) ?? (await readStored(storedFile));
  if (known) {
    madeWorkers.set(storedFile, known);
    return known;
  }
  const view = await mkdtemp(join(cacheDir, "view-"));
  try {
    for (const dir of new Set(candidates.map((file) => dirname(file))))
      await mkdir(join(view, "site", dir), { recursive: true });
    await Promise.all(candidates.map((file) => linkOrCopy(options.pathOf(file), join(view, "site", file))));
    const swDest = join(view, "sw.js");
    const urls: string[] = [];
    const { warnings } = await injectManifest()({
      swSrc,
      swDest,
      globDirectory: join(view, "site"),
      globPatterns: PRECACHE_PATTERNS,
      globIgnores: options.ignore ?? [],
      dontCacheBustURLsMatching: HASHED,
      maximumFileSizeToCacheInBytes: MAX_PRECACHE_BYTES,
      // Sorted, so the same site gives the same sw.js whatever order the glob found files in.
      manifestTransforms: [
        (entries: ManifestEntry[]) => {
          const manifest = entries
            .map(({ url, revision }) => ({ url, revision }))
            .sort((a, b) => (a.url < b.url ? -1 : a.url > b.url ? 1 : 0));
          urls.push(...manifest.map((entry) => entry.url));
          return { manifest, warnings: [] };
        },
      ],
    });
    // Workbox skips a file over the size limit with a warning: a worker that silently lacks part of
    // the site would break offline visits, so the build stops instead. A pattern with nothing to
    // match (a site with no islands yet) is no problem.
    const problems = warnings.filter((warning) => !/doesn't match any files/.test(warning));
    if (problems.length)
      throw new NzfError(
        "INTERNAL",
        `The service worker's precache list could not be made: ${problems.join("; ")}. Make the file smaller, or leave it out of PRECACHE_PATTERNS in src/site-files/service-worker.ts`,
        { subject: "/sw.js" },
      );
    const text = await readFile(swDest, "utf8");
    const result = { urls, bytes: Buffer.byteLength(text), text };
    madeWorkers.set(storedFile, result);
    await store(storedFile, result);
    return result;
  } finally {
    await rm(view, { recursive: true, force: true });
  }
}

/** What a worker is made from, by content: the source bundle, workbox-build's version, the options, and each candidate's bytes. */
async function contentKey(
  options: SiteFiles & { root: string; ignore?: string[] },
  swSrc: string,
  candidates: string[],
): Promise<string> {
  const files = await Promise.all(candidates.map(async (file) => [file, await hashFile(options.pathOf(file))]));
  const workboxBuild = await hashFile(join(options.root, "node_modules/workbox-build/package.json"));
  const made = [swSrc, workboxBuild, PRECACHE_PATTERNS, HASHED.source, MAX_PRECACHE_BYTES, options.ignore ?? [], files];
  return createHash("sha1").update(JSON.stringify(made)).digest("hex").slice(0, 16);
}

async function readStored(file: string): Promise<ServiceWorkerResult | null> {
  // None yet, or damaged: made again.
  const stored = await readJsonEntry<ServiceWorkerResult>(file, "service worker");
  return stored && typeof stored.text === "string" && Array.isArray(stored.urls)
    ? { urls: stored.urls, bytes: Buffer.byteLength(stored.text), text: stored.text }
    : null;
}

/** Keeps a worker (written whole, then renamed) and drops all but the newest few. */
async function store(file: string, result: ServiceWorkerResult): Promise<void> {
  const dir = dirname(file);
  try {
    await writeJsonEntry(file, { urls: result.urls, text: result.text });
    const stored = await Promise.all(
      (await readdir(dir))
        .filter((name) => STORED.test(name))
        .map(async (name) => ({ name, at: (await stat(join(dir, name))).mtimeMs })),
    );
    for (const old of stored.sort((a, b) => b.at - a.at).slice(STORED_WORKERS))
      await rm(join(dir, old.name), { force: true });
  } catch {
    // Not kept: the next process makes it again.
  }
}
