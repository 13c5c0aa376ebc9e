/**
 * JavaScript shipped for /pay/zakat/ before the donor proceeds, gzip: the donation form's own code
 * versus the shared framework chunk (issue 5's budget: the form's own code under 15 KB gzip on top
 * of the framework; Stripe loads only after the donor proceeds).
 *
 * Reads a built site (dist/): the module scripts and modulepreloads of pay/zakat/index.html, plus
 * every chunk they import statically. Dynamic imports (the @stripe/stripe-js loader, fetched only
 * on "Continue to payment") are not followed: they are listed apart as `deferred`, never counted.
 * The shared framework chunk (React; see framework-chunk.ts) has the role "react"; the donation
 * entry and the other chunks it pulls in are the form's own code (conservative: shared helpers count against
 * the form); other entry scripts (service-worker registration, tag manager) are site-wide.
 *
 *   import { measureDonationJs } from "./donation.js";
 *   const m = await measureDonationJs("dist");  // → { formGzip, reactGzip, siteGzip, deferredGzip, files, withinBudget }
 */
import { readFile } from "node:fs/promises";
import { dirname, join, posix } from "node:path";
import { gzipSync } from "node:zlib";
import { pageScriptUrls } from "./page-script-urls.js";
import { isFrameworkChunk } from "./framework-chunk.js";

export const DONATION_BUDGET_GZIP = 15 * 1024;

export interface DonationJsSize {
  /** Gzip bytes of the donation entry and its non-React static chunks. */
  formGzip: number;
  /** Gzip bytes of the shared React chunk(s). */
  reactGzip: number;
  /** Gzip bytes of the page's other, site-wide scripts. */
  siteGzip: number;
  /** Gzip bytes of chunks loaded only when the donor proceeds (dynamic imports): not shipped up front. */
  deferredGzip: number;
  files: { url: string; role: "form" | "react" | "site" | "deferred"; gzip: number }[];
  withinBudget: boolean;
}

const STATIC_IMPORT = /(?:from|import)\s*"(\.{1,2}\/[^"]+\.js)"/g;
const DYNAMIC_IMPORT = /import\(\s*"(\.{1,2}\/[^"]+\.js)"\s*\)/g;

export async function measureDonationJs(distDir: string, pagePath = "pay/zakat/index.html"): Promise<DonationJsSize> {
  const html = await readFile(join(distDir, pagePath), "utf8");
  const urls = pageScriptUrls(html);
  const entry = urls.find((u) => /\/donation-[^/]+\.js$/.test(u));
  if (!entry) throw new Error(`${pagePath} loads no donation island bundle: is the donation form on the page?`);

  const sources = new Map<string, string>();
  const load = async (url: string) => {
    if (!sources.has(url)) sources.set(url, await readFile(join(distDir, url), "utf8"));
    return sources.get(url)!;
  };
  const resolve = (from: string, spec: string) => posix.join(dirname(from), spec);
  const closure = async (url: string, seen = new Set<string>()): Promise<Set<string>> => {
    if (seen.has(url)) return seen;
    seen.add(url);
    // `import("./x.js")` also matches the static pattern's `import"` prefix only with a quote right after; strip dynamic ones first.
    const code = (await load(url)).replace(DYNAMIC_IMPORT, "");
    for (const m of code.matchAll(STATIC_IMPORT)) await closure(resolve(url, m[1]!), seen);
    return seen;
  };

  const formFiles = await closure(entry);
  const all = new Set<string>(formFiles);
  for (const url of urls) for (const f of await closure(url)) all.add(f);
  const deferred = new Set<string>();
  for (const url of formFiles) {
    for (const m of (await load(url)).matchAll(DYNAMIC_IMPORT)) {
      for (const f of await closure(resolve(url, m[1]!))) if (!all.has(f)) deferred.add(f);
    }
  }
  // The framework chunk and what it imports (esbuild's CommonJS helpers React runs on) are React's.
  const framework = new Set<string>();
  for (const url of all) if (isFrameworkChunk(await load(url))) for (const f of await closure(url)) framework.add(f);
  const files: DonationJsSize["files"] = [];
  for (const url of [...all, ...deferred].sort()) {
    const code = await load(url);
    const role = deferred.has(url) ? "deferred" : framework.has(url) ? "react" : formFiles.has(url) ? "form" : "site";
    files.push({ url, role, gzip: gzipSync(code).length });
  }
  const sum = (role: string) => files.filter((f) => f.role === role).reduce((n, f) => n + f.gzip, 0);
  const formGzip = sum("form");
  return {
    formGzip,
    reactGzip: sum("react"),
    siteGzip: sum("site"),
    deferredGzip: sum("deferred"),
    files,
    withinBudget: formGzip <= DONATION_BUDGET_GZIP,
  };
}
