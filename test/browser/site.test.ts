/**
 * Opens every page of the bundled sample site in real Chromium, served over HTTP on loopback with
 * the generated `_headers` enforced (the Content-Security-Policy among them), as the host sends
 * them: no console errors, no CSP violation (no `securitypolicyviolation` event, no CSP console
 * message, including the tag manager, a stand-in served at its real URL, and the preview error
 * dialog, whose inline <style> must match the hash in the policy), no broken internal links, every
 * image loads, axe-core finds no WCAG 2.2 AA violation on the pages this build (no payment settings)
 * shows otherwise than the published one (html-checkers.test.ts runs axe-core on every page of
 * that), and the FAQ island hydrates and works.
 *
 * One sweep of the pages does all of it (the CSP's used to be a second sweep of its own, in
 * test/browser/csp.test.ts), in a few tabs at once.
 */
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { sitePagePaths } from "../support/build-fixture.js";
import { sharedSampleSite, type SharedSite } from "../support/shared-site.js";
import { startPreviewServer } from "../../src/server/preview-server.js";
import type { StaticServer } from "../../src/server/static-server.js";
import { isolatedContext, launchBrowser, watchProblems } from "../support/browser.js";
import { axeViolations, formatViolations } from "../support/axe.js";
import { hangLimit } from "../support/time-limits.js";
import { pageScriptUrls } from "../../bench/page-script-urls.js";
import { isReactCode } from "../../bench/framework-chunk.js";
import { ISLAND_PAGE_BUDGET_GZIP, measurePageJs, reactFiles } from "../../bench/page-js.js";

/** Tabs the sweep keeps open at once, taking pages from one queue. */
const TABS = 3;

let site: SharedSite;
let server: StaticServer;
let browser: Browser;
let context: BrowserContext;
let pagePaths: string[];
/**
 * The pages axe-core checks here: those whose main content this build (no payment settings) shows
 * otherwise than the published build (payments configured: the pay pages' forms, the contact
 * form), which html-checkers.test.ts checks page by page with axe-core at 390×844 and 1280×800.
 * The others are the same but for a hidden footer form, so axe-core here would find what it finds
 * there (about a third of this file's CPU, measured).
 */
let axeHere: Set<string>;
/** CSP violations of any page of `context`, from its first script on (see beforeAll). */
const violations: string[] = [];

beforeAll(async () => {
  site = await sharedSampleSite();
  // As `nzf-build preview` serves it (S3 behind CloudFront): the site's own `_headers` applied.
  server = await startPreviewServer({ root: site.outDir, host: "127.0.0.1", port: 0 });
  browser = await launchBrowser();
  context = await isolatedContext(browser);
  await recordCspViolations(context);
  // The redirect page is followed in its own test (and for the CSP, in the sweep's last part).
  pagePaths = (await sitePagePaths(site.outDir)).filter((p) => p !== "/pay/tainted_wealth/");
  axeHere = await pagesUnlikePublished(site.outDir, (await sharedSampleSite("payments-unreachable")).outDir, pagePaths);
});

afterAll(async () => {
  await context?.close();
  await browser?.close();
  await server?.stop();
});

/**
 * Records every CSP violation of the pages of `ctx` into `violations`, from the first script on,
 * before any of the page's own code runs. Reported through a binding, so pages that navigate away
 * by themselves (redirects, the preview resolver) still report what happened before they left.
 */
async function recordCspViolations(ctx: BrowserContext): Promise<void> {
  await ctx.exposeBinding("__reportCsp", ({ page }, text: string) => violations.push(`${page.url()}: ${text}`));
  await ctx.addInitScript(() => {
    const list: string[] = [];
    (window as unknown as { __csp: string[] }).__csp = list;
    document.addEventListener("securitypolicyviolation", (e) => {
      const text = `${e.violatedDirective} blocked ${e.blockedURI || "inline"} (${e.sourceFile}:${e.lineNumber})`;
      list.push(text);
      void (window as unknown as { __reportCsp(t: string): Promise<void> }).__reportCsp(text);
    });
  });
}

