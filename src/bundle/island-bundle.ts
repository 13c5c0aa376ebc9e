/**
 * Bundles the browser code with esbuild: one entry per island (`src/client/islands/<name>.tsx`,
 * wrapped in a generated entry that hydrates it) and one per plain script (`src/client/entries/<name>.ts`,
 * loaded by pages that need it without React). Code splitting puts the framework and shared code in
 * hashed chunks, so a donor's browser caches them once for every island.
 *
 * Islands hydrate with React 19 (react-dom/client), the same React that renders their HTML on the
 * server; React, react-dom and the hydration code end up in one shared chunk that only island pages
 * load (src/client/hydrate.ts). esbuild's define makes process.env.NODE_ENV "production", so React's
 * production build is bundled. The plain scripts (the page loader, with the site-wide scripts in it)
 * are a second esbuild run, and the editor-only preview a third: it renders the site's templates in
 * the browser with react-dom/server (see PREVIEW_URL).
 */
import { createHash } from "node:crypto";
import { mkdir, readdir, readFile, rm, stat, utimes } from "node:fs/promises";
import { basename, dirname, join, relative } from "node:path";
import type { BuildOptions, Metafile, Plugin } from "esbuild";
import { compileError } from "./compile-errors.js";
import { exists, writeFileAtomic } from "../core/fs.js";
import { NzfError } from "../core/errors.js";
import { cacheKey, cacheUnusable, familyFolder } from "../cache/entry.js";
import { hashInputsAfterBuild, startBundle, writeBundleRecord } from "./bundle-cache.js";
import { authStandIn } from "./auth-stand-in.js";
import { runEsbuild, type BundlerContexts } from "./bundler-contexts.js";

// What a page names of a bundle is part of what a template receives: the template kit owns the type.
export type { ClientAsset } from "../template-kit/types.js";
import type { ClientAsset } from "../template-kit/types.js";

/** A file of the browser bundles: its path under /_islands/ and where it was written. */
export interface ClientFile {
  path: string;
  from: string;
}

export interface ClientBundle {
  islands: Record<string, ClientAsset>;
  scripts: Record<string, ClientAsset>;
  /** Output files, published under dist/_islands. */
  files: ClientFile[];
}

const PUBLIC_PATH = "/_islands";

/**
 * V8's explicit compile hint: compile every function of the file while the browser streams it in,
 * off the main thread. Without it, evaluating React's chunk compiled react-dom's module body on the
 * main thread, a long task on every island page on Lighthouse's slowed CPU (figures in the commit
 * that added it). Chromium honours it for module scripts; other browsers ignore the comment.
 */
const COMPILE_EAGERLY = "//# allFunctionsCalledOnLoad";

async function listEntries(dir: string, pattern: RegExp): Promise<string[]> {
  try {
    return (await readdir(dir)).filter((f) => pattern.test(f)).sort();
  } catch {
    return [];
  }
}

function islandEntryPlugin(clientDir: string): Plugin {
  return {
    name: "nzf-island-entries",
    setup(build) {
      build.onResolve({ filter: /^nzf-island:/ }, (args) => ({
        path: args.path.slice("nzf-island:".length),
        namespace: "nzf-island",
      }));
      build.onLoad({ filter: /.*/, namespace: "nzf-island" }, (args) => ({
        resolveDir: clientDir,
        loader: "ts",
        contents: `import * as island from "./islands/${args.path}";\nimport { hydrateIslands } from "./hydrate";\nhydrateIslands(${JSON.stringify(args.path)}, island);\n`,
      }));
    },
  };
}

export interface BundleClientOptions {
  root: string;
  /** Where bundles are kept between builds (inside .nzf-cache). */
  cacheDir: string;
  /** Extra compile-time constants exposed to browser code as `process.env.<KEY>` (public values only). */
  publicEnv?: Record<string, string>;
  /**
   * More such constants for the preview bundle only (the preview's settings: repository, endpoint,
   * site URL). Islands and scripts never read them, so a change of them compiles the preview alone.
   */
  previewEnv?: Record<string, string>;
  /** esbuild contexts kept by a long-running process (watch mode), for incremental rebuilds. */
  contexts?: BundlerContexts;
}

