/**
 * The zakat calculator in real Chromium against a real build of the sample site (silver $1.55/g,
 * nisab 595 g × $1.55 = $922.25, prices as at 1 November 2026): what a donor does, keyboard only.
 * Also: an invalid calculate_page fails the build naming the document.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cp, mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { tmpdir } from "node:os";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { createFixture, PROJECT_ROOT } from "../support/build-fixture.js";
import { sharedSampleSite, type SharedSite } from "../support/shared-site.js";
import { startStaticServer, type StaticServer } from "../../src/server/static-server.js";
import { isolatedContext, launchBrowser, watchProblems, type PageProblems } from "../support/browser.js";
import { axeViolations, formatViolations } from "../support/axe.js";
import { NzfError } from "../../src/core/errors.js";
import { CALCULATOR_BUDGET_GZIP, measureCalculatorJs } from "../../bench/calculator.js";
import { pageScriptUrls } from "../../bench/page-script-urls.js";

let site: SharedSite;
let server: StaticServer;
let browser: Browser;
let context: BrowserContext;

beforeAll(async () => {
  // Payments configured (never called here), so the pay page shows the form the calculator hands its
  // amount to rather than the notice a site without card payments shows. Only read: the run's shared build.
  site = await sharedSampleSite("payments-unreachable");
  server = await startStaticServer({ root: site.outDir });
  browser = await launchBrowser();
  context = await isolatedContext(browser);
});

afterAll(async () => {
  await context?.close();
  await browser?.close();
  await server?.stop();
});

const CASH = "Cash and bank balances (including offset accounts)";

/** The donor's date: 20 days after the sample's prices (1 November 2026), so no old-price warning whenever the suite runs. */
const DONORS_DAY = new Date(2026, 10, 21, 10);

async function openCalculator(page: Page): Promise<void> {
  await page.clock.setFixedTime(DONORS_DAY);
  await page.goto(server.url + "/calculate/");
  // Nothing saved and the prices are fresh, so the island waits for the donor's first use.
  await page.waitForSelector('[data-island="calculator"][data-hydrated="on-first-use"]');
  await page.locator(".calc-layout").waitFor();
}

/** What a keyboard user is looking for: a field by its label, a section by its title, or a control by its text. */
type Target = { label: string } | { section: string } | { text: string };

/** Presses Tab until the focused element is the target, like a keyboard user looking for a control. */
async function tabTo(page: Page, target: Target): Promise<void> {
  for (let i = 0; i < 80; i++) {
    await page.keyboard.press("Tab");
    const found = await page.evaluate((t) => {
      const el = document.activeElement;
      if (!el) return false;
      if ("label" in t) return (el as HTMLInputElement).labels?.[0]?.textContent === t.label;
      if ("section" in t)
        return el.tagName === "SUMMARY" && el.querySelector(".calc-group-title")?.textContent === t.section;
      return el.textContent === t.text;
    }, target);
    if (found) return;
  }
  throw new Error(`Tab never reached ${JSON.stringify(target)}`);
}

/** Console errors, uncaught exceptions and failed requests to our own server. */
function ownProblems(seen: PageProblems): string[] {
  return [
    ...seen.consoleErrors.filter((e) => !/ERR_(NAME_NOT_RESOLVED|BLOCKED_BY_CLIENT)/.test(e)),
    ...seen.pageErrors,
    ...seen.failedRequests.filter((r) => r.startsWith(server.url)),
  ];
}
const summary = (page: Page) => page.locator(".calc-summary").textContent();

