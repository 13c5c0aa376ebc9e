/**
 * Donors give with PayPal, in real Chromium with the site's generated headers enforced (the CSP
 * with PayPal's hosts): the built site on loopback, the payments service (src/api/, on PGlite) with
 * its local PayPal provider, and a stand-in for PayPal's SDK served at its real address. The SDK is requested only once the
 * donor has chosen PayPal and continued; each failure says what happened and what to do, keeps the
 * form, and PayPal never takes a gift twice.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mkdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { createFixture, type Fixture } from "../support/build-fixture.js";
import { startStaticServer, type StaticServer } from "../../src/server/static-server.js";
import { headersFor, parseHeadersFile } from "../../src/site-files/headers.js";
import { isolatedContext, launchBrowser, watchProblems, type PageProblems } from "../support/browser.js";
import { axeSource, axeViolations, formatViolations } from "../support/axe.js";
import { installPayPalStandIn, type PayPalStandIn } from "../support/paypal-stand-in.js";
import {
  startTestPaymentsService,
  TEST_PUBLISHABLE_KEY,
  type TestPaymentsService,
} from "../support/payments-service.js";
import { installStripeStandIn } from "../support/stripe-stand-in.js";
import { PAYPAL_MESSAGES } from "../../src/payments/paypal.js";
import { fillDonor as fillDonorFields } from "../support/donation-request.js";

const JOURNEYS = "test-results/journeys";
const CLIENT_ID = "AtestPayPalClientId-0123456789_abcdefghij";
let fixture: Fixture;
let site: StaticServer;
let api: TestPaymentsService;
let browser: Browser;
let context: BrowserContext;
let paypal: PayPalStandIn;
const violations: string[] = [];

beforeAll(async () => {
  api = await startTestPaymentsService();
  fixture = await createFixture({ sample: true });
  await fixture.run({
    publicConfig: {
      payments: { apiUrl: api.url, publishableKey: TEST_PUBLISHABLE_KEY, paypalClientId: CLIENT_ID, timeoutMs: 2000 },
    },
  });
  const rules = parseHeadersFile(await readFile(join(fixture.config.outDir, "_headers"), "utf8"));
  site = await startStaticServer({ root: fixture.config.outDir, headers: (path) => headersFor(rules, path) });
  browser = await launchBrowser();
  context = await isolatedContext(browser);
  context.setDefaultTimeout(10_000);
  await installStripeStandIn(context, { stripeApiUrl: api.stripe.url });
  paypal = await installPayPalStandIn(context);
  await context.exposeBinding("__reportCsp", ({ page }, text: string) => violations.push(`${page.url()}: ${text}`));
  await context.addInitScript(() => {
    document.addEventListener("securitypolicyviolation", (e) => {
      const text = `${e.violatedDirective} blocked ${e.blockedURI || "inline"}`;
      void (window as unknown as { __reportCsp(t: string): Promise<void> }).__reportCsp(text);
    });
  });
  // axe-core from the site's origin: the policy allows no inline script, so it cannot be injected as one.
  const axe = await axeSource();
  await context.route(`${site.url}/__axe-core.js`, (route) =>
    route.fulfill({ status: 200, contentType: "text/javascript", body: axe }),
  );
  await mkdir(JOURNEYS, { recursive: true });
}, 240_000);

const axeUnderCsp = (page: Page) => axeViolations(page, { scriptUrl: `${site.url}/__axe-core.js` });

afterAll(async () => {
  await context?.close();
  await browser?.close();
  await site?.stop();
  await api?.stop();
  await fixture?.cleanup();
});

async function open(path: string, viewport = { width: 390, height: 844 }): Promise<{ page: Page; seen: PageProblems }> {
  const page = await context.newPage();
  await page.setViewportSize(viewport);
  const seen = watchProblems(page);
  await page.goto(site.url + path);
  await page.waitForSelector('[data-island="donation"][data-hydrated]');
  return { page, seen };
}

const fillDonor = (page: Page) =>
  fillDonorFields(page, { firstName: "Yusuf", lastName: "Ali", email: "yusuf@example.com", phone: "0412 345 678" });

/** Chooses PayPal and continues: the PayPal step with its button ready. */
async function toPayPal(page: Page) {
  await page.getByLabel("PayPal", { exact: true }).check();
  await page.getByRole("button", { name: "Continue to payment" }).click();
  await page.locator("button.paypal-stand-in").waitFor();
}

