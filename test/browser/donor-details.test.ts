/**
 * The small things a donor trips over on a phone (issue 41), in real Chromium at 390×844: a tap on
 * the amount and the donor's figure replace the default, the fee checkbox sits with its label,
 * "Give again" is a styled button, the header's logo is not lazy. The payments API is answered by
 * the test (page.route) where a page needs one: these tests are about the pages, not payments.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { sitePagePaths } from "../support/build-fixture.js";
import { SHARED_SITE_VARIANTS, sharedSampleSite, type SharedSite } from "../support/shared-site.js";
import { startStaticServer, type StaticServer } from "../../src/server/static-server.js";
import { isolatedContext, launchBrowser } from "../support/browser.js";
import type { DonationState } from "../../src/payments/types.js";

/** Nothing listens here: a request the test does not answer fails loudly. */
// The address the shared site was built with: its requests are answered in the browser (page.route).
const API = SHARED_SITE_VARIANTS["payments-unreachable"].payments.apiUrl;
let built: SharedSite;
let site: StaticServer;
let browser: Browser;
let phone: BrowserContext;

beforeAll(async () => {
  built = await sharedSampleSite("payments-unreachable");
  site = await startStaticServer({ root: built.outDir });
  browser = await launchBrowser();
  // Each test judges a page on its own: no service worker fetching every page again, and no request
  // paused for the test to route (browser.ts).
  phone = await isolatedContext(browser, {
    viewport: { width: 390, height: 844 },
    hasTouch: true,
    isMobile: true,
    withoutServiceWorker: true,
    unrouted: true,
  });
  phone.setDefaultTimeout(10_000);
});

afterAll(async () => {
  await phone?.close();
  await browser?.close();
  await site?.stop();
});

async function openForm(path: string): Promise<Page> {
  const page = await phone.newPage();
  await page.goto(site.url + path);
  await page.waitForSelector('[data-island="donation"][data-hydrated]');
  return page;
}

describe("a donor on a phone", { timeout: 60_000 }, () => {
  it("taps the amount and types 457.50: the field holds 457.50, not the default with it", async () => {
    const page = await openForm("/pay/zakat/");
    const amount = page.getByLabel("Amount (AUD)");
    const before = await amount.inputValue();
    expect(before).not.toBe("");
    await amount.tap();
    await page.keyboard.type("457.50");
    expect(await amount.inputValue()).toBe("457.50");
    // With a mouse too, and a second click inside the focused field places the caret as usual.
    await amount.click();
    await page.keyboard.press("End");
    await page.keyboard.type("1");
    expect(await amount.inputValue()).toBe("457.501");
    await page.getByLabel("First name").click();
    await amount.click();
    await page.keyboard.type("90");
    expect(await amount.inputValue()).toBe("90");
    await page.close();
  });

  for (const { path, name, width } of [
    { path: "/pay/zakat/", name: /payment fee/, width: 390 },
    // In Arabic at 320 px the label wraps to four lines, on the box's left.
    { path: "/ar-ae/pay/zakat/?amount=457.50", name: /رسوم الدفع/, width: 320 },
  ]) {
    it(`${width} px ${path}: sees the fee checkbox beside its label, on the label's first line`, async () => {
      const page = await phone.newPage();
      await page.setViewportSize({ width, height: 844 });
      await page.goto(site.url + path);
      await page.waitForSelector('[data-island="donation"][data-hydrated]');
      const rtl = path.startsWith("/ar-ae/");
      // In instalments the label is at its longest ("… added to each payment, … in all").
      await page.getByLabel(rtl ? "على أقساط شهرية" : "In monthly instalments").check();
      const checkbox = page.getByRole("checkbox", { name });
      const box = (await checkbox.boundingBox())!;
      const labelOf = page.locator(`label[for="${await checkbox.getAttribute("id")}"]`);
      const label = (await labelOf.boundingBox())!;
      const line = await labelOf.evaluate((el) => Number.parseFloat(getComputedStyle(el).lineHeight));
      // Beside: the label starts just after the box (on its left in Arabic), not on a line of its own under it.
      const gap = rtl ? box.x - (label.x + label.width) : label.x - (box.x + box.width);
      expect(gap).toBeGreaterThanOrEqual(0);
      expect(gap).toBeLessThan(16);
      // Level with the label's first line, and the label fits beside it.
      expect(box.y + box.height / 2).toBeGreaterThan(label.y);
      expect(box.y + box.height / 2).toBeLessThan(label.y + line);
      expect(label.x).toBeGreaterThanOrEqual(0);
      expect(label.x + label.width).toBeLessThanOrEqual(width);
      await page.close();
    });
  }

  it("after giving, finds 'Give again' styled as the site's buttons, not the browser's own", async () => {
    const page = await openForm("/pay/zakat/");
    // What the thank-you page leaves for Back to find (markGiven in form-state.ts).
    await page.evaluate(() =>
      sessionStorage.setItem("nzf-donation:given", JSON.stringify({ path: "/pay/zakat/", reference: "NZF-ABCD-EFGH" })),
    );
    await page.reload();
    const again = page.getByRole("button", { name: "Give again" });
    await again.waitFor();
    const style = (selector: string) =>
      page
        .locator(selector)
        .first()
        .evaluate((el) => {
          const s = getComputedStyle(el);
          return {
            font: s.fontFamily,
            size: s.fontSize,
            weight: s.fontWeight,
            border: s.borderTopColor,
            radius: s.borderTopLeftRadius,
          };
        });
    const given = await style(".don-given button");
    const site = await style("a.button");
    expect(given).toEqual(site);
    expect(given.font).not.toMatch(/^Arial$/);
    expect(Number.parseFloat(given.size)).toBeGreaterThanOrEqual(16);
    expect((await again.boundingBox())!.height).toBeGreaterThanOrEqual(44);
    await page.close();
  });

  it("has the header's logo loading with the page, not lazily", async () => {
    const page = await phone.newPage();
    await page.goto(site.url + "/");
    const logo = page.locator(".brand-logo img.nzf-image");
    expect(await logo.getAttribute("loading")).toBe("eager");
    expect(
      await logo.evaluate((img) => (img as HTMLImageElement).complete && (img as HTMLImageElement).naturalWidth > 0),
    ).toBe(true);
    await page.close();
  });
});

