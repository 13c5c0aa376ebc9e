/**
 * Donor pages on the narrowest phones (320 px, as WCAG's reflow asks, and 390 px) with the widest
 * text the payments service can send, in English and Arabic: nothing scrolls sideways. What varies
 * between two donors is forced to its worst, not waited for by looping: the reference is random
 * (Crockford base 32), so the test builds it from the letter widest in the page's own font.
 * Payments go to the payments service (src/api/, on PGlite); the donation's row is set paid.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { sharedSampleSite } from "../support/shared-site.js";
import { routePaymentsTo } from "../support/payments-route.js";
import { startStaticServer, type StaticServer } from "../../src/server/static-server.js";
import { isolatedContext, launchBrowser } from "../support/browser.js";
import { startTestPaymentsService, type TestPaymentsService } from "../support/payments-service.js";
import { donationRequest } from "../support/donation-request.js";

/** The reference's letters (src/api/donations/ids.ts). */
const REFERENCE_ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";

let site: StaticServer;
let api: TestPaymentsService;
let browser: Browser;

beforeAll(async () => {
  api = await startTestPaymentsService();
  // The run's shared build with payments (test/support/shared-site.ts): each context sends its
  // payments address on to this file's service (test/support/payments-route.ts).
  site = await startStaticServer({ root: (await sharedSampleSite("payments-unreachable")).outDir });
  browser = await launchBrowser();
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await site?.stop();
  await api?.stop();
});

/**
 * A donor's context, its payments address sent on to this file's service. Each test judges a page's
 * width on its own: no service worker fetching every page again (browser.ts).
 */
async function donorContext(viewport: { width: number; height: number }): Promise<BrowserContext> {
  const context = await isolatedContext(browser, { viewport, withoutServiceWorker: true });
  await routePaymentsTo(context, api.url);
  return context;
}

/** How far the page is wider than the window, and the visible elements that stick out (either side: Arabic is right to left). */
async function sideways(page: Page): Promise<{ overflow: number; wide: string[] }> {
  return page.evaluate(() => ({
    overflow: document.documentElement.scrollWidth - window.innerWidth,
    wide: [...document.body.querySelectorAll("*")]
      .filter((e) => e.checkVisibility())
      .filter((e) => e.getBoundingClientRect().right > window.innerWidth || e.getBoundingClientRect().left < 0)
      .slice(0, 5)
      .map((e) => {
        const { left, right } = e.getBoundingClientRect();
        return `${e.tagName.toLowerCase()}.${e.className}: ${left.toFixed(1)} to ${right.toFixed(1)}`;
      }),
  }));
}

/** A paid gift of $500 in 12 monthly instalments, the fee covered: the longest thank-you page. */
async function paidInstalments(): Promise<string> {
  const res = await fetch(`${api.url}/donations`, {
    method: "POST",
    headers: { "Content-Type": "application/json", "Idempotency-Key": crypto.randomUUID(), Origin: site.url },
    body: JSON.stringify(
      donationRequest({
        amountCents: 50_000,
        frequency: "monthly-instalments",
        instalments: { count: 12 },
        coverFees: true,
      }),
    ),
  });
  expect(res.status).toBe(201);
  const { donationId } = (await res.json()) as { donationId: string };
  await api.db.updateTable("donations").set({ status: "succeeded" }).where("id", "=", donationId).execute();
  return donationId;
}

