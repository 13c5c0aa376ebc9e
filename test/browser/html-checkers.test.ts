/**
 * Every page of the bundled sample, in both languages, against two outside checkers (issue 41): the
 * W3C Nu HTML Checker (the `vnu-jar` package's jar, run with Java) and HTML_CodeSniffer's WCAG 2 AA
 * rules (pa11y's engine, the `html_codesniffer` package) run in our own Chromium, with axe-core
 * beside it, at 390×844 and at 1280×800. Zero errors from each.
 *
 * The Nu checker needs Java. CI installs it (.ci/run); on a developer's machine without Java the
 * test is skipped and says why, so the reason is in the log, never a silent pass.
 *
 * The slowest file of the suite once (68 s on a quiet machine), so: the Nu checker runs in the
 * background while the browser goes through the pages; each size goes through them in a few tabs
 * at once; the two checkers' scripts come from Chromium's cache (test/support/checker-scripts.ts)
 * instead of being compiled again on every page; axe-core describes only its violations.
 */
import { execFile } from "node:child_process";
import { createRequire } from "node:module";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser, BrowserContext, ConsoleMessage, Page } from "playwright-core";
import { sitePagePaths } from "../support/build-fixture.js";
import { sharedSampleSite, type SharedSite } from "../support/shared-site.js";
import { startStaticServer, type StaticServer } from "../../src/server/static-server.js";
import { isolatedContext, launchBrowser } from "../support/browser.js";
import { axeViolations, formatViolations } from "../support/axe.js";
import { htmlcsErrors } from "../support/htmlcs.js";
import { type CheckerScripts, serveCheckerScripts } from "../support/checker-scripts.js";
import { hangLimit } from "../support/time-limits.js";

const run = promisify(execFile);
const require = createRequire(import.meta.url);
const VNU_JAR = require.resolve("vnu-jar/build/dist/vnu.jar");
/** Tabs each size's sweep keeps open at once: the page's own scripts, axe-core and the test's round trips overlap. */
const TABS = 3;

/** Whether `java` runs here; the version line, or why not. */
async function javaVersion(): Promise<{ ok: boolean; detail: string }> {
  try {
    const { stderr, stdout } = await run("java", ["-version"], { timeout: 30_000 });
    return { ok: true, detail: (stderr || stdout).split("\n")[0]!.trim() };
  } catch (error) {
    return { ok: false, detail: (error as Error).message };
  }
}

/**
 * The Nu checker's JSON report on the built site (exit status 1 when it found errors: the report on
 * stderr is read either way). `-XX:TieredStopAtLevel=1`: a run this short spends more on the JVM's
 * optimising compiler than that compiler wins back (about half the CPU time, measured; the same report).
 */
async function nuReport(out: string): Promise<string> {
  const result = await run(
    "java",
    ["-Xss4m", "-XX:TieredStopAtLevel=1", "-jar", VNU_JAR, "--errors-only", "--skip-non-html", "--format", "json", out],
    { timeout: hangLimit(90_000), maxBuffer: 64 * 1024 * 1024 },
  ).catch((error: { stderr?: string; message?: string }) => ({
    // A run that died without a report (killed at the time limit, no memory) must not read as "no errors".
    stderr:
      error.stderr ||
      JSON.stringify({ messages: [{ type: "error", message: `vnu did not report: ${error.message}` }] }),
    stdout: "",
  }));
  return result.stderr || '{"messages":[]}';
}

let built: SharedSite;
let site: StaticServer;
let scripts: CheckerScripts;
let browser: Browser;
let context: BrowserContext;
let pagePaths: string[];
let java: { ok: boolean; detail: string };
/** Started in beforeAll, read by the last test: the JVM checks the files while Chromium checks the pages. */
let nu: Promise<string> | undefined;

