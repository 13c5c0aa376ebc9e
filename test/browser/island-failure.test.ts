/**
 * An island whose code cannot load (blocked at the network layer here; a deploy that replaced it,
 * or a flaky connection, in life) in Chromium: the page goes to its path in one full navigation,
 * and when the code fails again each island says so and offers the contact page, with no loop and
 * no dead button (issue 36).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser, BrowserContext } from "playwright-core";
import { sharedSampleSite, type SharedSite } from "../support/shared-site.js";
import { startStaticServer, type StaticServer } from "../../src/server/static-server.js";
import { isolatedContext, launchBrowser } from "../support/browser.js";
import { axeViolations, formatViolations } from "../support/axe.js";

let built: SharedSite;
let site: StaticServer;
let browser: Browser;
let context: BrowserContext;

beforeAll(async () => {
  built = await sharedSampleSite("payments-unreachable");
  site = await startStaticServer({ root: built.outDir });
  browser = await launchBrowser();
}, 180_000);

afterAll(async () => {
  await context?.close();
  await browser?.close();
  await site?.stop();
});

describe("an island whose script does not load", () => {
  it("reloads the page once, then shows a message with the contact page; the button answers with it", async () => {
    context = await isolatedContext(browser, { viewport: { width: 390, height: 844 } });
    const html = await (await fetch(`${site.url}/pay/zakat/`)).text();
    const modules = /data-page-modules="([^"]+)"/.exec(html)![1]!.split(" ");
    expect(modules.length).toBeGreaterThan(0);
    const blocked: string[] = [];
    // The islands' own modules fail at the network layer; the page's loader still runs.
    await context.route(
      (url) => modules.includes(url.pathname),
      (route) => {
        blocked.push(route.request().url());
        return route.abort("connectionreset");
      },
    );
    const page = await context.newPage();
    let navigations = 0;
    page.on("framenavigated", (frame) => {
      if (frame === page.mainFrame()) navigations++;
    });
    // Each failed module is reported by the page's loader (page-scripts.ts islandFailed) before it decides.
    const reported: number[] = [];
    page.on("console", (msg) => {
      if (msg.type() === "error" && /^The script \S+ could not be loaded\./.test(msg.text()))
        reported.push(navigations);
    });
    let navigationRequests = 0;
    page.on("request", (req) => {
      if (req.isNavigationRequest() && req.frame() === page.mainFrame()) navigationRequests++;
    });
    await page.goto(`${site.url}/pay/zakat/`);
    const message = page.locator(".island-failed").first();
    await message.waitFor({ state: "visible", timeout: 20_000 });
    // One navigation to the page, one full navigation to the same path, and no more.
    expect(navigations).toBe(2);
    expect(new URL(page.url()).pathname).toBe("/pay/zakat/");
    expect(blocked.length).toBeGreaterThanOrEqual(2);
    await expect.poll(() => message.getAttribute("role")).toBe("alert");
    expect(await message.locator("a").getAttribute("href")).toBe("/contact/");
    // No loop: once every module of the second load has failed and the loader has decided on each,
    // no third navigation has been asked for (a reload is asked for within the decision, before the
    // page answers the round trip below; a page that went away meanwhile fails the evaluate).
    await expect.poll(() => reported.filter((at) => at === 2).length).toBe(modules.length);
    const mark = await page.evaluate(
      () =>
        new Promise((resolve) =>
          requestAnimationFrame(() =>
            setTimeout(() => resolve(sessionStorage.getItem("nzf-island-reload:/pay/zakat/")), 0),
          ),
        ),
    );
    // The loader is done: it has shown the message and forgotten its reload mark, so the next visit retries.
    expect(mark).toBeNull();
    expect(navigationRequests).toBe(2);
    expect(navigations).toBe(2);

    // "Continue to payment" is not dead: it brings the message into focus.
    const submit = page.locator("[data-island] form button[type=submit]").first();
    await submit.click();
    await expect.poll(() => page.evaluate(() => document.activeElement?.className)).toBe("island-failed");
    expect(navigations).toBe(2);
    const violations = await axeViolations(page);
    expect(violations, formatViolations(page.url(), violations)).toEqual([]);

    // A later visit (after the mark's minute) or the next page load tries the code again: no message left behind.
    await context.unrouteAll();
    await page.goto(`${site.url}/pay/zakat/`);
    await page.locator("[data-island][data-hydrated]").first().waitFor({ state: "attached", timeout: 20_000 });
    expect(await page.locator(".island-failed").count()).toBe(0);
    await page.close();
  }, 90_000);
});