describe("the thank-you page on a phone, with the widest reference", { timeout: 120_000 }, () => {
  let donationId: string;
  let itsReference: string;
  beforeAll(async () => {
    donationId = await paidInstalments();
    const row = await api.db
      .selectFrom("donations")
      .select("reference")
      .where("id", "=", donationId)
      .executeTakeFirstOrThrow();
    itsReference = row.reference;
  });

  /** Gives the gift `reference` for the time of `run`: references are unique, and the database may be shared (CI's PostgreSQL). */
  async function withReference(reference: string, run: () => Promise<void>) {
    // A run killed in `run` left the reference on its row: that row gets its own back, a random one.
    await api.db
      .updateTable("donations")
      .set({
        reference: `NZF-${crypto.randomUUID().slice(0, 4).toUpperCase()}-${crypto.randomUUID().slice(0, 4).toUpperCase()}`,
      })
      .where("reference", "=", reference)
      .execute();
    await api.db.updateTable("donations").set({ reference }).where("id", "=", donationId).execute();
    try {
      await run();
    } finally {
      await api.db.updateTable("donations").set({ reference: itsReference }).where("id", "=", donationId).execute();
    }
  }

  for (const prefix of ["", "/ar-ae"]) {
    it(`${prefix || "English"}: at 320, 390 and 481 px the reference fits, whole and on one line`, async () => {
      const context = await donorContext({ width: 390, height: 844 });
      const page = await context.newPage();
      const open = async () => {
        await page.goto(`${site.url}${prefix}/pay/thank-you/?donation=${donationId}`);
        await page.locator(".thanks-reference strong").waitFor();
      };
      // The letter of the alphabet widest in the reference's own font and size, on this machine.
      await open();
      const widest = await page.locator(".thanks-reference strong").evaluate((strong, alphabet) => {
        const probe = strong.cloneNode() as HTMLElement;
        strong.after(probe);
        const width = (c: string) => {
          probe.textContent = c.repeat(8);
          return probe.getBoundingClientRect().width;
        };
        const letter = [...alphabet].reduce((a, b) => (width(b) > width(a) ? b : a));
        probe.remove();
        return letter;
      }, REFERENCE_ALPHABET);
      const reference = `NZF-${widest.repeat(4)}-${widest.repeat(4)}`;

      await withReference(reference, async () => {
        for (const width of [320, 390, 481]) {
          await page.setViewportSize({ width, height: 844 });
          await open();
          const strong = page.locator(".thanks-reference strong");
          expect(await strong.textContent()).toBe(reference);
          expect(await strong.evaluate((el) => el.getClientRects().length), `${width} px: one line`).toBe(1);
          const { overflow, wide } = await sideways(page);
          expect(overflow, `${prefix}/pay/thank-you/ at ${width} px with ${reference}: ${wide.join("; ")}`).toBe(0);
        }
      });
      await context.close();
    });
  }
});

/**
 * An amount: "$1,250.00" in English, "42.69 دولار أسترالي" (or "500 …", or a price per gram as
 * "1.5534 …") in Arabic.
 */
const AMOUNT = String.raw`\$[\d,]+(?:\.\d+)?|[\d,]+(?:\.\d+)?\sدولار\sأسترالي`;
/** The currency's name alone, for the calculator's big figure (the number may go on the line above it). */
const CURRENCY_NAME = String.raw`دولار\sأسترالي`;

/**
 * Each amount in the elements' text that a line break splits: "42.69 دولار أسترالي" with the
 * number at the end of one line and the currency's name (or half of it) on the next. Measured with a
 * Range over each amount: its boxes on more than one line. Text inside `except` is not read.
 */
async function splitAmounts(page: Page, selector: string, pattern = AMOUNT, except?: string): Promise<string[]> {
  return page.locator(selector).evaluateAll(
    (elements, { pattern, except }) => {
      const split: string[] = [];
      let found = 0;
      for (const element of elements) {
        const walker = document.createTreeWalker(element, NodeFilter.SHOW_TEXT);
        for (let node = walker.nextNode(); node; node = walker.nextNode()) {
          if (except && node.parentElement?.closest(except)) continue;
          for (const match of (node.textContent ?? "").matchAll(new RegExp(pattern, "g"))) {
            found++;
            const range = document.createRange();
            range.setStart(node, match.index);
            range.setEnd(node, match.index + match[0].length);
            // Boxes on two lines do not overlap in height (boxes on one line may differ a little: digits and Arabic letters come from different fonts).
            const boxes = [...range.getClientRects()].filter((r) => r.width > 0);
            if (boxes.some((a) => boxes.some((b) => b.top >= a.bottom - 1))) {
              const where = node.parentElement!;
              split.push(`${match[0]} (${where.tagName.toLowerCase()}.${where.className})`);
            }
          }
        }
      }
      // A selector that finds no amount would prove nothing.
      if (found === 0) split.push("(no amount found)");
      return split;
    },
    { pattern, except },
  );
}

/**
 * Sets the window from 320 to 390 px wide, 2 px at a time (no reload: the text wraps anew), so each
 * amount meets the end of a line somewhere; lists the amounts split, and any sideways scroll, at each width.
 */
async function splitAtWidths(
  page: Page,
  selector: string,
  { except, also }: { except?: string; also?: () => Promise<string[]> } = {},
): Promise<string[]> {
  const found: string[] = [];
  for (let width = 320; width <= 390; width += 2) {
    await page.setViewportSize({ width, height: 844 });
    for (const amount of await splitAmounts(page, selector, AMOUNT, except)) found.push(`${width} px: ${amount}`);
    for (const problem of (await also?.()) ?? []) found.push(`${width} px: ${problem}`);
    // Kept whole, an amount must not push the page wider than the phone instead.
    const { overflow, wide } = await sideways(page);
    if (overflow > 0) found.push(`${width} px: ${overflow} px sideways (${wide.join("; ")})`);
  }
  return found;
}