beforeAll(async () => {
  // With payments configured, as the site is published: the pay pages show their forms.
  const javaFound = javaVersion();
  built = await sharedSampleSite("payments-unreachable");
  java = await javaFound;
  if (java.ok) nu = nuReport(built.outDir);
  [site, scripts, browser] = await Promise.all([
    startStaticServer({ root: built.outDir }),
    serveCheckerScripts(),
    launchBrowser(),
  ]);
  // The checkers' scripts are put into each page from outside: the site's own CSP would refuse them.
  context = await isolatedContext(browser, {
    bypassCSP: true,
    viewport: { width: 1280, height: 800 },
    // Each page is checked on its own: no service worker fetching every page again, and no request
    // paused for the test to route (browser.ts).
    withoutServiceWorker: true,
    unrouted: true,
  });
  pagePaths = (await sitePagePaths(built.outDir)).filter((p) => p !== "/pay/tainted_wealth/");
}, 180_000);

afterAll(async () => {
  // A failed sweep still waits for the JVM, so no java process outlives the file.
  await nu;
  await context?.close();
  await browser?.close();
  await site?.stop();
  await scripts?.stop();
});

interface NuMessage {
  type: string;
  subType?: string;
  url?: string;
  lastLine?: number;
  message: string;
  extract?: string;
}

/**
 * Why a page's islands did not settle, in the finding itself: a failure seen once in a loaded run
 * (/pay/fitr/'s donation island at 1280×800) must say where the loader stopped. The island's
 * state; each island module the page names, requested or not, with its answer and time; whether
 * the page loaded again (the loader reloads once when a module fails); and the page's console
 * errors and uncaught exceptions since it was opened.
 */
async function whyUnsettled(page: Page, problems: string[], loads: number, waitError: string): Promise<string> {
  const state = await page
    .evaluate(() => {
      const islands = [...document.querySelectorAll<HTMLElement>("[data-island]")].map(
        (el) => `${el.dataset.island}: ${el.dataset.islandFailed ? "failed" : (el.dataset.hydrated ?? "not started")}`,
      );
      const script = document.querySelector<HTMLElement>("script[data-page-modules]");
      const modules = (script?.dataset.pageModules ?? "").split(" ").filter(Boolean);
      const timings = performance.getEntriesByType("resource") as (PerformanceResourceTiming & {
        responseStatus?: number;
      })[];
      const loader = modules.map((url) => {
        const entry = timings.find((e) => e.name === new URL(url, location.href).href);
        return entry
          ? `${url} answered ${entry.responseStatus ?? "?"} in ${Math.round(entry.duration)} ms at ${Math.round(entry.startTime)} ms`
          : `${url} not requested (or not answered) by ${Math.round(performance.now())} ms`;
      });
      return `${islands.join(", ")}; ${loader.join("; ") || "no island modules named"}`;
    })
    .catch((error: Error) => `page state unreadable: ${error.message.split("\n")[0]}`);
  return [
    state,
    waitError,
    loads > 1 ? `the page loaded ${loads} times` : "",
    problems.length ? `page problems: ${problems.join(" | ")}` : "",
  ]
    .filter(Boolean)
    .join("; ");
}