/**
 * One esbuild run of the browser code, cached on its own record and published under its own
 * folder: a template edit recompiles the preview (it renders the templates), not the islands.
 */
interface BrowserRun {
  kind: "islands" | "scripts" | "preview";
  entryPoints: Record<string, string>;
  extra: Partial<BuildOptions>;
  /** Where the output is published (a site path). */
  publicPath: string;
}

/**
 * The editor's preview bundle (React, react-dom/server and the templates) at a fixed address. The
 * preview loader every page carries imports it from here, so the loader, and with it every page,
 * does not change when a template does; and the build renders pages while the preview compiles.
 * Served with revalidation (src/site-files/headers.ts); the service worker never precaches it.
 */
export const PREVIEW_DIR = "_preview";
export const PREVIEW_URL = `/${PREVIEW_DIR}/preview.js`;
const PREVIEW_ENTRY = "preview";

/** The esbuild context (BundlerContexts) each browser bundle is made with. */
const contextSlot = (kind: BrowserRun["kind"]) => `client:${kind}`;

/** Cancels the preview bundle's compile if one is running (BundlerContexts.cancel): it then fails. */
export function cancelPreviewBundle(contexts: BundlerContexts): Promise<void> {
  return contexts.cancel(contextSlot("preview"));
}

export async function bundleClient(options: BundleClientOptions): Promise<{ bundle: ClientBundle; cached: boolean }> {
  const clientDir = join(options.root, "src/client");
  const islands = (await listEntries(join(clientDir, "islands"), /\.tsx?$/)).map((f) =>
    basename(f).replace(/\.tsx?$/, ""),
  );
  const scripts = (await listEntries(join(clientDir, "entries"), /\.tsx?$/)).map((f) =>
    basename(f).replace(/\.tsx?$/, ""),
  );
  const runs: BrowserRun[] = [
    {
      kind: "islands",
      entryPoints: Object.fromEntries(islands.map((name) => [name, `nzf-island:${name}`])),
      extra: { plugins: [islandEntryPlugin(clientDir)], banner: { js: COMPILE_EAGERLY } },
      publicPath: PUBLIC_PATH,
    },
    {
      kind: "scripts",
      entryPoints: Object.fromEntries(scripts.map((name) => [name, join(clientDir, "entries", `${name}.ts`)])),
      extra: {},
      publicPath: PUBLIC_PATH,
    },
  ];
  const results = await Promise.all(
    runs.filter((run) => Object.keys(run.entryPoints).length).map((run) => bundleRun(run, options)),
  );
  const bundle: ClientBundle = { islands: {}, scripts: {}, files: [] };
  for (const result of results) {
    Object.assign(bundle[result.kind === "islands" ? "islands" : "scripts"], result.assets);
    bundle.files.push(...result.files);
  }
  // Both runs publish into one folder; their chunks have content-hashed names, so the same name is the same file.
  bundle.files = [...new Map(bundle.files.map((f) => [f.path, f])).values()].sort((a, b) =>
    a.path.localeCompare(b.path),
  );
  return { bundle, cached: results.every((r) => r.cached) };
}

export interface PreviewBundle {
  /** Files to publish, with their site paths (under _preview/). */
  files: ClientFile[];
  /** Changes whenever any of its files does (the bundle has a fixed address). */
  hash: string;
  cached: boolean;
}

/** The preview bundle (null when the project has no src/preview-app/entry.ts). */
export async function bundlePreview(options: BundleClientOptions): Promise<PreviewBundle | null> {
  const entry = join(options.root, "src/preview-app/entry.ts");
  if (!(await exists(entry))) return null;
  const result = await bundleRun(
    {
      kind: "preview",
      entryPoints: { [PREVIEW_ENTRY]: entry },
      extra: { entryNames: "[name]", plugins: [authStandIn(options.root)] },
      publicPath: `/${PREVIEW_DIR}`,
    },
    options,
  );
  const files = result.files.map((f) => ({ ...f, path: `${PREVIEW_DIR}/${f.path}` }));
  return {
    files,
    hash: createHash("sha1").update(JSON.stringify(result.outputHashes)).digest("hex").slice(0, 16),
    cached: result.cached,
  };
}

