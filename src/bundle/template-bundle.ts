/**
 * Compiles templates/ (with the src/render helpers they import) into one ESM file with esbuild and
 * loads it. The file name carries a content hash, so after a template edit the next build imports
 * a new module: Node's module cache never serves a stale template (watch mode relies on this).
 * When no input changed, esbuild is skipped and the previous file is imported again.
 */
import { createHash, randomUUID } from "node:crypto";
import { mkdir, readFile } from "node:fs/promises";
import { basename, dirname, join, relative, resolve } from "node:path";
import { loadCompiledModule } from "./code-cache.js";
import { compileError } from "./compile-errors.js";
import { CHANGED_DURING_BUILD, hashInputsAfterBuild, startBundle, writeBundleRecord } from "./bundle-cache.js";
import type { PageBody, PageFrame, RenderInput, RenderOutput } from "../template-kit/types.js";
import { exists, writeFileAtomic } from "../core/fs.js";
import { cacheUnusable, familyFolder, hashBytes, hashOfFileOrNull } from "../cache/entry.js";
import { runEsbuild, type BundlerContexts } from "./bundler-contexts.js";
import { authStandIn } from "./auth-stand-in.js";
import { templateModulesOf } from "./template-modules.js";
import type { Plugin } from "esbuild";

export interface TemplateModule {
  renderPage(input: RenderInput): RenderOutput;
  renderBody(input: RenderInput): PageBody;
  renderFrame(input: RenderInput, body: PageBody): PageFrame;
  TEMPLATES: Record<string, unknown>;
}

export interface TemplateBundle {
  /** Imports the compiled templates (React and all): only when pages are actually rendered. */
  load(): Promise<TemplateModule>;
  /** Hash of the compiled templates: part of every page's inputs. */
  hash: string;
  /** The compiled module (render workers import it themselves). */
  file: string;
  /** Hash of the sources page bodies are made of: all inputs but those only the frame imports (see bodyHashOf). */
  bodyHash: string;
  /** The same for the bodies of one template: all inputs but the frame's and the other page templates' modules. */
  bodyHashFor(template: string): string;
  cached: boolean;
}

/** A module compiled for Node with its dependencies left to node_modules, reused while its inputs are unchanged. */
export interface NodeModuleBundle {
  file: string;
  hash: string;
  /** Each project input's hash, and the project files it imports. */
  sources: Record<string, { hash: string; imports: string[] }>;
  cached: boolean;
}

/**
 * Compiles `entry` (relative to the project) into `dir` as `<name>-<hash>.mjs` (`.cjs` with its
 * packages bundled). The folder must be inside the project (not the OS temp dir) so bare imports
 * like "react" resolve from node_modules.
 */
