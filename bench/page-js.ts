/**
 * JavaScript a built page loads up front, gzip, against the budget for a page with an island, and
 * the copies of React among the published browser files.
 *
 * A page's files are its module scripts and modulepreloads, the modules and chunks its page loader
 * starts (page-script-urls.ts), and every chunk those import statically; what they import lazily
 * (the auth library, Stripe's loader) is fetched only when used and is not counted.
 *
 *   import { measurePageJs, reactFiles } from "./page-js.js";
 *   const m = await measurePageJs("dist", "calculate/index.html");  // → { files: [{ url, gzip, react }], totalGzip, withinBudget }
 */
import { readFile } from "node:fs/promises";
import { dirname, join, posix } from "node:path";
import { gzipSync } from "node:zlib";
import fg from "fast-glob";
import { pageScriptUrls } from "./page-script-urls.js";
import { isReactCode } from "./framework-chunk.js";

/** Every page with an island: React 19's client (about 68 KB gzip), the island's own code and the page loader, in all. */
export const ISLAND_PAGE_BUDGET_GZIP = 90 * 1024;

export interface PageJs {
  files: { url: string; gzip: number; react: boolean }[];
  totalGzip: number;
  withinBudget: boolean;
}

const STATIC_IMPORT = /(?:from|import)\s*"(\.{1,2}\/[^"]+\.js)"/g;
const DYNAMIC_IMPORT = /import\(\s*"(\.{1,2}\/[^"]+\.js)"\s*\)/g;

export async function measurePageJs(distDir: string, pagePath: string): Promise<PageJs> {
  const seen = new Map<string, string>();
  const visit = async (url: string): Promise<void> => {
    if (seen.has(url)) return;
    const code = await readFile(join(distDir, url), "utf8");
    seen.set(url, code);
    for (const m of code.replace(DYNAMIC_IMPORT, "").matchAll(STATIC_IMPORT))
      await visit(posix.join(dirname(url), m[1]!));
  };
  for (const url of pageScriptUrls(await readFile(join(distDir, pagePath), "utf8"))) await visit(url);
  const files = [...seen]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([url, code]) => ({ url, gzip: gzipSync(code).length, react: isReactCode(code) }));
  const totalGzip = files.reduce((n, f) => n + f.gzip, 0);
  return { files, totalGzip, withinBudget: totalGzip <= ISLAND_PAGE_BUDGET_GZIP };
}

/** The published browser files (under _islands/, what donors' pages load) that carry any of React: one is right. */
export async function reactFiles(distDir: string): Promise<string[]> {
  const found: string[] = [];
  for (const file of (await fg("_islands/**/*.js", { cwd: distDir })).sort()) {
    if (isReactCode(await readFile(join(distDir, file), "utf8"))) found.push(`/${file}`);
  }
  return found;
}
