/**
 * Responsive images in Chromium: at a phone and a desktop viewport the browser picks the candidate
 * the srcset and sizes call for (the smallest one covering the displayed width × device pixel
 * ratio), in WebP, with no layout shift; page heroes are offered at the full-width breakpoints and
 * the head's preload names the same candidates, so the hero is fetched once.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser } from "playwright-core";
import { sharedSampleSite, type SharedSite } from "../support/shared-site.js";
import { startStaticServer, type StaticServer } from "../../src/server/static-server.js";
import { isolatedContext, launchBrowser } from "../support/browser.js";

let site: SharedSite;
let server: StaticServer;
let browser: Browser;

beforeAll(async () => {
  site = await sharedSampleSite();
  server = await startStaticServer({ root: site.outDir });
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

async function heroAt(viewport: { width: number; height: number }, deviceScaleFactor: number, path = "/") {
  const context = await isolatedContext(browser, { viewport, deviceScaleFactor, isMobile: viewport.width < 600 });
  const page = await context.newPage();
  const requested: string[] = [];
  page.on("request", (request) => {
    if (request.url().includes("/_images/")) requested.push(new URL(request.url()).pathname);
  });
  await page.goto(server.url + path);
  const hero = page.locator(".hero img[fetchpriority=high]").first();
  await hero.evaluate((img: HTMLImageElement) => (img.complete ? null : new Promise((r) => (img.onload = r))));
  const info = await hero.evaluate((img: HTMLImageElement) => {
    const source = img.closest("picture")!.querySelector("source")!;
    const preload = document.head.querySelector<HTMLLinkElement>("link[rel=preload][as=image]");
    return {
      currentSrc: img.currentSrc,
      displayedWidth: img.getBoundingClientRect().width,
      srcset: source.srcset,
      sizes: source.sizes,
      type: source.type,
      layout: img.closest(".nzf-picture")!.getAttribute("data-layout"),
      preload: preload ? { srcset: preload.imageSrcset, sizes: preload.imageSizes, type: preload.type } : null,
      // Width and height attributes reserve the box before the image arrives (no layout shift).
      ratioAttr: Number(img.getAttribute("width")) / Number(img.getAttribute("height")),
      ratioShown: img.getBoundingClientRect().width / img.getBoundingClientRect().height,
    };
  });
  await context.close();
  return { ...info, requested };
}

/** What the srcset rules call for: the smallest candidate at least displayed width × DPR wide, else the largest. */
function expectedCandidate(srcset: string, needed: number): string {
  const candidates = widthsOf(srcset);
  return (candidates.find((c) => c.width >= needed) ?? candidates.at(-1)!).url;
}

function widthsOf(srcset: string): { url: string; width: number }[] {
  return srcset
    .split(",")
    .map((c) => {
      const [url, w] = c.trim().split(/\s+/);
      return { url: url!, width: Number(w!.replace("w", "")) };
    })
    .sort((a, b) => a.width - b.width);
}

const width = (src: string) => Number(/-(\d+)w\./.exec(src)?.[1]);

describe("responsive images in Chromium", () => {
  it("a phone at 3x gets a larger file than a desktop at 1x needs, each the one the srcset calls for", async () => {
    const phone = await heroAt({ width: 390, height: 844 }, 3);
    const desktop = await heroAt({ width: 1440, height: 900 }, 1);
    for (const [shot, dpr] of [
      [phone, 3],
      [desktop, 1],
    ] as const) {
      expect(shot.type).toBe("image/webp");
      expect(shot.currentSrc.endsWith(".webp")).toBe(true);
      expect(new URL(shot.currentSrc).pathname).toBe(expectedCandidate(shot.srcset, shot.displayedWidth * dpr));
      expect(Math.abs(shot.ratioAttr - shot.ratioShown)).toBeLessThan(0.02);
    }
    expect(width(phone.currentSrc)).toBeGreaterThan(width(desktop.currentSrc));
  });

  // The sample's hero originals are 1600 px wide, so the 1920 w breakpoint gives way to the original.
  it.each([
    ["a phone", { width: 390, height: 844 }, 3, "/"],
    ["a desktop", { width: 1280, height: 800 }, 1, "/"],
    ["a phone on a pay page", { width: 390, height: 844 }, 3, "/pay/zakat/"],
  ] as const)(
    "a page hero on %s is offered at the breakpoints and loads one file, sharp enough, as preloaded",
    async (_, viewport, dpr, path) => {
      const shot = await heroAt(viewport, dpr, path);
      expect(shot.layout).toBe("full");
      expect(widthsOf(shot.srcset).map((c) => c.width)).toEqual([750, 1080, 1366, 1600]);
      // Sharp enough: at least the displayed width × DPR, unless that is beyond the original.
      expect(width(shot.currentSrc)).toBeGreaterThanOrEqual(Math.min(Math.ceil(shot.displayedWidth * dpr), 1600));
      expect(new URL(shot.currentSrc).pathname).toBe(expectedCandidate(shot.srcset, shot.displayedWidth * dpr));
      // The head preloads what the picture then uses: same srcset, sizes and type, so it is fetched once.
      expect(shot.preload).toEqual({ srcset: shot.srcset, sizes: shot.sizes, type: "image/webp" });
      const hash = /\/_images\/([0-9a-f]+)-/.exec(new URL(shot.currentSrc).pathname)![1]!;
      expect(shot.requested.filter((p) => p.includes(hash))).toEqual([new URL(shot.currentSrc).pathname]);
    },
  );
});