describe("the zakat calculator in Chromium", () => {
  it("a donor fills the form by keyboard only, sees the result, reloads to find their figures, and pays", async () => {
    const page = await context.newPage();
    const seen = watchProblems(page);
    await openCalculator(page);

    await tabTo(page, { label: CASH });
    await page.keyboard.type("12,000");
    await tabTo(page, { section: "What you owe now" });
    await page.keyboard.press("Enter");
    await tabTo(page, { label: "Debts due now" });
    await page.keyboard.type("$1,000");
    // 12,000 − 1,000 = 11,000 ≥ 922.25; × 2.5% = $275.00.
    await expect
      .poll(() => summary(page))
      .toBe(
        "Assets $12,000.00 less liabilities $1,000.00 leaves $11,000.00, at or above the nisab of $922.25: zakat due at 2.5% is $275.00.",
      );
    expect(await page.locator(".calc-summary").getAttribute("role")).toBe("status");

    await page.reload();
    await page.waitForSelector('[data-island="calculator"][data-hydrated="true"]');
    await expect.poll(() => page.getByLabel(CASH, { exact: true }).inputValue()).toBe("12,000");
    expect(await page.getByLabel("Debts due now", { exact: true }).inputValue()).toBe("$1,000");
    expect(await summary(page)).toContain("zakat due at 2.5% is $275.00.");

    await tabTo(page, { text: "Pay my zakat" });
    await page.keyboard.press("Enter");
    await page.waitForURL(/\/pay\/zakat\/\?amount=/);
    const url = new URL(page.url());
    expect(url.pathname).toBe("/pay/zakat/");
    expect(url.searchParams.get("amount")).toBe("275.00");
    expect(url.hash).toBe("#give");
    expect(await page.locator("h1").textContent()).toBeTruthy();
    expect(ownProblems(seen)).toEqual([]);
    await page.evaluate(() => localStorage.clear());
    await page.close();
  }, 60_000);

  it("waits for the donor's first use to hydrate, then takes over what the browser had already put in the form", async () => {
    const fresh = await isolatedContext(browser);
    const page = await fresh.newPage();
    const seen = watchProblems(page);
    await openCalculator(page);
    // Loaded, nothing used: still the server's markup (Lighthouse's total blocking time was this hydration).
    await page.waitForLoadState("load");
    await page.waitForTimeout(300);
    expect(await page.locator('[data-island="calculator"]').getAttribute("data-hydrated")).toBe("on-first-use");
    expect(await summary(page)).toBe(
      "Assets $0.00 less liabilities $0.00 leaves $0.00, below the nisab of $922.25: no zakat is due.",
    );

    // What a browser's form restore or autofill does: values set without the donor's keystrokes.
    await page.getByLabel(CASH, { exact: true }).evaluate((el) => ((el as HTMLInputElement).value = "12,000"));
    await page.getByLabel(/Solar \(Gregorian\) year/).evaluate((el) => ((el as HTMLInputElement).checked = true));
    // The keyboard's first step into the island hydrates it.
    await tabTo(page, { section: "What you owe now" });
    expect(await page.locator('[data-island="calculator"]').getAttribute("data-hydrated")).toBe("true");
    // 12,000 at the solar rate of 2.577% = $309.24; the figures were kept, not wiped by the first render.
    await expect
      .poll(() => summary(page))
      .toBe(
        "Assets $12,000.00 less liabilities $0.00 leaves $12,000.00, at or above the nisab of $922.25: zakat due at 2.577% is $309.24.",
      );
    expect(await page.getByLabel(CASH, { exact: true }).inputValue()).toBe("12,000");
    await expect
      .poll(() =>
        page.evaluate(() => JSON.parse(localStorage.getItem("nzf:zakat-calculator:v1") ?? "{}").amounts?.cash),
      )
      .toBe("12,000");
    expect(ownProblems(seen)).toEqual([]);
    await fresh.close();
  }, 60_000);

  it("a figure the browser filled in before any of the page's code ran is counted at once, with no further tap", async () => {
    const fresh = await isolatedContext(browser);
    const page = await fresh.newPage();
    const seen = watchProblems(page);
    await page.clock.setFixedTime(DONORS_DAY);
    // Hold the calculator's code back until the browser has filled the field, as autofill or a paste does.
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route(/\/_islands\/calculator-[^/]+\.js$/, async (route) => {
      await held;
      await route.continue();
    });
    await page.goto(server.url + "/calculate/");
    // No input event: the page's own scripts see nothing, as with a value restored by the browser.
    await page.getByLabel(CASH, { exact: true }).evaluate((el) => ((el as HTMLInputElement).value = "12,000"));
    release();
    await page.waitForSelector('[data-island="calculator"][data-hydrated="true"]');
    await expect
      .poll(() => summary(page))
      .toBe(
        "Assets $12,000.00 less liabilities $0.00 leaves $12,000.00, at or above the nisab of $922.25: zakat due at 2.5% is $300.00.",
      );
    expect(await page.getByLabel(CASH, { exact: true }).inputValue()).toBe("12,000");
    expect(ownProblems(seen)).toEqual([]);
    await fresh.close();
  }, 60_000);

  it("a tap on Clear my figures by mistake loses nothing: Bring my figures back restores them", async () => {
    const fresh = await isolatedContext(browser);
    const page = await fresh.newPage();
    await page.setViewportSize({ width: 390, height: 844 });
    const seen = watchProblems(page);
    await openCalculator(page);
    await page.getByLabel(CASH, { exact: true }).fill("12,000");
    await expect.poll(() => summary(page)).toContain("zakat due at 2.5% is $300.00.");
    await page.getByRole("button", { name: "Clear my figures" }).click();
    await expect.poll(() => summary(page)).toContain("no zakat is due");
    expect(await page.getByLabel(CASH, { exact: true }).inputValue()).toBe("");
    await page.getByRole("button", { name: "Bring my figures back" }).click();
    await expect.poll(() => page.getByLabel(CASH, { exact: true }).inputValue()).toBe("12,000");
    await expect.poll(() => summary(page)).toContain("zakat due at 2.5% is $300.00.");
    expect(await page.locator(".calc-actions [role=status]").textContent()).toBe("Your figures are back.");
    expect(await page.getByRole("button", { name: "Bring my figures back" }).count()).toBe(0);
    // Kept in the browser again, as before the clear.
    await expect
      .poll(() =>
        page.evaluate(() => JSON.parse(localStorage.getItem("nzf:zakat-calculator:v1") ?? "{}").amounts?.cash),
      )
      .toBe("12,000");
    // Once the donor types again after a clear, the old figures are not offered back over the new.
    await page.getByRole("button", { name: "Clear my figures" }).click();
    await page.getByLabel(CASH, { exact: true }).fill("500");
    expect(await page.getByRole("button", { name: "Bring my figures back" }).count()).toBe(0);
    expect(ownProblems(seen)).toEqual([]);
    await fresh.close();
  }, 60_000);

  it("hydrates while the page loads when the prices are over 30 days old, to show the warning", async () => {
    const fresh = await isolatedContext(browser);
    const page = await fresh.newPage();
    await page.clock.setFixedTime(new Date(2026, 11, 15, 10)); // 15 December: 44 days after 1 November
    await page.goto(server.url + "/calculate/");
    await page.waitForSelector('[data-island="calculator"][data-hydrated="true"]');
    await expect.poll(() => page.locator(".calc-warning").textContent()).toMatch(/more than 30 days old/);
    expect(await page.locator(".calc-result").textContent()).toContain("Prices as at 1 November 2026 (44 days ago)");
    await fresh.close();
  }, 60_000);

  it("a click as the first use hydrates the island and is not lost", async () => {
    const fresh = await isolatedContext(browser);
    const page = await fresh.newPage();
    const seen = watchProblems(page);
    await openCalculator(page);
    await page.getByRole("button", { name: "Clear my figures" }).click();
    await expect
      .poll(() => page.locator(".calc-actions [role=status]").textContent())
      .toBe("Your figures have been cleared from this form and this browser.");
    expect(ownProblems(seen)).toEqual([]);
    await fresh.close();
  }, 60_000);

  it("bad input shows its message under the field and keeps everything else; axe-core stays clean", async () => {
    const page = await context.newPage();
    const seen = watchProblems(page);
    await openCalculator(page);
    const initial = await axeViolations(page);
    expect(formatViolations("/calculate/", initial)).toBe("");

    await tabTo(page, { label: CASH });
    await page.keyboard.type("5000");
    await tabTo(page, { section: "Cryptocurrency" });
    await page.keyboard.press("Enter");
    await tabTo(page, { label: "Cryptocurrency" });
    await page.keyboard.type("lots");
    await page.keyboard.press("Tab");

    const crypto = page.getByLabel("Cryptocurrency", { exact: true });
    await expect.poll(() => crypto.getAttribute("aria-invalid")).toBe("true");
    const describedBy = (await crypto.getAttribute("aria-describedby"))!;
    const message = page.locator(`[id="${describedBy.split(" ").pop()}"]`);
    expect(await message.textContent()).toBe("Enter an amount in dollars, like 1,200.50.");
    expect(await message.isVisible()).toBe(true);
    expect(await page.getByLabel(CASH, { exact: true }).inputValue()).toBe("5000");
    expect(await crypto.inputValue()).toBe("lots");
    expect(await summary(page)).toBe("Check the field marked in the form; the result will update when it is fixed.");
    expect(await page.getByText("Pay my zakat", { exact: true }).count()).toBe(0);
    const withError = await axeViolations(page);
    expect(formatViolations("/calculate/ with an error", withError)).toBe("");

    await crypto.focus();
    await page.keyboard.press("Control+A");
    await page.keyboard.type("250");
    await expect.poll(() => crypto.getAttribute("aria-invalid")).toBeNull();
    // 5,250 × 2.5% = $131.25.
    expect(await summary(page)).toContain("zakat due at 2.5% is $131.25.");

    // Every section open, with gold items: still clean.
    const sections = page.locator("details.calc-group");
    for (let i = 0; i < (await sections.count()); i++) {
      if ((await sections.nth(i).getAttribute("open")) === null)
        await sections.nth(i).locator("> summary").press("Enter");
    }
    expect(await page.locator("details.calc-group:not([open])").count()).toBe(0);
    await page.getByRole("button", { name: "Add another gold item" }).press("Enter");
    expect(formatViolations("/calculate/ all open", await axeViolations(page))).toBe("");
    await page.getByRole("button", { name: "Clear my figures" }).press("Enter");
    expect(await page.getByLabel(CASH, { exact: true }).inputValue()).toBe("");
    expect(await page.evaluate(() => Object.keys(localStorage).filter((k) => k.includes("zakat")))).toEqual([]);
    expect(ownProblems(seen)).toEqual([]);
    await page.close();
  }, 60_000);

  it("without JavaScript the page explains how to calculate and shows the current nisab", async () => {
    const noJs = await browser.newContext({ javaScriptEnabled: false });
    const page = await noJs.newPage();
    await page.goto(server.url + "/calculate/");
    expect(await page.locator(".nisab-note").textContent()).toContain("= $922.25");
    // Playwright's text queries skip <noscript>, where this text lives: found by its class instead.
    const byHand = page.locator(".calc-fallback");
    expect(await byHand.isVisible()).toBe(true);
    expect(await byHand.textContent()).toContain("you can calculate by hand");
    expect(await page.locator(".calc-layout").isVisible()).toBe(false);
    await noJs.close();
  });
});

