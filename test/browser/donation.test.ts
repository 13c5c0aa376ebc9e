/**
 * Donors give, in real Chromium: the built site on loopback, the payments dev server (the contract's
 * local implementation) on loopback, and a local stand-in for Stripe.js served in place of
 * js.stripe.com. Each test reads what the donor sees and what reached the payments API.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { createFixture, type Fixture } from "../support/build-fixture.js";
import { startStaticServer, type StaticServer } from "../../src/server/static-server.js";
import { startPaymentsDevServer, type PaymentsDevServer } from "../../src/server/payments-dev-server.js";
import { isolatedContext, launchBrowser, watchProblems, type PageProblems } from "../support/browser.js";
import { axeViolations, formatViolations } from "../support/axe.js";
import { installStripeStandIn, type StripeStandIn } from "../support/stripe-stand-in.js";

const TIMEOUT_MS = 2_000;
let fixture: Fixture;
let site: StaticServer;
let api: PaymentsDevServer;
let browser: Browser;
let context: BrowserContext;
let stripe: StripeStandIn;

beforeAll(async () => {
  api = await startPaymentsDevServer({ port: 0, host: "127.0.0.1" });
  fixture = await createFixture({ sample: true });
  await fixture.run({ publicConfig: { payments: { apiUrl: api.url, publishableKey: "pk_test_standin0000", timeoutMs: TIMEOUT_MS } } });
  site = await startStaticServer({ root: fixture.config.outDir });
  browser = await launchBrowser();
  context = await isolatedContext(browser);
  // A failing step should say which one, before the test's own timeout.
  context.setDefaultTimeout(10_000);
  // The tag manager is a third party; an empty script keeps the console clean.
  await context.route(/^https:\/\/www\.googletagmanager\.com\//, (route) => route.fulfill({ status: 200, contentType: "text/javascript", body: "" }));
  stripe = await installStripeStandIn(context, { paymentsUrl: api.url });
});

afterAll(async () => {
  await context?.close();
  await browser?.close();
  await site?.stop();
  await api?.stop();
  await fixture?.cleanup();
});

const posts = () => api.requests.filter((r) => r.method === "POST" && r.path === "/donations");

async function open(path: string): Promise<{ page: Page; seen: PageProblems }> {
  const page = await context.newPage();
  const seen = watchProblems(page);
  await page.goto(site.url + path);
  await page.waitForSelector('[data-island="donation"][data-hydrated="true"]');
  // Hydration done; the restore-from-storage effect runs right after.
  await page.waitForFunction(() => document.querySelector("form[aria-labelledby]") !== null);
  return { page, seen };
}

async function fillDonor(page: Page) {
  await page.getByLabel("First name").fill("Aisha");
  await page.getByLabel("Last name").fill("Rahman");
  await page.getByLabel("E-mail address", { exact: true }).fill("aisha@example.com");
  await page.getByLabel("Phone number").fill("0412 345 678");
}

async function payWithCard(page: Page, card = "4242 4242 4242 4242") {
  await page.getByLabel("Card number").fill(card);
  await page.getByLabel("Expiry (MM / YY)").fill("12 / 30");
  await page.getByLabel("Security code").fill("123");
  await page.getByRole("button", { name: /^(Give|Save card)/ }).click();
}

async function expectThankYou(page: Page): Promise<string> {
  await page.waitForURL(/\/pay\/thank-you\/\?donation=don_[0-9a-f]+&payment_intent=/);
  const reference = page.locator(".thanks-reference strong");
  await reference.waitFor();
  const text = (await reference.textContent())!;
  expect(text).toMatch(/^NZF-[0-9A-HJKMNP-TV-Z]{4}-[0-9A-HJKMNP-TV-Z]{4}$/);
  return text;
}

function noProblems(seen: PageProblems) {
  expect([...seen.consoleErrors, ...seen.pageErrors, ...seen.failedRequests]).toEqual([]);
}

describe("donation forms in Chromium", { timeout: 60_000 }, () => {
  it("a one-off zakat amount carried from the calculator is paid and the thank-you page shows the reference", async () => {
    const before = stripe.requests;
    const { page, seen } = await open("/pay/zakat/?amount=1234.56");
    await expect.poll(() => page.getByLabel("Amount (AUD)").inputValue()).toBe("1234.56");
    await fillDonor(page);
    // Stripe.js is not loaded before the donor proceeds.
    expect(stripe.requests).toBe(before);
    await page.getByRole("button", { name: "Continue to payment" }).click();
    await page.getByLabel("Card number").waitFor();
    expect(stripe.requests).toBe(before + 1);
    await expect(page.getByRole("button", { name: "Give $1,234.56" }).isVisible()).resolves.toBe(true);
    await payWithCard(page);
    const reference = await expectThankYou(page);
    const body = await page.locator("main").textContent();
    expect(body).toContain("$1,234.56");
    expect(body).toContain("your gift is received");
    const created = posts().at(-1)!;
    expect(created.status).toBe(201);
    const state = await (await fetch(`${api.url}/donations/${new URL(page.url()).searchParams.get("donation")}`)).json();
    expect(state).toMatchObject({ reference, fund: "zakat", frequency: "once", amountCents: 123456, feeCents: 0, status: "succeeded" });
    noProblems(seen);
    await page.close();
  });

  it("a monthly sadaqah shows the total and the dates before paying, with the fee covered", async () => {
    const { page, seen } = await open("/pay/sadaqah/");
    await page.getByRole("button", { name: "$50", exact: true }).click();
    expect(await page.getByLabel("Amount (AUD)").inputValue()).toBe("50");
    await page.getByLabel("Monthly").check();
    await page.getByLabel(/cover the card fee/).check();
    // $50 with the fee covered: ceil((5000 + 30) / 0.983) = 5117 cents (docs/payments-api.md).
    await expect(page.getByLabel("Add $1.17 to cover the card fee").isChecked()).resolves.toBe(true);
    const summary = page.locator(".don-summary").first();
    await expect.poll(() => summary.textContent()).toContain("$51.17");
    expect(await summary.textContent()).toContain("until you cancel");
    expect(await summary.locator(".don-dates li").count()).toBe(4); // three dates and "and so on"
    await fillDonor(page);
    await page.getByRole("button", { name: "Continue to payment" }).click();
    await page.getByRole("button", { name: "Give $51.17" }).waitFor();
    await payWithCard(page);
    await expectThankYou(page);
    const id = new URL(page.url()).searchParams.get("donation");
    const state = await (await fetch(`${api.url}/donations/${id}`)).json();
    expect(state).toMatchObject({ fund: "sadaqah", frequency: "monthly", amountCents: 5000, feeCents: 117, totalCents: 5117, openEnded: true });
    noProblems(seen);
    await page.close();
  });

  it("Zakat al-Fitr for five people: 5 × $15 = $75", async () => {
    const { page, seen } = await open("/pay/fitr/");
    await page.getByLabel("Number of people").fill("5");
    await expect.poll(() => page.locator(".don-multiply").textContent()).toBe("5 × $15.00 = $75.00");
    await fillDonor(page);
    await page.getByRole("button", { name: "Continue to payment" }).click();
    await page.getByRole("button", { name: "Give $75.00" }).waitFor();
    await payWithCard(page);
    await expectThankYou(page);
    const id = new URL(page.url()).searchParams.get("donation");
    expect(await (await fetch(`${api.url}/donations/${id}`)).json()).toMatchObject({ fund: "fitr", amountCents: 7500 });
    noProblems(seen);
    await page.close();
  });
});