/** What both checkers find on one page at one size, each finding prefixed by the page's path. */
async function checkPage(page: Page, path: string): Promise<string[]> {
  const found: string[] = [];
  // Only the console and load events: listening for every request would slow the sweep (Playwright
  // then sends each one over), and a failed script shows in the console as well.
  const problems: string[] = [];
  let loads = 0;
  const countLoad = () => loads++;
  const onConsole = (message: ConsoleMessage) => {
    if (message.type() === "error") problems.push(message.text());
  };
  const onPageError = (error: Error) => problems.push(error.message);
  page.on("load", countLoad);
  page.on("console", onConsole);
  page.on("pageerror", onPageError);
  await page.goto(site.url + path, { waitUntil: "load" });
  // Islands as the visitor gets them: hydrated (or ready to be on first use). One that never gets
  // there (its script failed, React threw) is a finding, not a reason to check the page half-made.
  let waitError = "";
  const settled = await page
    .waitForFunction(
      () =>
        [...document.querySelectorAll("[data-island]")].every(
          (el) => el.hasAttribute("data-hydrated") || el.hasAttribute("data-island-failed"),
        ),
      null,
      { timeout: hangLimit(10_000) },
    )
    .then(
      () => true,
      (error: Error) => {
        waitError = `wait: ${error.message.split("\n")[0]}`;
        return false;
      },
    );
  const unhydrated = await page.$$eval("[data-island]:not([data-hydrated])", (els) =>
    els.map((el) => (el as HTMLElement).dataset.island),
  );
  page.off("load", countLoad);
  page.off("console", onConsole);
  page.off("pageerror", onPageError);
  if (!settled || unhydrated.length) {
    const why = await whyUnsettled(page, problems, loads, waitError);
    found.push(`${path} islands not hydrated: ${unhydrated.join(", ") || "?"} (${why})`);
  }
  for (const e of await htmlcsErrors(page, { scriptUrl: scripts.htmlcsUrl })) found.push(`${path} ${e}`);
  const violations = await axeViolations(page, { scriptUrl: scripts.axeUrl });
  if (violations.length) found.push(formatViolations(path, violations));
  return found;
}

describe("outside checkers on every page of the sample", () => {
  // In the page as a donor gets it, on a phone and on a desktop: the menu, the running total and
  // what each page hides or shows by its width differ between them.
  for (const viewport of [
    { width: 390, height: 844 },
    { width: 1280, height: 800 },
  ]) {
    it(`at ${viewport.width}×${viewport.height} HTML_CodeSniffer (WCAG 2 AA, pa11y's rules) and axe-core find nothing`, {
      timeout: 600_000,
    }, async () => {
      const found: string[] = [];
      const checked: string[] = [];
      const queue = [...pagePaths];
      // A few tabs take pages from one queue; each tab checks one page at a time.
      await Promise.all(
        Array.from({ length: TABS }, async () => {
          const page = await context.newPage();
          await page.setViewportSize(viewport);
          for (let path = queue.shift(); path !== undefined; path = queue.shift()) {
            found.push(...(await checkPage(page, path)));
            checked.push(path);
          }
          await page.close();
        }),
      );
      // Every page, in both languages.
      expect(checked.sort()).toEqual(pagePaths);
      expect(pagePaths.filter((p) => p.startsWith("/ar-ae/")).length).toBeGreaterThan(10);
      expect(found.sort()).toEqual([]);
      console.log(
        `HTML_CodeSniffer WCAG2AA and axe-core at ${viewport.width}×${viewport.height}: 0 errors on ${checked.length} pages.`,
      );
    });
  }

  // Last: the JVM has been checking the files since beforeAll, beside the browser's sweeps.
  it("the W3C Nu HTML Checker finds no error", { timeout: 300_000 }, async (test) => {
    if (!java.ok) {
      if (process.env.CI)
        throw new Error(`CI has no Java for the Nu HTML Checker (.ci/run installs it): ${java.detail}`);
      console.warn(`Skipped: the Nu HTML Checker needs Java, and \`java -version\` failed here (${java.detail}).`);
      test.skip();
      return;
    }
    const out = built.outDir;
    const report = JSON.parse(await nu!) as { messages: NuMessage[] };
    const errors = report.messages
      .filter((m) => m.type === "error" || m.subType === "fatal")
      .map((m) => `${(m.url ?? "").replace(`file:${out}`, "")}:${m.lastLine}: ${m.message} [${m.extract ?? ""}]`);
    // The checker read the pages (a report of nothing, from a wrong folder, would pass otherwise).
    const pages = pagePaths.length;
    expect(pages).toBeGreaterThan(40);
    expect(errors).toEqual([]);
    console.log(`Nu HTML Checker (${java.detail}): 0 errors on ${pages} pages.`);
  });
});