export async function compileNodeModule(
  root: string,
  dir: string,
  entry: string,
  name: string,
  what: string,
  contexts?: BundlerContexts,
  plugins: Plugin[] = [],
  options: { bundlePackages?: boolean } = {},
): Promise<NodeModuleBundle> {
  // Where the record names its files from (src/cache/entry.ts familyFolder).
  dir = await familyFolder(dir);
  const recordFile = join(dir, "record.json");
  const start = await startBundle<{
    file: string;
    hash: string;
    imports: Record<string, string[]>;
    variant?: string[];
  }>(recordFile, root, basename(dir));
  const previous = start.reusable;
  // The plugins and whether packages are bundled are part of the key: a bundle made another way is
  // not reused even when no input changed. A record from before import graphs were kept is compiled again.
  const variant = [
    ...plugins.map((p) => p.name),
    ...(options.bundlePackages ? ["packages bundled", "commonjs"] : []),
    "source map",
  ];
  if (
    previous?.result.imports &&
    JSON.stringify(previous.result.variant ?? null) === JSON.stringify(variant) &&
    (await exists(previous.result.file))
  ) {
    const { file, hash, imports } = previous.result;
    return { file, hash, sources: sourcesOf(previous.inputs, imports), cached: true };
  }
  const extension = options.bundlePackages ? ".cjs" : ".mjs";
  let result: Awaited<ReturnType<typeof runEsbuild>>;
  try {
    result = await runEsbuild(contexts, `node:${entry}`, {
      absWorkingDir: root,
      entryPoints: [entry],
      bundle: true,
      write: false,
      platform: "node",
      // Bundled packages need no resolving when the module is loaded, so the templates load several
      // times faster than with React left to node_modules, in every render worker of a new process.
      // Such a module is CommonJS, loaded through V8's code cache (./code-cache.ts); one that
      // imports its packages is ES, imported.
      format: options.bundlePackages ? "cjs" : "esm",
      target: "node20.19",
      ...(options.bundlePackages ? {} : { packages: "external" as const }),
      jsx: "automatic",
      metafile: true,
      logLevel: "silent",
      define: { "process.env.NODE_ENV": '"production"' },
      // A map beside the module (no comment in it, so Node never loads it): a page that fails to
      // render is named by template file and line (src/render/template-errors.ts).
      sourcemap: "external",
      sourcesContent: false,
      outfile: join(dir, `${name}${extension}`),
      plugins,
    });
  } catch (error) {
    throw compileError(error, what, "TEMPLATE_BUNDLE_FAILED");
  }
  const code = result.outputFiles!.find((f) => f.path.endsWith(extension))!.contents;
  const map = result.outputFiles!.find((f) => f.path.endsWith(".map"));
  const hash = createHash("sha1").update(code).digest("hex").slice(0, 12);
  const file = join(dir, `${name}-${hash}${extension}`);
  // The map is written first, so a module on disk has its map; and always, since a comment-only
  // edit moves lines without changing the module's code (nor its name).
  if (map) await writeEntryFile(`${file}.map`, Buffer.from(projectRelativeMap(map.text, dirname(map.path), root)));
  // Written unless a file with these very bytes is there (a corrupt one under the same name is replaced).
  if ((await hashOfFileOrNull(file)) !== hashBytes(code)) await writeEntryFile(file, code);
  const inputs = await hashInputsAfterBuild(root, Object.keys(result.metafile!.inputs), start);
  const imports: Record<string, string[]> = {};
  // The project's own import graph (node_modules stands as the lock file in the inputs' hashes).
  const ownImports = (path: string) => !path.includes("node_modules/");
  for (const [input, about] of Object.entries(result.metafile!.inputs)) {
    if (ownImports(input))
      imports[input] = about.imports.filter((i) => !i.external && ownImports(i.path)).map((i) => i.path);
  }
  await writeBundleRecord(
    recordFile,
    { inputs, result: { file, hash, imports, variant } },
    map ? [file, `${file}.map`] : [file],
  );
  return { file, hash, sources: sourcesOf(inputs, imports), cached: false };
}

/** The map with its sources relative to the project (esbuild writes them relative to the module's folder), as errors name them. */
function projectRelativeMap(text: string, mapDir: string, root: string): string {
  const map = JSON.parse(text) as { sources: string[] };
  map.sources = map.sources.map((source) => relative(root, resolve(mapDir, source)).split("\\").join("/"));
  return JSON.stringify(map);
}

async function writeEntryFile(file: string, code: Uint8Array): Promise<void> {
  try {
    await mkdir(join(file, ".."), { recursive: true });
    await writeFileAtomic(file, Buffer.from(code.buffer, code.byteOffset, code.byteLength));
  } catch (error) {
    throw cacheUnusable(file, error);
  }
}

function sourcesOf(hashes: Record<string, string>, imports: Record<string, string[]>): NodeModuleBundle["sources"] {
  return Object.fromEntries(
    Object.entries(hashes).map(([input, hash]) => [input, { hash, imports: imports[input] ?? [] }]),
  );
}

const TEMPLATE_ENTRY = "templates/entry.tsx";

/** What frames a page (layout, document head): imported by the entry only, so a body never depends on it. */
const FRAME_SOURCES = ["templates/components/layout.tsx", "templates/document.ts"];

/**
 * The hash of the sources a page body can depend on: everything the entry reaches, except through
 * its imports of the frame modules. A page template that imports one of them itself brings it in.
 * The lock file stands for node_modules (React and the Prismic helpers).
 *
 * For the body of one template (`own`, the module it comes from: ./template-modules.ts), the other
 * page modules are left out the same way: an edit of templates/pages/faq.tsx renders again the
 * FAQ's bodies alone. A module another one imports is still reached through that one.
 */