describe("Arabic amounts in running text keep the number and the currency's name together", {
  timeout: 120_000,
}, () => {
  it("/ar-ae/pay/zakat/ in 12 instalments, 320 to 390 px: the plan's sentence splits no amount", async () => {
    const context = await donorContext({ width: 320, height: 844 });
    const page = await context.newPage();
    await page.goto(`${site.url}/ar-ae/pay/zakat/?amount=457.50`);
    await page.waitForSelector('[data-island="donation"][data-hydrated="true"]');
    await page.getByLabel("على أقساط شهرية").check();
    await page.getByLabel(/رسوم/).first().check();
    await expect.poll(() => page.locator(".don-plan").textContent()).toMatch(/^12 دفعة/);
    expect(await splitAtWidths(page, ".don-plan")).toEqual([]);
    await context.close();
  });

  it("/ar-ae/pay/thank-you/ for 12 instalments, 320 to 390 px: the schedule's sentence splits no amount", async () => {
    const donationId = await paidInstalments();
    const context = await donorContext({ width: 320, height: 844 });
    const page = await context.newPage();
    await page.goto(`${site.url}/ar-ae/pay/thank-you/?donation=${donationId}`);
    await page.locator(".thanks-reference strong").waitFor();
    expect(await splitAtWidths(page, ".thanks-details dd")).toEqual([]);
    await context.close();
  });
});

/** The donor's date: 20 days after the sample's prices (1 November 2026), so no old-price warning. */
const DONORS_DAY = new Date(2026, 10, 21, 10);

describe("the calculator's amounts keep the number and the currency's name together", { timeout: 180_000 }, () => {
  for (const { prefix, cash, debts, owe, due } of [
    {
      prefix: "/ar-ae",
      cash: "النقد والأرصدة المصرفية (ومنها حسابات الموازنة)",
      debts: "ديون حالّة الآن",
      owe: "ما عليك الآن",
      due: "308,616.97 دولار أسترالي",
    },
    {
      prefix: "",
      cash: "Cash and bank balances (including offset accounts)",
      debts: "Debts due now",
      owe: "What you owe now",
      due: "$308,616.97",
    },
  ]) {
    it(`${prefix || "English"}/calculate/ with the gold nisab, 320 to 390 px: no label or sentence splits an amount, the big figure keeps the currency's name whole`, async () => {
      const context = await donorContext({ width: 320, height: 844 });
      const page = await context.newPage();
      await page.clock.setFixedTime(DONORS_DAY);
      await page.goto(`${site.url}${prefix}/calculate/`);
      await page.locator(".calc-layout").waitFor();
      await page.getByLabel(cash, { exact: true }).fill("12345678.90");
      await page.locator(".calc-group > summary", { hasText: owe }).click();
      await page.getByLabel(debts, { exact: true }).fill("1000");
      await page.locator("input[type=radio][value=gold]").check();
      // (12,345,678.90 − 1,000) × 2.5% = 308,616.97.
      const bigFigure = page.locator(".calc-due strong");
      await expect.poll(async () => (await bigFigure.textContent())?.replace(/\s/g, " ")).toBe(due);
      await page.locator(".calc-lines summary").click();
      // Back to the top: the result is out of view, so the running bar shows at the bottom of the screen.
      await page.evaluate(() => scrollTo(0, 0));
      await page.locator(".calc-bar:not(.calc-bar-away)").waitFor();
      // Every amount in the island's text (the nisab's labels, the sections' totals, the sentence, the
      // explanation, the lines counted) but the figures, the big one and the running bar's, which may
      // put the currency's name on a line of its own, whole.
      const figures = ".calc-due strong, .calc-bar-total strong";
      const found = await splitAtWidths(page, ".calc", {
        except: figures,
        also: async () => [
          ...(await splitAmounts(page, figures, prefix ? CURRENCY_NAME : AMOUNT)).map((s) => `figure: ${s}`),
          // The bar is fixed to the screen: what is wider than the screen is cut off, not scrolled to.
          ...(await page.locator(".calc-bar, .calc-bar *").evaluateAll((elements) =>
            elements
              .map((e) => ({ e, r: e.getBoundingClientRect() }))
              .filter(({ r }) => r.left < 0 || r.right > innerWidth)
              .map(({ e, r }) => `bar's ${e.tagName.toLowerCase()} from ${r.left.toFixed(1)} to ${r.right.toFixed(1)}`),
          )),
        ],
      });
      expect(found).toEqual([]);
      await context.close();
    });
  }
});