/** Screenshots of each step of the journeys, kept for review (test-results/ is not committed). */
const JOURNEY_DIR = join(PROJECT_ROOT, "test-results/journeys");

/** Where the donor is: the focused element, whether it is on screen and clear of the running bar, and the bar. */
async function view(page: Page) {
  return page.evaluate(() => {
    const el = document.activeElement as HTMLElement | null;
    const r = el?.getBoundingClientRect();
    const bar = document.querySelector<HTMLElement>(".calc-bar");
    const barShown = !!bar && getComputedStyle(bar).display !== "none" && getComputedStyle(bar).visibility !== "hidden";
    const barRect = bar?.getBoundingClientRect();
    const bottom = barShown ? barRect!.top : innerHeight;
    const label = el instanceof HTMLInputElement ? el.labels?.[0]?.textContent : undefined;
    return {
      tag: el?.tagName ?? "",
      text: (label ?? el?.querySelector(".calc-group-title")?.textContent ?? el?.textContent ?? "").trim(),
      top: Math.round(r?.top ?? -1),
      /** On screen and not under the running bar (WCAG 2.2 2.4.11 Focus Not Obscured). */
      clear: !!r && r.top >= 0 && r.bottom <= bottom + 0.5 && r.height > 0,
      barShown,
      barAtBottom: barShown && Math.abs(barRect!.bottom - innerHeight) < 1,
      barText: barShown ? bar!.querySelector(".calc-bar-total")!.textContent : null,
      innerWidth,
      scrollWidth: document.documentElement.scrollWidth,
    };
  });
}