describe("the picture fade", () => {
  it("hides only pictures still loading, then fades each in as it arrives; none is left hidden", async () => {
    const context = await isolatedContext(browser, { viewport: { width: 1280, height: 900 } });
    // Hold back the images, so they are still loading when the fade script runs.
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    await context.route(/\/_images\//, async (route) => {
      await held;
      await route.continue();
    });
    const page = await context.newPage();
    // Every transition that starts, by the class of the element it runs on.
    await page.addInitScript(() => {
      const started: string[] = ((window as unknown as { transitions: string[] }).transitions = []);
      document.addEventListener("transitionrun", (event) => started.push((event.target as Element).className), true);
    });
    // Not "load": that waits for the held image.
    await page.goto(server.url + "/", { waitUntil: "domcontentloaded" });
    const states = () =>
      page.$$eval(".nzf-picture", (pictures) =>
        pictures.map((p) => ({
          pending: p.classList.contains("nzf-pending"),
          loaded: p.classList.contains("nzf-loaded"),
          opacity: getComputedStyle(p.querySelector(".nzf-image")!).opacity,
          main: p.querySelector(".nzf-image")!.getAttribute("fetchpriority") === "high",
        })),
      );
    await expect.poll(async () => (await states()).some((s) => s.pending)).toBe(true);
    const waiting = (await states()).filter((s) => s.pending);
    // Hidden while loading, except the page's main image, which paints the moment it arrives.
    expect(waiting.filter((s) => !s.main).length).toBeGreaterThan(0);
    expect(waiting.every((s) => s.opacity === (s.main ? "1" : "0") && !s.loaded)).toBe(true);
    // The root is not restyled for this any more.
    expect(await page.evaluate(() => document.documentElement.className)).not.toContain("nzf-fade");
    release();
    await expect.poll(async () => (await states()).filter((s) => !s.loaded).length, { timeout: 10_000 }).toBe(0);
    expect((await states()).some((s) => s.pending)).toBe(false);
    await expect.poll(async () => (await states()).every((s) => s.opacity === "1"), { timeout: 5_000 }).toBe(true);
    // One fade a picture that was still loading, on its image; the placeholder under it never animates
    // (two compositor animations a picture cost the home page a long task on a slow phone).
    const transitions = await page.evaluate(() => (window as unknown as { transitions: string[] }).transitions);
    expect(transitions.filter((c) => c.includes("nzf-image")).length).toBe(waiting.filter((s) => !s.main).length);
    expect(transitions.filter((c) => c.includes("nzf-placeholder"))).toEqual([]);
    expect(await page.$$eval(".nzf-placeholder", (els) => els.map((el) => getComputedStyle(el).display))).not.toContain(
      "none",
    );
    await context.close();
  });

  it("an image that fails drops its placeholder, so its alternative text shows on the plain background", async () => {
    const context = await isolatedContext(browser, { viewport: { width: 1280, height: 900 } });
    await context.route(/\/_images\/.+\.(webp|avif|jpe?g|png)$/, (route) => route.fulfill({ status: 404, body: "" }));
    const page = await context.newPage();
    await page.goto(server.url + "/", { waitUntil: "load" });
    const pictures = () =>
      page.$$eval(".nzf-picture:has(.nzf-placeholder)", (els) =>
        els.map((p) => ({
          broken: p.classList.contains("nzf-broken"),
          placeholder: getComputedStyle(p.querySelector(".nzf-placeholder")!).display,
          image: getComputedStyle(p.querySelector(".nzf-image")!).opacity,
        })),
      );
    await expect
      .poll(async () => (await pictures()).filter((p) => p.broken).length, { timeout: 10_000 })
      .toBeGreaterThan(0);
    // Shown (after its fade), with no placeholder behind it.
    await expect
      .poll(
        async () =>
          (await pictures()).filter((p) => p.broken).every((p) => p.placeholder === "none" && p.image === "1"),
        { timeout: 5_000 },
      )
      .toBe(true);
    await context.close();
  });
});
