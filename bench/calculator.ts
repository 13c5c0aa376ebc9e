/**
 * JavaScript shipped for /calculate, gzip: the calculator's own code versus the shared framework
 * chunk (issue 4's budget: the calculator's own code under 15 KB gzip on top of the framework).
 *
 * Reads a built site (dist/): the module scripts and modulepreloads of calculate/index.html, plus
 * every chunk they import statically. The shared framework chunk (React; see framework-chunk.ts)
 * has the role "react"; the calculator entry and the other chunks it pulls in are its own code
 * (conservative: tiny shared helpers count against the calculator); the other entry scripts
 * (service-worker registration, tag manager) are site-wide and reported apart.
 *
 *   import { measureCalculatorJs } from "./calculator.js";
 *   const m = await measureCalculatorJs("dist");  // → { calculatorGzip, reactGzip, siteGzip, files }
 */
import { readFile } from "node:fs/promises";
import { dirname, join, posix } from "node:path";
import { gzipSync } from "node:zlib";
import { pageScriptUrls } from "./page-script-urls.js";
import { isFrameworkChunk } from "./framework-chunk.js";

export const CALCULATOR_BUDGET_GZIP = 15 * 1024;

export interface CalculatorJsSize {
  /** Gzip bytes of the calculator entry and its non-React chunks. */
  calculatorGzip: number;
  /** Gzip bytes of the shared React chunk(s). */
  reactGzip: number;
  /** Gzip bytes of the page's other, site-wide scripts. */
  siteGzip: number;
  files: { url: string; role: "calculator" | "react" | "site"; gzip: number }[];
  withinBudget: boolean;
}

export async function measureCalculatorJs(
  distDir: string,
  pagePath = "calculate/index.html",
): Promise<CalculatorJsSize> {
  const html = await readFile(join(distDir, pagePath), "utf8");
  const urls = pageScriptUrls(html);
  const entry = urls.find((u) => /\/calculator-[^/]+\.js$/.test(u));
  if (!entry) throw new Error(`${pagePath} loads no calculator island bundle: is the calculator on the page?`);

  const sources = new Map<string, string>();
  const load = async (url: string) => {
    if (!sources.has(url)) sources.set(url, await readFile(join(distDir, url), "utf8"));
    return sources.get(url)!;
  };
  /** Static imports of a bundle (`from"./chunks/x.js"` and `import"./x.js"`), as site URLs. */
  const closure = async (url: string, seen = new Set<string>()): Promise<Set<string>> => {
    if (seen.has(url)) return seen;
    seen.add(url);
    const code = await load(url);
    for (const m of code.matchAll(/(?:from|import)\s*"(\.{1,2}\/[^"]+\.js)"/g))
      await closure(posix.join(dirname(url), m[1]!), seen);
    return seen;
  };

  const calculatorFiles = await closure(entry);
  const all = new Set<string>(calculatorFiles);
  for (const url of urls) for (const f of await closure(url)) all.add(f);
  // The framework chunk and what it imports (esbuild's CommonJS helpers React runs on) are React's.
  const framework = new Set<string>();
  for (const url of all) if (isFrameworkChunk(await load(url))) for (const f of await closure(url)) framework.add(f);
  const files: CalculatorJsSize["files"] = [];
  for (const url of [...all].sort()) {
    const code = await load(url);
    const role = framework.has(url) ? "react" : calculatorFiles.has(url) ? "calculator" : "site";
    files.push({ url, role, gzip: gzipSync(code).length });
  }
  const sum = (role: string) => files.filter((f) => f.role === role).reduce((n, f) => n + f.gzip, 0);
  const calculatorGzip = sum("calculator");
  return {
    calculatorGzip,
    reactGzip: sum("react"),
    siteGzip: sum("site"),
    files,
    withinBudget: calculatorGzip <= CALCULATOR_BUDGET_GZIP,
  };
}