interface RunResult {
  kind: BrowserRun["kind"];
  assets: Record<string, ClientAsset>;
  /** Paths relative to the run's public folder. */
  files: ClientFile[];
  /** Each output's content hash (for a bundle with fixed names, which changes without renaming). */
  outputHashes: Record<string, string>;
  cached: boolean;
}

async function bundleRun(run: BrowserRun, options: BundleClientOptions): Promise<RunResult> {
  // Where the record names its files from (src/cache/entry.ts familyFolder).
  const cacheDir = await familyFolder(join(options.cacheDir, run.kind));
  const outDir = join(cacheDir, "out");
  // A new entry file or a changed public setting invalidates the cache even when no bundled file changed.
  // The alias is part of the key: a bundle built with another framework is never reused.
  const env = { ...options.publicEnv, ...(run.kind === "preview" ? options.previewEnv : {}) };
  const envKey = JSON.stringify({
    env,
    entries: Object.keys(run.entryPoints),
    alias: run.extra.alias ?? null,
    banner: run.extra.banner ?? null,
    plugins: (run.extra.plugins ?? []).map((p) => p.name),
    publicPath: run.publicPath,
  });
  // One record per such key: builds with other settings in one project (the webhook server's and
  // a developer's, or the sample's and live content's previews) each find their own bundle instead
  // of compiling again over the other's record.
  const recordFile = join(cacheDir, `record-${cacheKey(envKey)}.json`);
  const start = await startBundle<{ result: RunResult; envKey: string }>(recordFile, options.root, run.kind);
  const previous = start.reusable;
  if (previous && previous.result.envKey === envKey) {
    // Touched, so that another process's build with other outputs does not prune them (pruneOutputs).
    await touch(previous.result.result.files.map((f) => f.from));
    return { ...previous.result.result, cached: true };
  }

  const define: Record<string, string> = { "process.env.NODE_ENV": '"production"' };
  for (const [key, value] of Object.entries(env)) define[`process.env.${key}`] = JSON.stringify(value);
  let metafile: Metafile;
  /** Where each output (by esbuild's absolute path) is kept: see keptName. */
  const keptAs = new Map<string, string>();
  try {
    const result = await runEsbuild(options.contexts, contextSlot(run.kind), {
      absWorkingDir: options.root,
      outdir: outDir,
      bundle: true,
      splitting: true,
      format: "esm",
      platform: "browser",
      target: ["es2020", "chrome100", "safari15", "firefox100"],
      minify: true,
      metafile: true,
      // Written by us, each file atomically beside the others: another nzf-build process on the same
      // project may be linking this folder's files into its site right now (issue 36), so nothing
      // here is ever cleared or half-written. Names carry a content hash (keptName).
      write: false,
      entryNames: "[name]-[hash]",
      chunkNames: "chunks/[name]-[hash]",
      jsx: "automatic",
      define,
      legalComments: "none",
      logLevel: "silent",
      entryPoints: run.entryPoints,
      ...run.extra,
    });
    metafile = result.metafile!;
    await mkdir(outDir, { recursive: true }).catch((error: unknown) => {
      throw cacheUnusable(outDir, error);
    });
    await Promise.all(
      (result.outputFiles ?? []).map(async (output) => {
        const bytes = Buffer.from(output.contents.buffer, output.contents.byteOffset, output.contents.byteLength);
        const file = keptName(output.path, bytes, outDir, run);
        keptAs.set(output.path, file);
        await mkdir(dirname(file), { recursive: true });
        await writeFileAtomic(file, bytes).catch((error: unknown) => {
          throw cacheUnusable(file, error);
        });
      }),
    );
  } catch (error) {
    if (error instanceof NzfError && error.code === "CACHE_UNUSABLE") throw error;
    // An island's own error is labelled as the island's (ISLAND_COMPILE_FAILED), naming its file and line.
    throw compileError(error, "The browser code", "ISLAND_BUNDLE_FAILED");
  }

  const outputs = metafile.outputs;
  const sizes = new Map(Object.entries(outputs).map(([file, out]) => [file, out.bytes]));
  const publicPath = (file: string) => relative(outDir, join(options.root, file)).split("\\").join("/");
  const urlOf = (file: string) => `${run.publicPath}/${publicPath(file)}`;
  const closure = (file: string, seen = new Set<string>()): Set<string> => {
    for (const imp of outputs[file]?.imports ?? []) {
      if (imp.kind === "import-statement" && !seen.has(imp.path)) {
        seen.add(imp.path);
        closure(imp.path, seen);
      }
    }
    return seen;
  };
  const keptFile = (file: string) => keptAs.get(join(options.root, file)) ?? join(options.root, file);
  const result: RunResult = { kind: run.kind, assets: {}, files: [], outputHashes: {}, cached: false };
  for (const [file, out] of Object.entries(outputs)) {
    if (file.endsWith(".map")) continue;
    result.files.push({ path: publicPath(file), from: keptFile(file) });
    result.outputHashes[publicPath(file)] = createHash("sha1")
      .update(await readFile(keptFile(file)))
      .digest("hex");
    // Dynamically imported modules (Amplify, Stripe's loader) are entry points to esbuild too, but live in chunks/.
    if (!out.entryPoint || file.includes("/chunks/")) continue;
    const name = basename(file).replace(/-[A-Z0-9]+\.js$/, "");
    const deps = [...closure(file)].sort();
    result.assets[name] = {
      src: urlOf(file),
      imports: deps.map(urlOf),
      bytes: out.bytes + deps.reduce((n, d) => n + (sizes.get(d) ?? 0), 0),
    };
  }
  result.files.sort((a, b) => a.path.localeCompare(b.path));
  const inputs = await hashInputsAfterBuild(options.root, Object.keys(metafile.inputs), start);
  await writeBundleRecord(
    recordFile,
    { inputs, result: { result, envKey } },
    result.files.map((f) => f.from),
  );
  await pruneOutputs(outDir, new Set(Object.keys(outputs).map(keptFile)));
  return result;
}

