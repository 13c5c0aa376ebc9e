/**
 * The site's stylesheet: templates/styles/*.css concatenated in name order, minified by esbuild,
 * and published under a content-hashed name so browsers may cache it forever.
 */
import { createHash } from "node:crypto";
import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";

export interface Stylesheet {
  url: string;
  file: string;
  css: string;
}

export async function buildStylesheet(root: string): Promise<Stylesheet> {
  const dir = join(root, "templates/styles");
  const names = (await readdir(dir)).filter((n) => n.endsWith(".css")).sort();
  const source = (await Promise.all(names.map((n) => readFile(join(dir, n), "utf8")))).join("\n");
  // The same source gives the same stylesheet: a long-running process minifies only after an edit.
  if (last?.source === source) return last.sheet;
  const { transform } = await import("esbuild");
  const { code } = await transform(source, { loader: "css", minify: true, target: ["chrome100", "safari15", "firefox100"] });
  const hash = createHash("sha1").update(code).digest("hex").slice(0, 10);
  const sheet = { url: `/_assets/site-${hash}.css`, file: `_assets/site-${hash}.css`, css: code };
  last = { source, sheet };
  return sheet;
}

let last: { source: string; sheet: Stylesheet } | null = null;