export function bodyHashOf(
  entry: string,
  sources: NodeModuleBundle["sources"],
  template?: { own: string; pageModules: ReadonlySet<string> },
): string {
  const seen = new Set<string>([entry, "package-lock.json"]);
  const leftOut = (path: string) =>
    FRAME_SOURCES.includes(path) || (template !== undefined && path !== template.own && template.pageModules.has(path));
  const queue = (sources[entry]?.imports ?? []).filter((path) => !leftOut(path));
  while (queue.length) {
    const next = queue.pop()!;
    if (seen.has(next)) continue;
    seen.add(next);
    queue.push(...(sources[next]?.imports ?? []));
  }
  // A source saved while it compiled has no known content (CHANGED_DURING_BUILD, the same marker in
  // every build): two such builds would share a key, and the later one framed the earlier one's
  // bodies, an older edit's text. Its bodies get a key of their own, never matched again.
  if ([...seen].some((input) => sources[input]?.hash === CHANGED_DURING_BUILD))
    return `${CHANGED_DURING_BUILD}-${randomUUID()}`;
  const hash = createHash("sha1");
  for (const input of [...seen].sort()) hash.update(`${input}=${sources[input]?.hash ?? "not an input"}\n`);
  return hash.digest("hex").slice(0, 16);
}

/**
 * The body hash of each template (bodyHashOf), from the template modules the entry names. The
 * entry is read again here: when its bytes are not the ones compiled (saved meanwhile), or a
 * template's module is not known, that template's bodies depend on every page module.
 */
async function bodyHashesByTemplate(
  root: string,
  entry: string,
  sources: NodeModuleBundle["sources"],
): Promise<(template: string) => string> {
  const all = bodyHashOf(entry, sources);
  const text = await readFile(join(root, entry)).catch(() => null);
  const compiled = sources[entry]?.hash;
  const modules =
    text && compiled && createHash("sha1").update(text).digest("hex") === compiled
      ? templateModulesOf(entry, text.toString("utf8"), sources[entry]?.imports ?? [])
      : new Map<string, string>();
  const pageModules = new Set(modules.values());
  const byModule = new Map<string, string>();
  return (template) => {
    const own = modules.get(template);
    if (!own) return all;
    let hash = byModule.get(own);
    if (hash === undefined) byModule.set(own, (hash = bodyHashOf(entry, sources, { own, pageModules })));
    return hash;
  };
}

/**
 * Where the templates are compiled to. A one-shot build (the CLI, a webhook server's builds) bundles
 * the packages in; a long-running build with esbuild contexts (watch mode) leaves them to
 * node_modules, so that each template edit's new module reuses the React its process loaded already
 * instead of evaluating (and keeping) another copy. Two folders, so switching between the CLI and
 * watch mode does not compile again each time.
 */
function templatesDir(cacheDir: string, bundlePackages: boolean): string {
  return join(cacheDir, bundlePackages ? "templates-bundled" : "templates");
}

export async function loadTemplates(
  root: string,
  cacheDir: string,
  contexts?: BundlerContexts,
): Promise<TemplateBundle> {
  // Pages are rendered to HTML only: the auth library the account island loads in an effect is never
  // called here, and importing it was slow in every render worker (src/auth/amplify-stub.ts).
  const bundlePackages = !contexts;
  const bundle = await compileNodeModule(
    root,
    templatesDir(cacheDir, bundlePackages),
    TEMPLATE_ENTRY,
    "entry",
    "The templates",
    contexts,
    [authStandIn(root)],
    { bundlePackages },
  );
  return {
    ...bundle,
    bodyHash: bodyHashOf(TEMPLATE_ENTRY, bundle.sources),
    bodyHashFor: await bodyHashesByTemplate(root, TEMPLATE_ENTRY, bundle.sources),
    load: async () => (await loadCompiledModule<TemplateModule>(bundle.file)).exports,
  };
}
