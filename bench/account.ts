/**
 * JavaScript shipped for /account, gzip, and which other pages load any of it (issue 6).
 *
 * Reads a built site (dist/). /account's files are its module scripts and modulepreloads, every
 * chunk they import statically, and what the account code imports lazily (the auth library,
 * fetched when the island starts). Each file gets one role:
 *   react    the shared framework chunk (React and react-dom; see framework-chunk.ts);
 *   shared   other chunks that some other island or script also imports (tiny bundler helpers);
 *   site     the page's other entry scripts and their chunks (tag manager, service-worker registration);
 *   amplify  what only the lazy import brings (aws-amplify and the adapter), not preloaded;
 *   account  the rest: the island's own code, loaded up front.
 * `otherPages` lists every other HTML page whose scripts reach an `account` or `amplify` file,
 * following static and dynamic imports (conservative: "may load"). The editor's /preview/ page
 * re-renders pages with the site's templates, so it is expected there; donors' pages should be
 * absent. `precached` lists the account and amplify files that sw.js precaches (the service worker
 * downloads those on any page once installed).
 *
 *   import { measureAccountJs } from "./account.js";
 *   const m = await measureAccountJs("dist");
 *   // → { accountGzip, amplifyGzip, reactGzip, sharedGzip, siteGzip, files, otherPages, precached }
 */
import { readFile } from "node:fs/promises";
import { dirname, join, posix } from "node:path";
import { gzipSync } from "node:zlib";
import { pageScriptUrls } from "./page-script-urls.js";
import fg from "fast-glob";
import { isFrameworkChunk } from "./framework-chunk.js";

/** A user pool for benchmark builds, so /account/ has the sign-in island (as production does), not the "unavailable" text. */
export const BENCH_PUBLIC_CONFIG = {
  auth: {
    region: "ap-southeast-2",
    userPoolId: "ap-southeast-2_Bench1234",
    userPoolClientId: "benchclientid0000000000000",
    authFlowType: "USER_SRP_AUTH",
    sameSite: "lax",
    secure: true,
  },
};

export type AccountFileRole = "account" | "amplify" | "react" | "shared" | "site";

export interface AccountJsSize {
  /** Gzip bytes of the island's own code (entry and its account-only static chunks). */
  accountGzip: number;
  /** Gzip bytes of the lazily imported auth library chunk(s). */
  amplifyGzip: number;
  /** Gzip bytes of the shared React chunk(s). */
  reactGzip: number;
  /** Gzip bytes of small chunks shared with other islands. */
  sharedGzip: number;
  /** Gzip bytes of the page's site-wide scripts. */
  siteGzip: number;
  files: { url: string; role: AccountFileRole; gzip: number }[];
  /** Other pages (site paths such as "/preview/") and the account/amplify files they may load. */
  otherPages: { page: string; files: string[] }[];
  /** Account and amplify files in the service worker's precache list. */
  precached: string[];
}

const ACCOUNT_PAGE = "account/index.html";

function pagePath(file: string): string {
  return file === "index.html" ? "/" : `/${file.replace(/index\.html$/, "")}`;
}