/**
 * Where an output is kept in the shared out/ folder: at esbuild's path when its name carries the
 * hash of its content (islands, scripts, chunks), else (the preview's fixed name) with that hash
 * added. Two processes that compile one bundle with other settings (another repository's preview)
 * then never write one file's name with different bytes: neither links the other's into its site
 * nor records the other's hash for its own compile. The site publishes it under its fixed name.
 */
function keptName(path: string, bytes: Buffer, outDir: string, run: BrowserRun): string {
  const fixedName = run.extra.entryNames === "[name]" && !relative(outDir, path).startsWith("chunks/");
  if (!fixedName) return path;
  const hash = createHash("sha1").update(bytes).digest("hex").slice(0, 12);
  const dot = path.lastIndexOf(".");
  return `${path.slice(0, dot)}.kept-${hash}${path.slice(dot)}`;
}

/** Files of earlier compiles that another process may still be linking: kept this long after last use. */
const PRUNE_AFTER_MS = 10 * 60_000;

/** Removes the output files of earlier compiles that nothing has used for PRUNE_AFTER_MS. */
async function pruneOutputs(outDir: string, keep: Set<string>): Promise<void> {
  const cutoff = Date.now() - PRUNE_AFTER_MS;
  const entries = await readdir(outDir, { recursive: true, withFileTypes: true }).catch(() => []);
  await Promise.all(
    entries
      .filter((entry) => entry.isFile())
      .map(async (entry) => {
        const file = join(entry.parentPath, entry.name);
        if (keep.has(file)) return;
        const info = await stat(file).catch(() => null);
        if (info && info.mtimeMs < cutoff) await rm(file, { force: true });
      }),
  );
}

async function touch(files: string[]): Promise<void> {
  const now = new Date();
  await Promise.all(files.map((file) => utimes(file, now, now).catch(() => undefined)));
}