/** Records the CSP's console messages of `page` (at any level) into `into`. */
function watchCspConsole(page: Page, into: string[]): void {
  page.on("console", (msg) => {
    if (/Content Security Policy|Refused to/i.test(msg.text())) into.push(`${page.url()}: ${msg.text()}`);
  });
}

/** The paths whose <main> differs between the two builds. */
async function pagesUnlikePublished(outDir: string, publishedDir: string, paths: string[]): Promise<Set<string>> {
  const main = async (dir: string, path: string) => {
    const html = await readFile(join(dir, path.endsWith(".html") ? path : join(path, "index.html")), "utf8");
    return html.match(/<main[\s\S]*<\/main>/)?.[0] ?? html;
  };
  const unlike = new Set<string>();
  for (const path of paths) {
    const published = await main(publishedDir, path).catch(() => null);
    if (published !== (await main(outDir, path))) unlike.add(path);
  }
  return unlike;
}

/** One page: its status, its images, its internal links, axe-core; console and CSP problems are recorded by the page's watchers. */
async function checkPage(page: Page, path: string, links: Set<string>): Promise<string[]> {
  const problems: string[] = [];
  const response = await page.goto(server.url + path, { waitUntil: "load" });
  // /preview/ goes on loading the preview bundle's chunks after the load event; leaving before
  // they arrive aborts them, which a slow machine turned into a failure of this test.
  if (path === "/preview/") await page.waitForLoadState("networkidle");
  // The tag manager starts last, after the page's islands: on /account/ (React and the auth
  // library) a busy machine can leave before it arrives, which aborts it. Wait until it ran.
  if (await page.$("script[data-site-scripts]"))
    await page.waitForFunction(() => "__gtmStandIn" in window, undefined, { timeout: hangLimit(15_000) });
  if (response?.status() !== 200) problems.push(`${path}: HTTP ${response?.status()}`);
  // Lazy images load when scrolled to; load them all to check each one.
  const broken = await page.evaluate(async () => {
    const images = [...document.images];
    for (const img of images) img.loading = "eager";
    await Promise.all(
      images.map((img) => (img.complete ? null : new Promise((r) => ((img.onload = r), (img.onerror = r))))),
    );
    return images.filter((img) => img.naturalWidth === 0).map((img) => img.currentSrc || img.src);
  });
  for (const src of broken) problems.push(`${path}: image did not load: ${src}`);
  for (const href of await page.$$eval("a[href^='/']", (as) => as.map((a) => a.getAttribute("href")!)))
    links.add(href.split("#")[0]!);
  if (axeHere.has(path)) {
    // From the site's own origin, which the policy allows (axe.ts loadAxe).
    const found = await axeViolations(page);
    if (found.length) problems.push(formatViolations(path, found));
  }
  return problems;
}

