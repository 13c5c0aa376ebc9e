/**
 * The service worker and the tag manager in real Chromium, against two real builds of the sample
 * site served on loopback as `nzf-build preview` serves it, with the generated `_headers` (CSP
 * enforced): the worker registers on localhost, visited pages open with the server stopped and the
 * browser offline, a new build (the served link moved to it, as a publish does) is
 * picked up and flags the page as updated, and the data layer gets the route-change event from a
 * stand-in for the tag manager (served at its real URL at the network layer).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { rename, symlink } from "node:fs/promises";
import { join } from "node:path";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { build } from "../../src/pipeline/build.js";
import type { BuildConfig } from "../../src/core/config.js";
import { createFixture, type Fixture } from "../support/build-fixture.js";
import { startPreviewServer } from "../../src/server/preview-server.js";
import type { StaticServer } from "../../src/server/static-server.js";
import { isolatedContext, launchBrowser, proxyOf, watchProblems } from "../support/browser.js";

const GTM_STAND_IN = `window.__gtmStandIn = document.currentScript && document.currentScript.src; (window.dataLayer = window.dataLayer || []).push({ event: "stand-in-loaded" });`;

let fixture: Fixture;
let second: BuildConfig;
let server: StaticServer;
let browser: Browser;
let context: BrowserContext;
let page: Page;
/** The link the server serves, which a "deploy" moves to the next build (as a publish moves `dist`). */
let served: string;
const serve = (port = 0) => startPreviewServer({ root: served, host: "127.0.0.1", port });
/** Links `served` to `dir` in one step (a new link renamed over the old). */
async function publish(dir: string): Promise<void> {
  const next = `${served}.next`;
  await symlink(dir, next);
  await rename(next, served);
}

beforeAll(async () => {
  fixture = await createFixture({ sample: true });
  await fixture.run();
  // The "next deploy": same content under another site URL, so the 404 page (precached) changes.
  second = { ...fixture.config, outDir: join(fixture.dir, "dist-next"), siteUrl: "https://next.example.org" };
  await build(second, { logger: fixture.logger });
  served = join(fixture.dir, "served");
  await symlink(fixture.config.outDir, served);
  server = await serve();
  browser = await launchBrowser();
  context = await isolatedContext(browser);
  proxyOf(context).answer("https://www.googletagmanager.com/", () => ({
    headers: { "content-type": "text/javascript" },
    body: GTM_STAND_IN,
  }));
  page = await context.newPage();
}, 240_000);

afterAll(async () => {
  await context?.close();
  await browser?.close();
  await server?.stop();
  await fixture?.cleanup();
});

const cached = (path: string) =>
  page.evaluate(
    async (p) => Boolean(await (await caches.open("nzf-pages")).match(new URL(p, location.href).href)),
    path,
  );