export async function measureAccountJs(distDir: string): Promise<AccountJsSize> {
  const sources = new Map<string, string>();
  const load = async (url: string) => {
    if (!sources.has(url)) sources.set(url, await readFile(join(distDir, url), "utf8"));
    return sources.get(url)!;
  };
  const importsOf = async (url: string, dynamic: boolean): Promise<string[]> => {
    const code = await load(url);
    const pattern = dynamic ? /import\(\s*"(\.{1,2}\/[^"]+\.js)"\s*\)/g : /(?:from|import)\s*"(\.{1,2}\/[^"]+\.js)"/g;
    return [...code.matchAll(pattern)].map((m) => posix.join(dirname(url), m[1]!));
  };
  /**
   * Files reachable from `roots`: static imports, plus dynamic ones when asked. The editor's preview
   * bundle is not followed: the preview loader imports it by URL from /_preview/, only when a
   * Prismic preview cookie exists.
   */
  const closure = async (roots: string[], dynamic: boolean): Promise<Set<string>> => {
    const seen = new Set<string>();
    const queue = [...roots];
    while (queue.length) {
      const url = queue.pop()!;
      if (seen.has(url)) continue;
      seen.add(url);
      queue.push(...(await importsOf(url, false)));
      if (dynamic) queue.push(...(await importsOf(url, true)));
    }
    return seen;
  };

  const html = await readFile(join(distDir, ACCOUNT_PAGE), "utf8");
  const urls = pageScriptUrls(html);
  const entry = urls.find((u) => /^\/_islands\/account-[^/]+\.js$/.test(u));
  if (!entry)
    throw new Error(`${ACCOUNT_PAGE} loads no account island bundle: is a user pool configured for the build?`);
  const upFront = await closure([entry], false);
  const lazyRoots: string[] = [];
  for (const url of upFront) lazyRoots.push(...(await importsOf(url, true)));
  const lazy = await closure(lazyRoots, false);
  const siteFiles = await closure(
    urls.filter((u) => !upFront.has(u)),
    false,
  );

  // Chunks any other island or script (their entries are the top-level files of _islands/) also
  // imports, up front or on demand: the donation form's payment kit, loaded when the donor goes on,
  // shares the session-cookie reader (and its React glue) with the account island.
  const otherEntries = (await fg("_islands/*.js", { cwd: distDir }))
    .map((f) => `/${f}`)
    .filter((u) => u !== entry && !siteFiles.has(u));
  const usedElsewhere = await closure(otherEntries, true);

  const files: AccountJsSize["files"] = [];
  for (const url of [...new Set([...upFront, ...lazy, ...siteFiles])].sort()) {
    const code = await load(url);
    let role: AccountFileRole;
    if (isFrameworkChunk(code)) role = "react";
    else if (upFront.has(url)) role = usedElsewhere.has(url) ? "shared" : "account";
    else if (lazy.has(url)) role = usedElsewhere.has(url) ? "shared" : "amplify";
    else role = "site";
    files.push({ url, role, gzip: gzipSync(code).length });
  }
  const sum = (role: AccountFileRole) => files.filter((f) => f.role === role).reduce((n, f) => n + f.gzip, 0);
  const own = new Set(files.filter((f) => f.role === "account" || f.role === "amplify").map((f) => f.url));

  const otherPages: AccountJsSize["otherPages"] = [];
  for (const file of (await fg("**/*.html", { cwd: distDir })).sort()) {
    if (file === ACCOUNT_PAGE) continue;
    const reach = await closure(pageScriptUrls(await readFile(join(distDir, file), "utf8")), true);
    const hits = [...reach].filter((u) => own.has(u)).sort();
    if (hits.length) otherPages.push({ page: pagePath(file), files: hits });
  }
  let precached: string[] = [];
  try {
    const sw = await readFile(join(distDir, "sw.js"), "utf8");
    precached = [...own].filter((u) => sw.includes(`"${u.slice(1)}"`)).sort();
  } catch {
    // no service worker in this build
  }
  return {
    accountGzip: sum("account"),
    amplifyGzip: sum("amplify"),
    reactGzip: sum("react"),
    sharedGzip: sum("shared"),
    siteGzip: sum("site"),
    files,
    otherPages,
    precached,
  };
}

/** One line per figure, for the bench runner. */
export function formatAccountJs(m: AccountJsSize): string[] {
  const kb = (n: number) => `${(n / 1024).toFixed(1)} KB`;
  return [
    `js      /account/: own ${kb(m.accountGzip)} + auth library (lazy) ${kb(m.amplifyGzip)} + React ${kb(m.reactGzip)} + shared ${kb(m.sharedGzip)} gzip; site-wide scripts ${kb(m.siteGzip)}`,
    `js      /account/ code on other pages: ${m.otherPages.length ? m.otherPages.map((p) => `${p.page} (${p.files.length} files)`).join(", ") : "none"}`,
    `js      /account/ files precached by sw.js: ${m.precached.length ? m.precached.join(", ") : "none"}`,
  ];
}