for (const viewport of [
  { width: 390, height: 844 },
  { width: 1280, height: 800 },
]) {
  const phone = viewport.width < 900;
  describe(`the calculate → pay journey at ${viewport.width}×${viewport.height}`, () => {
    it("shows the running total where the donor is, takes them from step to step with focus, and hands the amount to the pay page", async () => {
      const journey = await isolatedContext(browser, { viewport });
      const page = await journey.newPage();
      const seen = watchProblems(page);
      await mkdir(JOURNEY_DIR, { recursive: true });
      let step = 0;
      const shot = (name: string) =>
        page.screenshot({ path: join(JOURNEY_DIR, `calculator-${viewport.width}-${++step}-${name}.png`) });
      const axeClean = async (what: string) =>
        expect(formatViolations(`/calculate/ ${what} at ${viewport.width}px`, await axeViolations(page))).toBe("");

      await openCalculator(page);
      let v = await view(page);
      // The running total is on a phone's screen from the start, at the bottom; on a desktop the result panel is.
      expect(v.barShown).toBe(phone);
      if (phone) {
        expect(v.barAtBottom).toBe(true);
        expect(v.barText).toBe("Zakat due: $0.00");
      } else {
        expect(await page.locator(".calc-result").evaluate((el) => el.getBoundingClientRect().top < innerHeight)).toBe(
          true,
        );
      }
      expect(v.scrollWidth).toBeLessThanOrEqual(v.innerWidth);
      await shot("open");
      await axeClean("on opening");

      await tabTo(page, { label: CASH });
      await page.keyboard.type("12,000");
      v = await view(page);
      expect(v).toMatchObject({ tag: "INPUT", text: CASH, clear: true });
      // 12,000 × 2.5% = $300.00, shown beside the field the donor is in.
      if (phone) await expect.poll(async () => (await view(page)).barText).toBe("Zakat due: $300.00");
      else
        expect(
          await page
            .locator(".calc-result .calc-due strong")
            .evaluate((el) => [el.textContent, el.getBoundingClientRect().bottom < innerHeight]),
        ).toEqual(["$300.00", true]);
      await shot("cash-entered");

      // A mistake: the section's heading stops showing its old total, and so does the running total.
      await page.keyboard.type("x");
      await page.keyboard.press("Tab");
      const cashTotal = page.locator("details.calc-group").first().locator(".calc-group-total");
      await expect.poll(() => cashTotal.textContent()).toBe("Check this section");
      if (phone) expect((await view(page)).barText).toBe("Zakat due: check the marked fields");
      expect((await view(page)).clear).toBe(true);
      await shot("field-in-error");
      await page.keyboard.press("Shift+Tab");
      await page.keyboard.press("End");
      await page.keyboard.press("Backspace");
      await expect.poll(() => cashTotal.textContent()).toBe("$12,000.00");

      // The gold nisab: 12,000 is below 85 g × $165 = $14,025.00, so nothing is due; then back to silver.
      await page.getByLabel("Gold: 85 g, $14,025.00").check();
      await expect
        .poll(() => summary(page))
        .toBe(
          "Assets $12,000.00 less liabilities $0.00 leaves $12,000.00, below the nisab of $14,025.00: no zakat is due.",
        );
      if (phone) expect((await view(page)).barText).toBe("Zakat due: $0.00");
      await shot("gold-nisab");
      await page.getByLabel("Silver: 595 g, $922.25").check();
      await expect.poll(() => summary(page)).toContain("zakat due at 2.5% is $300.00.");

      // "Next": the next section opens, and its heading is focused at the top of the screen.
      await tabTo(page, { text: "Next: Gold and silver" });
      expect((await view(page)).clear).toBe(true);
      await page.keyboard.press("Enter");
      await expect.poll(async () => (await view(page)).text).toBe("Gold and silver");
      v = await view(page);
      expect(v).toMatchObject({ tag: "SUMMARY", clear: true });
      expect(v.top).toBeLessThan(80);
      expect(await page.locator("details.calc-group[open] .calc-group-title").allTextContents()).toEqual([
        "Gold and silver",
      ]);
      await shot("next-section");

      await tabTo(page, { section: "What you owe now" });
      await page.keyboard.press("Enter");
      v = await view(page);
      expect(v).toMatchObject({ tag: "SUMMARY", text: "What you owe now", clear: true });
      await tabTo(page, { label: "Debts due now" });
      await page.keyboard.type("$1,000");
      v = await view(page);
      expect(v).toMatchObject({ tag: "INPUT", text: "Debts due now", clear: true });
      // 12,000 − 1,000 = 11,000; × 2.5% = $275.00.
      // The bar shows the new total, or has stepped aside because the result itself is on screen
      // (how far the page has scrolled by now depends on the machine's timing).
      if (phone)
        await expect
          .poll(
            async () => {
              const now = await view(page);
              if (now.barShown) return now.barText;
              // The bar steps aside only for a quarter of the panel or more (running-bar.tsx).
              return page.evaluate(() => {
                const r = document.querySelector(".calc-result")!.getBoundingClientRect();
                const shown = Math.max(0, Math.min(r.bottom, innerHeight) - Math.max(r.top, 0)) / r.height;
                return shown >= 0.24
                  ? "result on screen"
                  : `bar hidden, ${Math.round(shown * 100)}% of the result on screen`;
              });
            },
            { timeout: 5_000 },
          )
          .toMatch(/^(Zakat due: \$275\.00|result on screen)$/);
      await expect.poll(() => summary(page)).toContain("zakat due at 2.5% is $275.00.");
      // Every control down to "See my result" comes into view clear of the bar as the donor tabs.
      for (let i = 0; i < 10 && (await view(page)).text !== "See my result"; i++) {
        await page.keyboard.press("Tab");
        expect((await view(page)).clear).toBe(true);
      }
      await shot("liabilities");

      expect((await view(page)).text).toBe("See my result");
      await page.keyboard.press("Enter");
      await expect.poll(async () => (await view(page)).text).toBe("Your zakat");
      v = await view(page);
      expect(v).toMatchObject({ tag: "H2", clear: true });
      expect(v.top).toBeLessThan(80);
      // With the full result on screen, the bar steps aside (it would repeat it and cover "Pay my zakat").
      await expect.poll(async () => (await view(page)).barShown).toBe(false);
      expect(await page.locator(".calc-pay").evaluate((el) => el.getBoundingClientRect().bottom <= innerHeight)).toBe(
        true,
      );
      await shot("result");
      await axeClean("showing the result");

      if (phone) {
        // Back up in the form, the bar is there again: the donor pays from it with a thumb.
        await page.locator("details.calc-group > summary").first().focus();
        await expect.poll(async () => (await view(page)).barText).toBe("Zakat due: $275.00");
        await page.locator(".calc-bar").getByRole("link", { name: "Pay this" }).click();
      } else {
        await tabTo(page, { text: "Pay my zakat" });
        await page.keyboard.press("Enter");
      }
      await page.waitForURL(/\/pay\/zakat\//);
      const url = new URL(page.url());
      // The hand-off contract: /pay/zakat/?amount=<dollars>.<cents>#give.
      expect(`${url.pathname}${url.search}${url.hash}`).toBe("/pay/zakat/?amount=275.00#give");
      // The donation form shows whole dollars without ".00".
      await expect.poll(() => page.getByLabel("Amount (AUD)").inputValue(), { timeout: 10_000 }).toBe("275");
      // The donation form's #give anchor belongs to the pay page; where it exists, the hand-off lands on it.
      const give = await page.evaluate(() => document.getElementById("give")?.getBoundingClientRect().top ?? null);
      if (give !== null) expect(give).toBeLessThan(viewport.height);
      await shot("pay-page");
      expect(ownProblems(seen)).toEqual([]);
      await journey.close();
    }, 90_000);
  });
}

describe("the running total on a phone", () => {
  it("steps aside for a quarter of the result or more, and comes back for a sliver of it", async () => {
    const phone = await isolatedContext(browser, { viewport: { width: 390, height: 844 } });
    const page = await phone.newPage();
    await openCalculator(page);
    await page.getByLabel(CASH, { exact: true }).fill("12,000");
    await expect.poll(() => summary(page)).toContain("zakat due at 2.5% is $300.00.");
    /** Scrolls so that this share of the result panel shows above the bottom of the screen. */
    const showResult = (share: number) =>
      page.evaluate((s) => {
        const r = document.querySelector(".calc-result")!.getBoundingClientRect();
        scrollBy(0, r.top + r.height * s - innerHeight);
      }, share);
    const barShown = () => view(page).then((v) => v.barShown);
    await showResult(0.5);
    await expect.poll(barShown).toBe(false);
    // Still "intersecting", but too little of the panel to read the amount: the bar is needed again.
    await showResult(0.1);
    await expect.poll(barShown).toBe(true);
    await showResult(0.5);
    await expect.poll(barShown).toBe(false);
    await showResult(-0.5);
    await expect.poll(barShown).toBe(true);
    await phone.close();
  }, 60_000);

  it("follows the latest report when a busy phone hands the observer the result's coming and going at once", async () => {
    const phone = await isolatedContext(browser, { viewport: { width: 390, height: 844 } });
    const page = await phone.newPage();
    // A main thread too busy to run the observer's callback between two frames: Chromium then hands it
    // every entry queued since its last run, oldest first. Here the entries are held until the test
    // lets them through in one call (a CI run at load 10 met this: bar hidden, result off screen).
    await page.addInitScript(() => {
      const Real = window.IntersectionObserver;
      const w = window as unknown as { ioHeld?: IntersectionObserverEntry[]; ioRelease?: () => void };
      window.IntersectionObserver = class extends Real {
        constructor(callback: IntersectionObserverCallback, options?: IntersectionObserverInit) {
          super((entries, observer) => {
            if (!w.ioHeld) return callback(entries, observer);
            w.ioHeld.push(...entries);
            w.ioRelease = () => callback(w.ioHeld!.splice(0), observer);
          }, options);
        }
      };
    });
    await openCalculator(page);
    await page.getByLabel(CASH, { exact: true }).fill("12,000");
    await expect.poll(() => summary(page)).toContain("zakat due at 2.5% is $300.00.");
    expect((await view(page)).barShown).toBe(true);
    await page.evaluate(() => {
      (window as unknown as { ioHeld: unknown[] }).ioHeld = [];
    });
    const heldRatios = () =>
      page.evaluate(() =>
        (window as unknown as { ioHeld: IntersectionObserverEntry[] }).ioHeld.map((e) => e.intersectionRatio >= 0.25),
      );
    // Half the result comes on screen, then the page goes back to the top: two entries, held.
    await page.evaluate(() => {
      const r = document.querySelector(".calc-result")!.getBoundingClientRect();
      scrollBy(0, r.top + r.height / 2 - innerHeight);
    });
    await expect.poll(heldRatios).toEqual([true]);
    await page.evaluate(() => scrollTo(0, 0));
    await expect.poll(heldRatios).toEqual([true, false]);
    await page.evaluate(() => (window as unknown as { ioRelease: () => void }).ioRelease());
    // None of the result on screen: the bar is there.
    expect(await page.locator(".calc-result").evaluate((el) => el.getBoundingClientRect().top >= innerHeight)).toBe(
      true,
    );
    await expect.poll(() => view(page).then((v) => v.barText)).toBe("Zakat due: $300.00");
    await phone.close();
  }, 60_000);
});

describe("the Arabic result on a phone", () => {
  for (const width of [320, 390]) {
    it(`${width} px: the big figure keeps the currency's name whole, and each line of the explanation reads on its own lines`, async () => {
      const phone = await isolatedContext(browser, { viewport: { width, height: 844 } });
      const page = await phone.newPage();
      await page.clock.setFixedTime(DONORS_DAY);
      await page.goto(server.url + "/ar-ae/calculate/");
      await page.locator(".calc-layout").waitFor();
      await page.getByLabel("النقد والأرصدة المصرفية (ومنها حسابات الموازنة)", { exact: true }).fill("12345678.90");
      await page.locator("input[type=radio][value=gold]").check();
      // A no-break space inside the currency's name keeps it whole; the number may end the line before it.
      await expect.poll(() => page.locator(".calc-due strong").textContent()).toBe("308,641.97 دولار\u00a0أسترالي");
      await page.locator(".calc-lines summary").click();
      const layout = await page.evaluate(() => {
        /** The text of each line an element's text is laid out on, by where each word lands. */
        const lines = (el: Element) => {
          const range = document.createRange();
          const words: { top: number; word: string }[] = [];
          const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
          for (let node = walker.nextNode(); node; node = walker.nextNode()) {
            const text = node.textContent ?? "";
            for (const m of text.matchAll(/\S+/g)) {
              range.setStart(node, m.index!);
              range.setEnd(node, m.index! + m[0].length);
              words.push({ top: Math.round(range.getBoundingClientRect().top), word: m[0] });
            }
          }
          const byTop = new Map<number, string[]>();
          for (const w of words) byTop.set(w.top, [...(byTop.get(w.top) ?? []), w.word]);
          return [...byTop.values()].map((ws) => ws.join(" "));
        };
        const panel = document.querySelector(".calc-result")!.getBoundingClientRect();
        return {
          scrollWidth: document.documentElement.scrollWidth,
          due: lines(document.querySelector(".calc-due strong")!),
          terms: [...document.querySelectorAll(".calc-explain dt")].map((dt) => ({
            width: dt.getBoundingClientRect().width,
            panel: panel.width,
          })),
          figures: [...document.querySelectorAll(".calc-explain dd")].map((dd) => lines(dd).length),
          counted: [...document.querySelectorAll(".calc-lines .calc-amount")].map((a) => lines(a).length),
        };
      });
      expect(layout.scrollWidth).toBe(width);
      // One line, or the number on one and the currency's name whole on the next.
      expect([["308,641.97 دولار أسترالي"], ["308,641.97", "دولار أسترالي"]]).toContainEqual(layout.due);
      // No word-wide column: each term takes most of the panel, and each figure stays on one line.
      for (const t of layout.terms) expect(t.width).toBeGreaterThan(t.panel * 0.75);
      expect(layout.figures.every((n) => n === 1)).toBe(true);
      expect(layout.counted.every((n) => n === 1)).toBe(true);
      await mkdir(JOURNEY_DIR, { recursive: true });
      await page.locator(".calc-result").screenshot({ path: join(JOURNEY_DIR, `calculator-ar-${width}.png`) });
      await phone.close();
    }, 60_000);
  }
});

describe("bench/calculator.ts", () => {
  it("splits /calculate's JavaScript into the calculator's own code and the shared framework chunk", async () => {
    const size = await measureCalculatorJs(site.outDir);
    const entry = size.files.find((f) => /\/_islands\/calculator-[^/]+\.js$/.test(f.url));
    expect(entry?.role).toBe("calculator");
    // React's chunks: react-dom's, the chunk of esbuild's CommonJS helpers, and React's core apart
    // from react-dom once a lazily loaded module (the account's card form) uses React alone, since
    // esbuild splits by which entries reach a module. Each is named by the page itself, so the
    // split costs no round trip of its own (the page-scripts loader starts every chunk at once).
    const react = size.files.filter((f) => f.role === "react");
    expect(react.length).toBeGreaterThanOrEqual(1);
    expect(react.length).toBeLessThanOrEqual(3);
    const html = await readFile(join(site.outDir, "calculate/index.html"), "utf8");
    const preloaded = pageScriptUrls(html);
    for (const file of react) {
      expect(file.url).toMatch(/^\/_islands\/chunks\//);
      expect(preloaded).toContain(file.url);
    }
    expect(size.calculatorGzip).toBeGreaterThanOrEqual(entry!.gzip);
    // React 19's client, production build: about 68 KB gzip (the development build is several times larger).
    expect(size.reactGzip).toBeGreaterThan(55 * 1024);
    expect(size.reactGzip).toBeLessThan(75 * 1024);
    expect(size.calculatorGzip).toBeLessThanOrEqual(CALCULATOR_BUDGET_GZIP);
  });
});

describe("an invalid calculate_page", () => {
  it("fails the build with an error naming the document and the field", async () => {
    const contentDir = await mkdtemp(join(tmpdir(), "nzf-calc-content-"));
    try {
      await cp(join(PROJECT_ROOT, "content-cache/sample"), join(contentDir, "sample"), { recursive: true });
      const file = join(contentDir, "sample/snapshot.json");
      const snapshot = JSON.parse(await readFile(file, "utf8"));
      const doc = snapshot.documents.find((d: { type: string }) => d.type === "calculate_page");
      doc.data.silver_price_per_gram = null;
      await writeFile(file, JSON.stringify(snapshot));
      const broken = await createFixture({ sample: true, contentDir });
      try {
        const error = await broken.run().then(
          () => null,
          (e: unknown) => e,
        );
        expect(error).toBeInstanceOf(NzfError);
        const text = `${(error as Error).message} ${String((error as { cause?: Error }).cause?.message)}`;
        expect(text).toContain(doc.id);
        expect(text).toContain("silver_price_per_gram is empty");
      } finally {
        await broken.cleanup();
      }
    } finally {
      await rm(contentDir, { recursive: true, force: true });
    }
  }, 120_000);
});