describe("the sample site in Chromium", () => {
  it("builds every route of the route table", () => {
    for (const path of [
      "/",
      "/about/",
      "/account/",
      "/apply/",
      "/calculate/",
      "/cases/",
      "/contact/",
      "/faq/",
      "/guides/",
      "/learn/",
      "/pay/",
      "/privacy/",
      "/programs/",
    ]) {
      expect(pagePaths).toContain(path);
    }
    for (const fund of [
      "dhul-hijjah",
      "fidyah",
      "fitr",
      "jumuah-giving",
      "qurban",
      "ramadan",
      "sadaqah",
      "tainted-wealth",
      "zakat",
    ]) {
      expect(pagePaths).toContain(`/pay/${fund}/`);
    }
    for (const path of [
      "/preview/",
      "/styleguide/",
      "/ramadan-calendars/",
      "/right-to-zakat-draft/",
      "/404.html",
      "/500.html",
    ])
      expect(pagePaths).toContain(path);
    for (const prefix of ["/blog/", "/case/", "/partner/", "/program/"])
      expect(pagePaths.some((p) => p.startsWith(prefix) && p !== prefix)).toBe(true);
    expect(pagePaths).toContain("/ar-ae/");
  });

  it(
    "every page loads without errors or CSP violations under its headers, its images load, and axe-core finds no WCAG 2.2 AA violation where this build differs",
    async () => {
      const problems: string[] = [];
      const cspMessages: string[] = [];
      const links = new Set<string>();
      const checked: string[] = [];
      const queue = [...pagePaths];
      await Promise.all(
        Array.from({ length: TABS }, async () => {
          const page = await context.newPage();
          const seen = watchProblems(page);
          watchCspConsole(page, cspMessages);
          for (let path = queue.shift(); path !== undefined; path = queue.shift()) {
            problems.push(...(await checkPage(page, path, links)));
            checked.push(path);
          }
          await page.close();
          problems.push(...seen.consoleErrors, ...seen.pageErrors, ...seen.failedRequests);
        }),
      );
      // For the CSP only, pages that move on by themselves or ask the network for what this machine
      // has not: the old spelling's redirect and the preview with a token (its error dialog). In a
      // context of their own: the preview leaves its cookie, which makes every later page a preview.
      const apart = await isolatedContext(browser);
      await recordCspViolations(apart);
      const page = await apart.newPage();
      watchCspConsole(page, cspMessages);
      await page.goto(server.url + "/pay/tainted_wealth/", { waitUntil: "load" });
      // A redirect page moves on by itself (meta refresh): let it arrive before the next goto.
      await page.waitForURL(/\/pay\/tainted-wealth\/$/);
      await page.goto(
        server.url + "/preview/?documentId=YHh1RBEAACMAx1Ab&token=https%3A%2F%2Fnzf2020.prismic.io%2Fpreviews%2Fabc",
        { waitUntil: "load" },
      );
      // Let the preview check run and show its dialog.
      await page.waitForTimeout(1500);
      await apart.close();
      for (const link of [...links].sort()) {
        const res = await fetch(server.url + link, { redirect: "manual" });
        if (res.status !== 200) problems.push(`broken internal link ${link}: HTTP ${res.status}`);
      }
      expect(checked.sort()).toEqual(pagePaths);
      expect(pagePaths.length).toBeGreaterThan(30);
      expect(problems.sort()).toEqual([]);
      expect([...cspMessages, ...violations]).toEqual([]);
      expect(links.size).toBeGreaterThan(30);
      // axe-core ran where this build differs: the pay pages in both languages and the contact page.
      expect([...axeHere]).toEqual(expect.arrayContaining(["/pay/zakat/", "/ar-ae/pay/zakat/", "/contact/"]));
    },
    hangLimit(240_000),
  );

  it("hydrates the FAQ island, which filters the questions as the visitor types", async () => {
    const page = await context.newPage();
    const seen = watchProblems(page);
    await page.goto(server.url + "/faq/");
    await page.waitForSelector('[data-island="faq-filter"][data-hydrated="true"]');
    const search = page.getByLabel("Search the questions");
    await expect(search.isVisible()).resolves.toBe(true);
    const total = await page.locator(".faq-item").count();
    await search.focus();
    await page.keyboard.type("superannuation");
    await expect.poll(() => page.locator(".faq-item:visible").count()).toBeLessThan(total);
    expect(await page.locator(".faq-item:visible").count()).toBeGreaterThan(0);
    await expect(page.getByText(/of \d+ questions match/).isVisible()).resolves.toBe(true);
    // No match is not a dead end: every question again, or a person to ask.
    await search.fill("xyzzy");
    await page.getByText("Try other words or another spelling").waitFor();
    expect(await page.getByRole("link", { name: "ask us your question" }).getAttribute("href")).toBe("/contact/");
    await page.getByRole("button", { name: "show every question" }).click();
    await expect.poll(() => page.locator(".faq-item:visible").count()).toBe(total);
    expect(await search.inputValue()).toBe("");
    expect([...seen.consoleErrors, ...seen.pageErrors]).toEqual([]);
    await page.close();
  });

  it("a page with no island loads no React and no island code, only the small site-wide scripts", async () => {
    const page = await context.newPage();
    const scripts: string[] = [];
    page.on("request", (req) => {
      if (req.resourceType() === "script") scripts.push(new URL(req.url()).pathname);
    });
    await page.goto(server.url + "/about/");
    await page.waitForLoadState("networkidle");
    const ours = scripts.filter((p) => p.startsWith("/_islands/"));
    // One script: the picture fade, the service-worker registration, the tag-manager loader and the preview loader.
    expect(ours).toEqual([expect.stringMatching(/^\/_islands\/page-scripts-[^/]+\.js$/)]);
    const bytes = await Promise.all(
      ours.map(async (p) => (await (await fetch(server.url + p)).arrayBuffer()).byteLength),
    );
    expect(bytes.reduce((a, b) => a + b, 0)).toBeLessThan(8 * 1024);
    // React is only in the islands' one shared chunk, which an island page loads and this page never does.
    const code = async (path: string) => (await fetch(server.url + path)).text();
    for (const path of ours) expect(isReactCode(await code(path)), path).toBe(false);
    const faqScripts = pageScriptUrls(await code("/faq/"));
    const withReact = [];
    for (const path of faqScripts) if (isReactCode(await code(path))) withReact.push(path);
    expect(withReact).toEqual([expect.stringMatching(/^\/_islands\/chunks\/chunk-[A-Z0-9]+\.js$/)]);
    await page.close();
  });

  it("React is in one shared chunk, and every page with an island loads at most 90 KB gzip of JavaScript up front", async () => {
    const dist = site.outDir;
    const react = await reactFiles(dist);
    expect(react).toEqual([expect.stringMatching(/^\/_islands\/chunks\/chunk-[A-Z0-9]+\.js$/)]);
    // React's production build: the development build carries its warnings, which the production one drops.
    const code = await readFile(join(dist, react[0]!), "utf8");
    for (const warning of ["A component is changing", "act(...)", "Each child in a list should have a unique"])
      expect(code).not.toContain(warning);
    // This build has no payments and no user pool: the pay pages, thank-you and /account say so in
    // plain HTML, with no island; the calculator and the FAQ's filter are islands in any build.
    // (/pay/zakat/ with payments: test/browser/donation-*.test.ts; /account/ with a pool: test/auth/bundle.test.ts.)
    const withIsland: string[] = [];
    for (const path of pagePaths) {
      const file = path.endsWith(".html") ? path.slice(1) : `${path.slice(1)}index.html`;
      const html = await readFile(join(dist, file), "utf8");
      const js = await measurePageJs(dist, file);
      const loadsReact = js.files.filter((f) => f.react).map((f) => f.url);
      if (!html.includes("data-island=")) {
        expect(loadsReact, `${path} has no island and loads React`).toEqual([]);
        continue;
      }
      withIsland.push(path);
      expect(loadsReact, path).toEqual(react);
      expect(js.totalGzip, path).toBeLessThanOrEqual(ISLAND_PAGE_BUDGET_GZIP);
    }
    expect(withIsland).toEqual(expect.arrayContaining(["/calculate/", "/ar-ae/calculate/", "/faq/"]));
    for (const path of ["/pay/", "/pay/zakat/", "/ar-ae/pay/zakat/", "/pay/thank-you/", "/account/"])
      expect(withIsland, path).not.toContain(path);
  });

  it("starts no script but the small loader before the page has loaded and painted", async () => {
    const page = await context.newPage();
    const requested: string[] = [];
    page.on("request", (req) => {
      const path = new URL(req.url()).pathname;
      if (path.startsWith("/_islands/")) requested.push(path);
    });
    await page.goto(server.url + "/calculate/");
    await page.waitForSelector('[data-island="calculator"][data-hydrated]', { state: "attached" });
    // The page's own clock: when the load event ended and when the first contentful paint was shown.
    const timing = await page.evaluate(() => ({
      loaded:
        performance.timeOrigin +
        (performance.getEntriesByType("navigation")[0] as PerformanceNavigationTiming).loadEventEnd,
      painted: performance.timeOrigin + performance.getEntriesByName("first-contentful-paint")[0]!.startTime,
      // Where each island file was requested, on the same clock.
      starts: performance
        .getEntriesByType("resource")
        .filter((r) => new URL(r.name).pathname.startsWith("/_islands/"))
        .map((r) => ({ path: new URL(r.name).pathname, at: performance.timeOrigin + r.startTime })),
    }));
    const early = timing.starts.filter((s) => s.at < Math.max(timing.loaded, timing.painted) - 1).map((s) => s.path);
    expect(early).toEqual([expect.stringMatching(/^\/_islands\/page-scripts-/)]);
    expect(timing.starts.some((s) => /\/calculator-/.test(s.path))).toBe(true);
    expect(requested).toEqual(expect.arrayContaining(timing.starts.map((s) => s.path)));
    await page.close();
  });

  it("the FAQ works without JavaScript: answers open with the keyboard", async () => {
    const noJs = await browser.newContext({ javaScriptEnabled: false });
    const page = await noJs.newPage();
    await page.goto(server.url + "/faq/");
    const first = page.locator(".faq-item summary").first();
    await first.focus();
    await page.keyboard.press("Enter");
    expect(await page.locator(".faq-item").first().getAttribute("open")).not.toBeNull();
    await noJs.close();
  });

  it("redirects the old tainted_wealth spelling and applies the trailing-slash policy", async () => {
    const page = await context.newPage();
    await page.goto(server.url + "/pay/tainted_wealth/");
    await page.waitForURL(/\/pay\/tainted-wealth\/$/);
    const moved = await fetch(server.url + "/pay/tainted_wealth/", { redirect: "manual" });
    expect([moved.status, moved.headers.get("location")]).toEqual([301, "/pay/tainted-wealth/"]);
    // The page left for a host without the edge redirect leaves at once: no script, so no
    // tag-manager page view and no worker registration for it.
    const redirectHtml = await readFile(join(site.outDir, "pay/tainted_wealth/index.html"), "utf8");
    expect(redirectHtml).toContain("/pay/tainted-wealth/");
    expect(pageScriptUrls(redirectHtml)).toEqual([]);
    expect(await (await fetch(server.url + "/pay/tainted-wealth/")).text()).toContain(" data-site-scripts");
    const res = await fetch(server.url + "/about", { redirect: "manual" });
    expect(res.status).toBe(301);
    expect(res.headers.get("location")).toBe("/about/");
    const missing = await fetch(server.url + "/no-such-page/");
    expect(missing.status).toBe(404);
    expect(await missing.text()).toContain("<h1>");
    await page.close();
  });

  it("sends the CSP with every page", async () => {
    const res = await fetch(server.url + "/");
    expect(res.headers.get("content-security-policy")).toContain("script-src 'self'");
    expect(res.headers.get("x-content-type-options")).toBe("nosniff");
  });

  it("the CSP does block what it should: an inline script injected into a page does not run", async () => {
    const page = await context.newPage();
    await page.goto(server.url + "/about/");
    const ran = await page.evaluate(async () => {
      const s = document.createElement("script");
      s.textContent = "window.__injected = true";
      document.head.appendChild(s);
      await new Promise((r) => setTimeout(r, 50));
      return {
        ran: (window as { __injected?: boolean }).__injected === true,
        violations: (window as unknown as { __csp: string[] }).__csp.length,
      };
    });
    expect(ran).toEqual({ ran: false, violations: 1 });
    // The binding the sweep relies on did report it.
    const injected = (v: string) => v.includes("/about/") && v.includes("script-src");
    await expect.poll(() => violations.filter(injected)).toHaveLength(1);
    // And none besides it, from the sweep or from the tests between.
    expect(violations.filter((v) => !injected(v))).toEqual([]);
    violations.length = 0; // the one violation this test caused on purpose
    await page.close();
  });
});
