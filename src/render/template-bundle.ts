/**
 * Compiles templates/ (with the src/render helpers they import) into one ESM file with esbuild and
 * loads it. The file name carries a content hash, so after a template edit the next build imports
 * a new module: Node's module cache never serves a stale template (watch mode relies on this).
 * When no input changed, esbuild is skipped and the previous file is imported again.
 */
import { createHash } from "node:crypto";
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { NzfError } from "../core/errors.js";
import { hashInputsAfterBuild, startBundle, writeBundleRecord } from "./bundle-cache.js";
import type { RenderInput, RenderOutput } from "./types.js";
import { exists } from "../core/fs.js";
import { runEsbuild, type BundlerContexts } from "./bundler-contexts.js";

export interface TemplateModule {
  renderPage(input: RenderInput): RenderOutput;
  TEMPLATES: Record<string, unknown>;
}

export interface TemplateBundle {
  /** Imports the compiled templates (React and all): only when pages are actually rendered. */
  load(): Promise<TemplateModule>;
  /** Hash of the compiled templates: part of every page's inputs. */
  hash: string;
  /** The compiled module (render workers import it themselves). */
  file: string;
  /** Project files the templates are made of (for watch mode and dependency records). */
  inputs: string[];
  cached: boolean;
}


/** A module compiled for Node with its dependencies left to node_modules, reused while its inputs are unchanged. */
export interface NodeModuleBundle {
  file: string;
  hash: string;
  inputs: string[];
  cached: boolean;
}

/**
 * Compiles `entry` (relative to the project) into `dir` as `<name>-<hash>.mjs`. The folder must be
 * inside the project (not the OS temp dir) so bare imports like "react" resolve from node_modules.
 */
export async function compileNodeModule(root: string, dir: string, entry: string, name: string, what: string, contexts?: BundlerContexts): Promise<NodeModuleBundle> {
  const recordFile = join(dir, "record.json");
  const start = await startBundle<{ file: string; hash: string }>(recordFile, root);
  const previous = start.reusable;
  if (previous && (await exists(previous.result.file))) return { ...previous.result, inputs: Object.keys(previous.inputs), cached: true };
  let result;
  try {
    result = await runEsbuild(contexts, `node:${entry}`, {
      absWorkingDir: root,
      entryPoints: [entry],
      bundle: true,
      write: false,
      platform: "node",
      format: "esm",
      target: "node20.19",
      packages: "external",
      jsx: "automatic",
      metafile: true,
      logLevel: "silent",
      define: { "process.env.NODE_ENV": '"production"' },
    });
  } catch (error) {
    const messages = (error as { errors?: { text: string; location?: { file: string; line: number; column: number } }[] }).errors ?? [];
    const detail = messages.map((m) => `${m.location ? `${m.location.file}:${m.location.line}:${m.location.column}: ` : ""}${m.text}`).join("\n  ");
    throw new NzfError("TEMPLATE_BUNDLE_FAILED", `${what} did not compile:\n  ${detail || String(error)}`, { cause: error });
  }
  const code = result.outputFiles![0]!.contents;
  const hash = createHash("sha1").update(code).digest("hex").slice(0, 12);
  const file = join(dir, `${name}-${hash}.mjs`);
  await mkdir(dir, { recursive: true });
  if (!(await exists(file))) await writeFile(file, code);
  const inputs = await hashInputsAfterBuild(root, Object.keys(result.metafile!.inputs), start);
  await writeBundleRecord(recordFile, { inputs, result: { file, hash } });
  return { file, hash, inputs: Object.keys(inputs), cached: false };
}

export async function loadTemplates(root: string, cacheDir: string, contexts?: BundlerContexts): Promise<TemplateBundle> {
  const bundle = await compileNodeModule(root, join(cacheDir, "templates"), "templates/entry.tsx", "entry", "The templates", contexts);
  return { ...bundle, load: () => importTemplates(bundle.file) };
}

async function importTemplates(file: string): Promise<TemplateModule> {
  return (await import(pathToFileURL(file).href)) as TemplateModule;
}