const alertText = (page: Page) => page.locator(".don-pay [role=alert]").textContent();

describe("PayPal in Chromium, CSP enforced", { timeout: 90_000 }, () => {
  for (const [name, viewport] of [
    ["phone", { width: 390, height: 844 }],
    ["desktop", { width: 1280, height: 800 }],
  ] as const) {
    it(`${name}: a one-off zakat gift through PayPal, the SDK loaded only once chosen; thank-you with the reference`, async () => {
      const before = paypal.urls.length;
      const { page, seen } = await open("/pay/zakat/?amount=250", viewport);
      await fillDonor(page);
      await page.getByLabel("Card", { exact: true }).waitFor();
      // Not loaded with the page, nor while the donor types.
      expect(paypal.urls.length).toBe(before);
      await toPayPal(page);
      expect(paypal.urls.length).toBe(before + 1);
      const url = new URL(paypal.urls.at(-1)!);
      expect(Object.fromEntries(url.searchParams)).toMatchObject({
        "client-id": CLIENT_ID,
        currency: "AUD",
        intent: "capture",
        "disable-funding": "venmo",
      });
      await expect.poll(() => page.evaluate(() => document.activeElement?.textContent)).toBe("Check your gift and pay");
      expect(formatViolations(`PayPal step ${name}`, await axeUnderCsp(page))).toBe("");
      await page.screenshot({ path: `${JOURNEYS}/paypal-${name}-1-step.png` });
      const captured = api.paypal.captures().length;
      await page.locator("button.paypal-stand-in").click();
      await page.waitForURL(/\/pay\/thank-you\/\?donation=don_/);
      await page.locator(".thanks-reference strong").waitFor();
      expect(await page.locator("main h1").textContent()).toBe("Thank you");
      expect(await page.locator(".thanks").innerText()).toMatch(/One payment of \$250\.00/);
      expect(api.paypal.captures().length).toBe(captured + 1);
      await page.screenshot({ path: `${JOURNEYS}/paypal-${name}-2-thank-you.png` });
      expect(violations).toEqual([]);
      expect([...seen.consoleErrors, ...seen.pageErrors, ...seen.failedRequests]).toEqual([]);
      await page.close();
    });
  }

  it("closed window, blocked pop-up, decline and a script that did not load: each said, the form kept, one capture", async () => {
    const { page, seen } = await open("/pay/sadaqah/?amount=40");
    await fillDonor(page);
    paypal.failNextLoads(1);
    await page.getByLabel("PayPal", { exact: true }).check();
    await page.getByRole("button", { name: "Continue to payment" }).click();
    await expect.poll(() => alertText(page)).toBe(PAYPAL_MESSAGES.paypal_script_failed);
    await page.screenshot({ path: `${JOURNEYS}/paypal-phone-3-script-failed.png` });
    await page.getByRole("button", { name: "Load PayPal again" }).click();
    await page.locator("button.paypal-stand-in").waitFor();

    await paypal.next(page, "cancel");
    await page.locator("button.paypal-stand-in").click();
    await expect.poll(() => alertText(page)).toBe(PAYPAL_MESSAGES.paypal_cancelled);

    await paypal.next(page, "popup-blocked");
    await page.locator("button.paypal-stand-in").click();
    await expect.poll(() => alertText(page)).toBe(PAYPAL_MESSAGES.paypal_popup_blocked);

    // Back to the form: everything as typed.
    await page.getByRole("button", { name: "Change my gift or details" }).click();
    expect(await page.getByLabel("First name").inputValue()).toBe("Yusuf");
    expect(await page.getByLabel("Amount (AUD)").inputValue()).toBe("40");
    expect(await page.getByLabel("PayPal", { exact: true }).isChecked()).toBe(true);
    await page.getByRole("button", { name: "Continue to payment" }).click();
    await page.locator("button.paypal-stand-in").waitFor();

    const captured = api.paypal.captures().length;
    api.paypal.declineNextCaptures(1);
    await page.locator("button.paypal-stand-in").click();
    await expect.poll(() => alertText(page)).toBe(PAYPAL_MESSAGES.paypal_declined);
    expect(api.paypal.captures().length).toBe(captured);
    expect(formatViolations("PayPal step with an error", await axeUnderCsp(page))).toBe("");
    await page.screenshot({ path: `${JOURNEYS}/paypal-phone-4-declined.png` });
    // Approved again, and the callback fires twice: PayPal takes the gift once.
    await paypal.next(page, "approve-twice");
    await page.locator("button.paypal-stand-in").click();
    await page.waitForURL(/\/pay\/thank-you\/\?donation=don_/);
    await page.locator(".thanks-reference strong").waitFor();
    expect(api.paypal.captures().length).toBe(captured + 1);
    expect(violations).toEqual([]);
    // The aborted script and the declined capture are the test's own doing; nothing else failed.
    const expected = (r: string) =>
      r.startsWith("https://www.paypal.com/sdk/js") || /\/paypal\/capture(: HTTP 402|.*402)/.test(r);
    expect(seen.failedRequests.filter((r) => !expected(r))).toEqual([]);
    expect(seen.failedRequests.filter((r) => r.endsWith("HTTP 402"))).toHaveLength(1);
    expect([
      ...seen.consoleErrors.filter((r) => !expected(r) && !/402|ERR_CONNECTION_REFUSED/.test(r)),
      ...seen.pageErrors,
    ]).toEqual([]);
    await page.close();
  });

  it("monthly sadaqah is a PayPal subscription; a Friday gift says plainly it is cards only; card still works", async () => {
    const { page } = await open("/pay/sadaqah/?amount=25");
    await fillDonor(page);
    await page.getByLabel("Monthly, until you cancel").check();
    await toPayPal(page);
    const url = new URL(paypal.urls.at(-1)!);
    expect([url.searchParams.get("intent"), url.searchParams.get("vault")]).toEqual(["subscription", "true"]);
    await page.locator("button.paypal-stand-in").click();
    await page.waitForURL(/\/pay\/thank-you\/\?donation=don_/);
    await page.locator(".thanks-reference strong").waitFor();
    expect(await page.locator(".thanks").innerText()).toMatch(/each month, from .+ until you cancel/);
    await page.close();

    const friday = await open("/pay/jumuah-giving/?amount=20");
    await friday.page.getByLabel("Every Friday").check();
    const choice = friday.page.locator("fieldset", { has: friday.page.locator("legend", { hasText: "How to pay" }) });
    await expect
      .poll(() => choice.innerText())
      .toContain("Every Friday: paid by card only. PayPal takes one-off, monthly and instalment gifts.");
    expect(await friday.page.getByLabel("PayPal", { exact: true }).count()).toBe(0);
    await choice.scrollIntoViewIfNeeded();
    await friday.page.screenshot({ path: `${JOURNEYS}/paypal-phone-5-cards-only.png` });
    await friday.page.close();

    // Pay by card instead, from the PayPal step.
    const card = await open("/pay/zakat/?amount=60");
    await fillDonor(card.page);
    await toPayPal(card.page);
    await card.page.getByRole("button", { name: "Pay by card instead" }).click();
    expect(await card.page.getByLabel("Card", { exact: true }).isChecked()).toBe(true);
    await card.page.getByRole("button", { name: "Continue to payment" }).click();
    await card.page.getByLabel("Card number").waitFor();
    await card.page.close();
    expect(violations).toEqual([]);
  });
});
