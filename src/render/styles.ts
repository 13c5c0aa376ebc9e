/**
 * The site's stylesheet: templates/styles/*.css concatenated in name order, minified by esbuild,
 * and published under a content-hashed name so browsers may cache it forever.
 *
 * The minified sheet is kept in the work folder by the hash of its source and esbuild's version: a
 * new process with unchanged styles (most CLI builds) neither loads esbuild nor starts its service,
 * about 100 ms of the build's thread before the render could start. A long-running process also
 * keeps the last sheet in memory.
 */
import { createHash } from "node:crypto";
import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { hashFile } from "./bundle-cache.js";
import { cacheKey, readEntry, writeEntry } from "../cache/entry.js";

export interface Stylesheet {
  url: string;
  file: string;
  css: string;
}

export async function buildStylesheet(root: string, workDir: string): Promise<Stylesheet> {
  const dir = join(root, "templates/styles");
  const names = (await readdir(dir)).filter((n) => n.endsWith(".css")).sort();
  const source = (await Promise.all(names.map((n) => readFile(join(dir, n), "utf8")))).join("\n");
  // The same source gives the same stylesheet: a long-running process minifies only after an edit.
  if (last?.source === source) return last.sheet;
  const esbuildVersion = await hashFile(join(root, "node_modules/esbuild/package.json"));
  // A kept sheet is used only when its bytes are the ones written (src/cache/entry.ts).
  const kept = join(workDir, "styles", `site-${cacheKey("styles", esbuildVersion, source)}.css`);
  const code = (await readEntry(kept, "styles"))?.toString("utf8") ?? (await minify(source, kept));
  const hash = createHash("sha1").update(code).digest("hex").slice(0, 10);
  const sheet = { url: `/_assets/site-${hash}.css`, file: `_assets/site-${hash}.css`, css: code };
  last = { source, sheet };
  return sheet;
}

async function minify(source: string, keepAt: string): Promise<string> {
  const { transform } = await import("esbuild");
  const { code } = await transform(source, { loader: "css", minify: true, target: ["chrome100", "safari15", "firefox100"] });
  try {
    await writeEntry(keepAt, code);
  } catch {
    // Not kept: the next process minifies again.
  }
  return code;
}

let last: { source: string; sheet: Stylesheet } | null = null;