describe("service worker", () => {
  it("registers /sw.js on localhost and takes control of the page", async () => {
    const seen = watchProblems(page);
    await page.goto(server.url + "/");
    const scriptUrl = await page.evaluate(async () => (await navigator.serviceWorker.ready).active?.scriptURL);
    expect(scriptUrl).toBe(server.url + "/sw.js");
    await page.waitForFunction(() => navigator.serviceWorker.controller !== null);
    // The page the donor landed on is cached too (the registration script asks the worker to).
    await expect.poll(() => cached("/"), { timeout: 10_000 }).toBe(true);
    expect([...seen.consoleErrors, ...seen.pageErrors]).toEqual([]);
  });

  it("over plain HTTP on a host that is not localhost, it does not register and logs that service workers need HTTPS", async () => {
    const insecure = await isolatedContext(browser);
    // The same site at http://nzf.test (an insecure origin), answered from the loopback server.
    await insecure.route("http://nzf.test/**", async (route) => {
      const res = await fetch(server.url + new URL(route.request().url()).pathname);
      await route.fulfill({
        status: res.status,
        headers: Object.fromEntries(res.headers),
        body: Buffer.from(await res.arrayBuffer()),
      });
    });
    const tab = await insecure.newPage();
    const seen = watchProblems(tab);
    await tab.goto("http://nzf.test/about/");
    await expect
      .poll(() =>
        seen.consoleErrors.filter((e) =>
          e.includes("Service workers can only be used over HTTPS, or on localhost for development"),
        ),
      )
      .toHaveLength(1);
    expect(seen.pageErrors).toEqual([]);
    expect(await tab.evaluate(() => typeof navigator.serviceWorker)).toBe("undefined");
    await insecure.close();
  });

  it("after one visit, visited pages open with the network off; others show the offline page", async () => {
    await page.goto(server.url + "/");
    await expect.poll(() => cached("/")).toBe(true);
    await expect
      .poll(() =>
        page.evaluate(async () =>
          Boolean(
            await (await caches.open("nzf-images")).match(
              document.querySelector<HTMLImageElement>('img[fetchpriority="high"]')!.currentSrc,
            ),
          ),
        ),
      )
      .toBe(true);
    await page.goto(server.url + "/about/");
    await page.goto(server.url + "/calculate/");
    await expect.poll(() => cached("/calculate/")).toBe(true);
    const aboutTitle = await page.goto(server.url + "/about/").then(() => page.title());

    // The network is really gone: the server stopped, and the browser offline.
    const port = Number(new URL(server.url).port);
    await server.stop();
    await context.setOffline(true);
    try {
      await page.goto(server.url + "/about/");
      expect(await page.title()).toBe(aboutTitle);
      await page.goto(server.url + "/");
      expect(await page.locator("h1").first().textContent()).not.toBe("You are offline");
      // The hero, which the head preloads rather than an <img> loading it, was cached with the page.
      const hero = page.locator('img[fetchpriority="high"]');
      await expect
        .poll(() => hero.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth))
        .toBeGreaterThan(0);
      // The stylesheet comes from the precache: the page is styled offline.
      const styled = await page.evaluate(() => [...document.styleSheets].some((s) => s.cssRules.length > 0));
      expect(styled).toBe(true);
      await page.goto(server.url + "/faq/");
      expect(await page.locator("h1").first().textContent()).toBe("You are offline");
    } finally {
      await context.setOffline(false);
      server = await serve(port);
    }
  });

  it("picks up a new build: the update installs, the page is flagged, the next navigation is fresh", async () => {
    await page.goto(server.url + "/");
    // The page's own register() call has settled (it checks for updates too).
    await page.waitForFunction(
      () => navigator.serviceWorker.controller !== null && document.documentElement.dataset.sw === "registered",
    );
    expect(await page.evaluate(() => document.documentElement.dataset.swUpdated)).toBeUndefined();
    const before = await page.evaluate(() => fetch("/sw.js").then((r) => r.text()));

    await publish(second.outDir); // deploy
    const after = await page.evaluate(() => fetch("/sw.js", { cache: "no-store" }).then((r) => r.text()));
    expect(after).not.toBe(before);
    await page.evaluate(async () => (await navigator.serviceWorker.getRegistration())!.update());
    await page.waitForFunction(
      () =>
        document.documentElement.dataset.swUpdated === "true" &&
        (window as { __nzfSwUpdated?: boolean }).__nzfSwUpdated === true,
      undefined,
      { timeout: 15_000 },
    );

    await page.goto(server.url + "/about/");
    expect(await page.locator('link[rel="canonical"]').getAttribute("href")).toBe("https://next.example.org/about/");
  });
});

describe("tag manager", () => {
  it("loads GTM-55LSDKV5 from its host and pushes gatsby-route-change to dataLayer on every page view", async () => {
    const fresh = await context.newPage();
    for (const path of ["/", "/pay/zakat/"]) {
      await fresh.goto(server.url + path);
      await fresh.waitForFunction(() =>
        (window as { dataLayer?: { event?: string }[] }).dataLayer?.some((e) => e.event === "gatsby-route-change"),
      );
      const layer = await fresh.evaluate(() =>
        (window as unknown as { dataLayer: { event?: string }[] }).dataLayer.map((e) => e.event),
      );
      expect(layer.filter((e) => e === "gatsby-route-change")).toHaveLength(1);
      expect(layer).toContain("gtm.js");
      await fresh.waitForFunction(() => (window as { __gtmStandIn?: string }).__gtmStandIn);
      expect(await fresh.evaluate(() => (window as { __gtmStandIn?: string }).__gtmStandIn)).toBe(
        "https://www.googletagmanager.com/gtm.js?id=GTM-55LSDKV5",
      );
      expect(layer.some((e) => e && /web-?vitals/i.test(e))).toBe(false);
    }
    await fresh.close();
  });

  it("when the tag manager is blocked, the page works and throws no error", async () => {
    const blocked = await isolatedContext(browser, { blockTagManager: true });
    const tab = await blocked.newPage();
    const seen = watchProblems(tab);
    await tab.goto(server.url + "/faq/");
    await tab.waitForSelector('[data-island="faq-filter"][data-hydrated="true"]');
    await tab.waitForFunction(() =>
      (window as { dataLayer?: { event?: string }[] }).dataLayer?.some((e) => e.event === "gatsby-route-change"),
    );
    expect(seen.pageErrors).toEqual([]);
    // The only trace is the blocked request itself.
    expect(seen.failedRequests.length).toBeGreaterThan(0);
    expect(seen.failedRequests.every((r) => r.startsWith("https://www.googletagmanager.com/"))).toBe(true);
    expect(seen.consoleErrors.filter((e) => !/Failed to load resource/.test(e))).toEqual([]);
    await blocked.close();
  });
});