/** 12 monthly instalments of $457.50 with the fee covered, as the payments API reports them. */
const DONATION: DonationState = {
  donationId: "don_0123456789abcdef",
  reference: "NZF-ABCD-EFGH",
  currency: "AUD",
  frequency: "monthly-instalments",
  amountCents: 3812,
  feeCents: 97,
  totalCents: 3909,
  schedule: Array.from({ length: 12 }, (_, i) => ({
    date: `${2026 + Math.floor((10 + i) / 12)}-${String(((10 + i) % 12) + 1).padStart(2, "0")}-28`,
    amountCents: i === 11 ? 3915 : 3909,
  })),
  openEnded: false,
  scheduleTotalCents: 46914,
  instalments: { count: 12, giftCents: 45750, endDate: "2027-10-28" },
  status: "succeeded",
  fund: "zakat",
  createdAt: "2026-11-28T00:00:00.000Z",
};

/**
 * The page's cumulative layout shift as Chromium reports it (layout-shift entries without recent
 * input, all summed: these pages are short-lived, so one session window), after it has settled.
 */
async function layoutShift(page: Page, settle: () => Promise<unknown>): Promise<number> {
  await recordShifts(page);
  return settledShift(page, settle);
}

/** From now on, each document the page loads sums its own layout shifts (window.__shift, __shifts). */
async function recordShifts(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const w = window as unknown as { __shift: number; __shifts: string[] };
    w.__shift = 0;
    w.__shifts = [];
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries() as (PerformanceEntry & {
        value: number;
        hadRecentInput: boolean;
        sources?: { node?: Node }[];
      })[]) {
        if (entry.hadRecentInput) continue;
        w.__shift += entry.value;
        w.__shifts.push(
          `${entry.value.toFixed(4)} ${(entry.sources ?? []).map((s) => (s.node as Element | undefined)?.className || s.node?.nodeName).join(",")}`,
        );
      }
    }).observe({ type: "layout-shift", buffered: true });
  });
}

