/**
 * The site's stylesheet: templates/styles/*.css concatenated in name order, minified by esbuild,
 * and published under a content-hashed name so browsers may cache it forever.
 *
 * The minified sheet is kept in the work folder by the hash of its source and esbuild's version: a
 * new process with unchanged styles (most CLI builds) neither loads esbuild nor starts its service,
 * which held up the build's thread before the render could start. A long-running process also
 * keeps the last sheet in memory.
 *
 * esbuild's CSS parser recovers from syntax errors and says so in warnings: each is printed with
 * its file and line, and with `strict` (CI) they stop the build. A sheet with warnings is not kept
 * on disk, so every build of it warns again.
 */
import { createHash } from "node:crypto";
import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { hashFile } from "../cache/file-hash.js";
import { cacheKey, readEntry, writeEntry } from "../cache/entry.js";
import { NzfError } from "../core/errors.js";
import type { Logger } from "../core/logger.js";

export interface Stylesheet {
  url: string;
  file: string;
  css: string;
}

export interface StylesheetOptions {
  /** Where the stylesheet's warnings are printed. */
  logger?: Logger;
  /** Warnings stop the build (CI). */
  strict?: boolean;
  /** The caller's last sheet (src/pipeline/builder.ts); none: read from the work folder. */
  memory?: StylesheetMemory;
}

/** One problem esbuild found, at its file (relative to the project) and line. */
export interface StyleWarning {
  file: string;
  line: number;
  column: number;
  text: string;
}

const STYLES_DIR = "templates/styles";

export async function buildStylesheet(
  root: string,
  workDir: string,
  options: StylesheetOptions = {},
): Promise<Stylesheet> {
  const dir = join(root, STYLES_DIR);
  const names = (await readdir(dir)).filter((n) => n.endsWith(".css")).sort();
  const parts = await Promise.all(names.map((n) => readFile(join(dir, n), "utf8")));
  const source = parts.join("\n");
  // The same source gives the same stylesheet: a long-running process minifies only after an edit.
  const memory = options.memory ?? { last: null };
  let last = memory.last;
  if (last?.source !== source) {
    const esbuildVersion = await hashFile(join(root, "node_modules/esbuild/package.json"));
    // A kept sheet is used only when its bytes are the ones written (src/cache/entry.ts).
    const kept = join(workDir, "styles", `site-${cacheKey("styles", esbuildVersion, source)}.css`);
    const keptCode = (await readEntry(kept, "styles"))?.toString("utf8") ?? null;
    const { code, warnings } =
      keptCode !== null ? { code: keptCode, warnings: [] } : await minify(source, kept, sourceFiles(names, parts));
    const hash = createHash("sha1").update(code).digest("hex").slice(0, 10);
    last = memory.last = {
      source,
      sheet: { url: `/_assets/site-${hash}.css`, file: `_assets/site-${hash}.css`, css: code },
      warnings,
    };
  }
  report(last.warnings, options);
  return last.sheet;
}

function report(warnings: StyleWarning[], options: StylesheetOptions): void {
  if (!warnings.length) return;
  const lines = warnings.map((w) => `${w.file}:${w.line}:${w.column}: ${w.text}`);
  if (options.strict) {
    throw new NzfError(
      "STYLESHEET_INVALID",
      `The stylesheet has ${warnings.length} problem${warnings.length === 1 ? "" : "s"}, which stop a build in CI:\n  ${lines.join("\n  ")}`,
      {
        subject: warnings[0]!.file,
      },
    );
  }
  for (const line of lines) options.logger?.warn("styles", `[STYLESHEET_INVALID] ${line}`);
}

/** Where each file starts in the joined source (1-based lines), to name a warning's own file and line. */
function sourceFiles(names: string[], parts: string[]): { file: string; firstLine: number }[] {
  let line = 1;
  return names.map((name, i) => {
    const start = { file: `${STYLES_DIR}/${name}`, firstLine: line };
    line += parts[i]!.split("\n").length;
    return start;
  });
}

async function minify(
  source: string,
  keepAt: string,
  files: { file: string; firstLine: number }[],
): Promise<{ code: string; warnings: StyleWarning[] }> {
  const { transform } = await import("esbuild");
  let result: Awaited<ReturnType<typeof transform>>;
  try {
    result = await transform(source, {
      loader: "css",
      minify: true,
      target: ["chrome100", "safari15", "firefox100"],
      logLevel: "silent",
    });
  } catch (error) {
    const errors =
      (error as { errors?: { text: string; location?: { line: number; column: number } | null }[] }).errors ?? [];
    const lines = errors.map((e) => {
      const at = e.location ? locate(files, e.location.line, e.location.column, e.text) : null;
      return at ? `${at.file}:${at.line}:${at.column}: ${e.text}` : e.text;
    });
    throw new NzfError(
      "STYLESHEET_INVALID",
      `The stylesheet did not compile:\n  ${lines.join("\n  ") || String(error)}`,
      { cause: error },
    );
  }
  const warnings = result.warnings.map((w) => {
    // A note points at the cause ("The unbalanced "{" is here:"), often far from where esbuild noticed.
    const notes = w.notes.flatMap((n) => {
      if (!n.location) return [];
      const at = locate(files, n.location.line, n.location.column, "");
      return [`${n.text.replace(/:$/, "")} ${at.file}:${at.line}:${at.column}`];
    });
    return locate(files, w.location?.line ?? 1, w.location?.column ?? 0, [w.text, ...notes].join("; "));
  });
  if (!warnings.length) {
    try {
      await writeEntry(keepAt, result.code);
    } catch {
      // Not kept: the next process minifies again.
    }
  }
  return { code: result.code, warnings };
}

function locate(
  files: { file: string; firstLine: number }[],
  line: number,
  column: number,
  text: string,
): StyleWarning {
  let at = files[0] ?? { file: STYLES_DIR, firstLine: 1 };
  for (const f of files) if (f.firstLine <= line) at = f;
  // esbuild's columns count from 0; editors count from 1.
  return { file: at.file, line: line - at.firstLine + 1, column: column + 1, text };
}

/** The last sheet a caller made (src/pipeline/builder.ts): a long-running process minifies only after an edit. */
export interface StylesheetMemory {
  last: { source: string; sheet: Stylesheet; warnings: StyleWarning[] } | null;
}