/** The layout shift of the document `settle` loads in a page that records them (recordShifts). */
async function settledShift(page: Page, settle: () => Promise<unknown>): Promise<number> {
  await settle();
  // Settled, rather than a fixed wait: the fonts and the images that were loading are in, and six
  // frames in a row report no new shift (a shift is reported a frame or two after its change).
  await page.evaluate(async () => {
    await document.fonts.ready;
    const loading = [...document.images].filter((img) => !img.complete && img.loading !== "lazy");
    await Promise.all(
      loading.map(
        (img) =>
          new Promise((resolve) => {
            img.addEventListener("load", resolve, { once: true });
            img.addEventListener("error", resolve, { once: true });
          }),
      ),
    );
    const shifts = (window as unknown as { __shifts: string[] }).__shifts;
    const frame = () => new Promise((resolve) => requestAnimationFrame(resolve));
    for (let quiet = 0, seen = shifts.length; quiet < 6; ) {
      await frame();
      if (shifts.length === seen) quiet++;
      else [quiet, seen] = [0, shifts.length];
    }
  });
  return page.evaluate(() => (window as unknown as { __shift: number }).__shift);
}

describe("layout shift on the donor's pages, measured in Chromium", { timeout: 120_000 }, () => {
  for (const [name, viewport] of [
    ["phone", { width: 390, height: 844 }],
    ["desktop", { width: 1280, height: 800 }],
  ] as const) {
    it(`${name}: the thank-you page reserves its space while it checks the payment (CLS < 0.02)`, async () => {
      const own = await isolatedContext(browser, { viewport, withoutServiceWorker: true });
      // The payments API answers after a moment, as over a phone's connection.
      await own.route(`${API}/donations/**`, async (route) => {
        await new Promise((resolve) => setTimeout(resolve, 400));
        await route.fulfill({
          status: 200,
          contentType: "application/json",
          headers: { "access-control-allow-origin": "*" },
          body: JSON.stringify(DONATION),
        });
      });
      for (const prefix of ["", "/ar-ae"]) {
        const page = await own.newPage();
        const cls = await layoutShift(page, async () => {
          await page.goto(
            `${site.url}${prefix}/pay/thank-you/?donation=${DONATION.donationId}&payment_intent=pi_1&redirect_status=succeeded`,
          );
          await page.locator(".thanks-reference").waitFor();
        });
        const shifts = await page.evaluate(() => (window as unknown as { __shifts: string[] }).__shifts);
        expect(await page.locator(".thanks-reference").textContent()).toBe(DONATION.reference);
        expect(cls, shifts.join("; ")).toBeLessThan(0.02);
        console.log(`${prefix}/pay/thank-you/ CLS at ${viewport.width}×${viewport.height}: ${cls.toFixed(4)}`);
        await page.close();
      }
      await own.close();
    });

    it(`${name}: no donor page (the calculator, every pay page, in each language) shifts by 0.02 or more`, async () => {
      const paths = (await sitePagePaths(built.outDir)).filter(
        (p) =>
          /^(\/[a-z]{2}-[a-z]{2})?\/(pay|calculate)\//.test(p) &&
          !p.includes("thank-you") &&
          p !== "/pay/tainted_wealth/",
      );
      expect(paths).toContain("/calculate/");
      expect(paths).toContain("/ar-ae/pay/zakat/");
      const own = await isolatedContext(browser, { viewport, withoutServiceWorker: true, unrouted: true });
      const worst: string[] = [];
      // One tab goes from page to page, each a new document measured on its own: a new tab for
      // each page started a renderer process each time (42 in this file's two sweeps).
      const page = await own.newPage();
      await recordShifts(page);
      for (const path of paths) {
        const cls = await settledShift(page, async () => {
          await page.goto(site.url + path, { waitUntil: "load" });
          await page.waitForSelector("[data-island][data-hydrated]");
        });
        if (cls >= 0.02)
          worst.push(
            `${path}: ${cls.toFixed(4)} (${(await page.evaluate(() => (window as unknown as { __shifts: string[] }).__shifts)).join("; ")})`,
          );
      }
      await page.close();
      expect(worst).toEqual([]);
      await own.close();
    });
  }
});
