/**
 * Donors give, in real Chromium: the built site on loopback, the payments service (src/api/, on
 * PGlite) with the Stripe API stand-in as Stripe, and a local stand-in for Stripe.js served in place
 * of js.stripe.com that confirms through the Stripe stand-in, whose signed webhooks make gifts paid.
 * Each test reads what the donor sees and what reached the payments API.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { sharedSampleSite, type SharedSite } from "../support/shared-site.js";
import { routePaymentsTo } from "../support/payments-route.js";
import { startStaticServer, type StaticServer } from "../../src/server/static-server.js";
import {
  startTestPaymentsService,
  TEST_PUBLISHABLE_KEY,
  type TestPaymentsService,
} from "../support/payments-service.js";
import { isolatedContext, launchBrowser, watchProblems, type PageProblems } from "../support/browser.js";
import { axeViolations, formatViolations } from "../support/axe.js";
import { installStripeStandIn, type StripeStandIn } from "../support/stripe-stand-in.js";
import { DONATION_BUDGET_GZIP, measureDonationJs } from "../../bench/donation.js";
import { ISLAND_PAGE_BUDGET_GZIP, measurePageJs } from "../../bench/page-js.js";
import { mkdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { planGift } from "../../src/payments/plan.js";
import { todayIn } from "../../src/payments/schedules.js";
import { instalmentSentence } from "../../src/client/donation/summary.js";
import { formatsFor } from "../../src/client/donation/format.js";
import { en as englishWords } from "../../src/client/donation/words/en.js";
import { donationRequest, fillDonor } from "../support/donation-request.js";

/** The payments client's own time limit (src/payments/client.ts DEFAULT_TIMEOUT_MS), as published. */
const TIMEOUT_MS = 15_000;
let built: SharedSite;
let site: StaticServer;
let api: TestPaymentsService;
let browser: Browser;
let context: BrowserContext;
let stripe: StripeStandIn;

// The sample as published with payments, built once for the run (shared-site.ts); its payments
// address is answered by this file's service (payments-route.ts).
beforeAll(async () => {
  [api, built, browser] = await Promise.all([
    startTestPaymentsService(),
    sharedSampleSite("payments-unreachable"),
    launchBrowser(),
  ]);
  site = await startStaticServer({ root: built.outDir });
  ({ context, stripe } = await donorContext());
}, 180_000);

afterAll(async () => {
  await context?.close();
  await browser?.close();
  await site?.stop();
  await api?.stop();
});

/** A browser profile whose payments go to this file's service and whose Stripe.js is the stand-in. */
async function donorContext(
  onRequest?: (method: string, path: string) => void,
): Promise<{ context: BrowserContext; stripe: StripeStandIn }> {
  const context = await isolatedContext(browser);
  // A failing step should say which one, before the test's own timeout.
  context.setDefaultTimeout(10_000);
  // The tag manager is a third party; an empty script keeps the console clean.
  await context.route(/^https:\/\/www\.googletagmanager\.com\//, (route) =>
    route.fulfill({ status: 200, contentType: "text/javascript", body: "" }),
  );
  await routePaymentsTo(context, api.url, onRequest);
  return { context, stripe: await installStripeStandIn(context, { stripeApiUrl: api.stripe.url }) };
}

const posts = () => api.requests.filter((r) => r.method === "POST" && r.path === "/donations");

async function open(path: string, profile = context): Promise<{ page: Page; seen: PageProblems }> {
  const page = await profile.newPage();
  const seen = watchProblems(page);
  await page.goto(site.url + path);
  // Hydrated ("true"), or waiting for the donor's first use ("on-first-use": nothing kept or carried
  // in the address, so the server's markup is the form as it starts; the first fill hydrates it).
  await page.waitForSelector('[data-island="donation"][data-hydrated]');
  // The restore-from-storage effect runs right after hydration.
  await page.waitForFunction(() => document.querySelector("form[aria-labelledby]") !== null);
  return { page, seen };
}

async function payWithCard(page: Page, card = "4242 4242 4242 4242") {
  await page.getByLabel("Card number").fill(card);
  await page.getByLabel("Expiry (MM / YY)").fill("12 / 30");
  await page.getByLabel("Security code").fill("123");
  await page.getByRole("button", { name: /^(Give|Save card)/ }).click();
}

async function expectThankYou(page: Page): Promise<string> {
  await page.waitForURL(/\/pay\/thank-you\/\?donation=don_[0-9a-f]+&(payment|setup)_intent=/);
  const reference = page.locator(".thanks-reference strong");
  await reference.waitFor();
  const text = (await reference.textContent())!;
  expect(text).toMatch(/^NZF-[0-9A-HJKMNP-TV-Z]{4}-[0-9A-HJKMNP-TV-Z]{4}$/);
  return text;
}

/** Tabs until the focused element's label (or text) matches, as a keyboard user would. */
async function tabTo(page: Page, label: string | RegExp) {
  for (let i = 0; i < 60; i++) {
    await page.keyboard.press("Tab");
    const current = await page.evaluate(() => {
      const el = document.activeElement as HTMLElement | null;
      return (el?.id && document.querySelector(`label[for="${el.id}"]`)?.textContent) || el?.textContent || "";
    });
    if (typeof label === "string" ? current.startsWith(label) : label.test(current)) return;
  }
  throw new Error(`Tab never reached "${label}"`);
}

/** What Stripe.js does with the publishable key: confirm the intent with a test card, at Stripe. */
async function confirmWithStripe(clientSecret: string, card = "4242424242424242") {
  const intent = clientSecret.split("_secret_")[0]!;
  const response = await fetch(`${api.stripe.url}/v1/payment_intents/${intent}/confirm`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({
      key: TEST_PUBLISHABLE_KEY,
      client_secret: clientSecret,
      "payment_method_data[type]": "card",
      "payment_method_data[card][number]": card,
      "payment_method_data[card][exp_month]": "12",
      "payment_method_data[card][exp_year]": "2034",
      "payment_method_data[card][cvc]": "123",
    }),
  });
  expect(response.status).toBe(200);
  await api.stripe.settled();
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
    // This build has no PayPal client ID: no word of PayPal, no choice of how to pay.
    expect(await page.locator("main").innerText()).not.toContain("PayPal");
    expect(await page.getByText("How to pay").count()).toBe(0);
    await page.getByRole("button", { name: "Continue to payment" }).click();
    await page.getByLabel("Card number").waitFor();
    expect(stripe.requests).toBe(before + 1);
    await expect(page.getByRole("button", { name: "Give $1,234.56" }).isVisible()).resolves.toBe(true);
    await payWithCard(page);
    const reference = await expectThankYou(page);
    const body = await page.locator("main").textContent();
    expect(body).toContain("$1,234.56");
    expect(body).toContain("Your gift is received.");
    const created = posts().at(-1)!;
    expect(created.status).toBe(201);
    const state = await (
      await fetch(`${api.url}/donations/${new URL(page.url()).searchParams.get("donation")}`)
    ).json();
    expect(state).toMatchObject({
      reference,
      fund: "zakat",
      frequency: "once",
      amountCents: 123456,
      feeCents: 0,
      status: "succeeded",
    });
    noProblems(seen);
    await page.close();
  });

  it("a donor who types and presses Enter before the island's code has arrived loses nothing and sends nothing", async () => {
    // A context of its own: the shared one's service worker, installed by earlier tests, would serve the code from its cache.
    const fresh = await isolatedContext(browser);
    const page = await fresh.newPage();
    const seen = watchProblems(page);
    // Hold the island's code back at the network layer until the donor has typed.
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route(/\/_islands\/donation-[^/]+\.js$/, async (route) => {
      await held;
      await route.continue();
    });
    await page.goto(site.url + "/pay/sadaqah/");
    await page.getByLabel("First name").fill("Yusuf");
    // Submitting now would make the browser send the form itself: the page holds it back.
    await page.getByLabel("First name").press("Enter");
    expect(new URL(page.url()).search).toBe("");
    const island = page.locator('[data-island="donation"]');
    expect(await island.getAttribute("data-hydrated")).toBeNull();
    expect(await island.getAttribute("data-used-early")).toBe("true");
    release();
    // Reached into early, the island hydrates as soon as its code runs, and takes over the typed name.
    await page.waitForSelector('[data-island="donation"][data-hydrated="true"]');
    const kept = () =>
      page.evaluate(
        () => JSON.parse(sessionStorage.getItem("nzf-donation:/pay/sadaqah/") ?? "{}") as { firstName?: string },
      );
    await expect.poll(kept).toMatchObject({ firstName: "Yusuf" });
    expect(await page.getByLabel("First name").inputValue()).toBe("Yusuf");
    expect(new URL(page.url()).search).toBe("");
    noProblems(seen);
    await fresh.close();
  });

  it("hydrates on the donor's first use, keeping what the browser filled in before it", async () => {
    const { page, seen } = await open("/pay/sadaqah/");
    const island = page.locator('[data-island="donation"]');
    // A one-off gift with nothing kept: the server's form is the form as it starts.
    expect(await island.getAttribute("data-hydrated")).toBe("on-first-use");
    // What autofill does: a value without the donor's keystrokes, before the island runs.
    await page.getByLabel("First name").evaluate((el) => ((el as HTMLInputElement).value = "Aisha"));
    await page.getByLabel("Last name").fill("Rahman");
    expect(await island.getAttribute("data-hydrated")).toBe("true");
    const kept = () =>
      page.evaluate(
        () =>
          JSON.parse(sessionStorage.getItem("nzf-donation:/pay/sadaqah/") ?? "{}") as {
            firstName?: string;
            lastName?: string;
          },
      );
    await expect.poll(kept).toMatchObject({ firstName: "Aisha", lastName: "Rahman" });
    expect(await page.getByLabel("First name").inputValue()).toBe("Aisha");
    noProblems(seen);
    await page.close();
  });

  it("a monthly sadaqah shows the total and the dates before paying, with the fee covered", async () => {
    const { page, seen } = await open("/pay/sadaqah/");
    await page.getByRole("button", { name: "$50", exact: true }).click();
    expect(await page.getByLabel("Amount (AUD)").inputValue()).toBe("50");
    await page.getByLabel("Monthly").check();
    await page.getByLabel(/cover the payment fee/).check();
    // $50 with the fee covered: ceil((5000 + 30) / 0.983) = 5117 cents (docs/payments-api.md).
    await expect(page.getByLabel("Add $1.17 to each payment to cover the payment fee").isChecked()).resolves.toBe(true);
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
    expect(state).toMatchObject({
      fund: "sadaqah",
      frequency: "monthly",
      amountCents: 5000,
      feeCents: 117,
      totalCents: 5117,
      openEnded: true,
    });
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
    expect(await page.locator(".don-step .don-summary dl").innerText()).toMatch(/^Number of people\s+5\s+Your gift/);
    // Where the receipt goes, before paying: a mistyped address can still be changed.
    expect(await page.locator(".don-receipt-to").textContent()).toBe(
      "We will e-mail your receipt to aisha@example.com.",
    );
    await payWithCard(page);
    await expectThankYou(page);
    const id = new URL(page.url()).searchParams.get("donation");
    expect(await (await fetch(`${api.url}/donations/${id}`)).json()).toMatchObject({ fund: "fitr", amountCents: 7500 });
    noProblems(seen);
    await page.close();
  });

  it("qurban by keyboard: two lambs at the page's $450, paid at the API's price, reach the thank-you page", async () => {
    // The island names the option by its content code; without it the API cannot price the gift.
    const html = await (await fetch(site.url + "/pay/qurban/")).text();
    expect(
      html.includes('"code":"lamb-australia"'),
      "templates/pages/donation.tsx must pass animal_options[].code to the donation island",
    ).toBe(true);
    const { page, seen } = await open("/pay/qurban/");
    await page.locator("body").focus();
    // The sample content preselects the lamb (default_option): the checked option takes focus, and
    // the arrow keys move through the radio group.
    await tabTo(page, /^Lamb \(in Australia\)/);
    expect(await page.getByLabel("Lamb (in Australia): $450.00").isChecked()).toBe(true);
    await page.keyboard.press("ArrowUp");
    await page.keyboard.press("ArrowUp");
    expect(await page.getByLabel(/^One-seventh share of a cow/).isChecked()).toBe(true);
    await page.keyboard.press("ArrowDown");
    await page.keyboard.press("ArrowDown");
    expect(await page.getByLabel("Lamb (in Australia): $450.00").isChecked()).toBe(true);
    await tabTo(page, "Number of animals");
    await page.keyboard.press("ControlOrMeta+A");
    await page.keyboard.type("02");
    // Echoed as the number it is, not as typed.
    await expect.poll(() => page.locator(".don-multiply").textContent()).toBe("2 × $450.00 = $900.00");
    for (const [label, text] of [
      ["First name", "Aisha"],
      ["Last name", "Rahman"],
      ["E-mail address", "aisha@example.com"],
      ["Phone number", "0412 345 678"],
    ]) {
      await tabTo(page, label!);
      await page.keyboard.type(text!);
    }
    await tabTo(page, "Continue to payment");
    await page.keyboard.press("Enter");
    await page.getByLabel("Card number").waitFor();
    // The check before paying names the animal and how many (two lambs and three goats cost the same).
    const summary = page.locator(".don-step .don-summary");
    expect(await summary.locator("dt").first().textContent()).toBe("Number of animals");
    expect(await summary.locator("dd").first().textContent()).toBe("2 × Lamb (in Australia)");
    await page.waitForSelector(".don-pay button:not([disabled])");
    await tabTo(page, "Card number");
    await page.keyboard.type("4242424242424242");
    await page.keyboard.press("Tab");
    await page.keyboard.type("1230");
    await page.keyboard.press("Tab");
    await page.keyboard.type("123");
    await tabTo(page, "Give $900.00");
    await page.keyboard.press("Enter");
    const reference = await expectThankYou(page);
    expect(await page.locator("main").textContent()).toContain("$900.00");
    const created = posts().at(-1)!;
    expect(created.status).toBe(201);
    const id = new URL(page.url()).searchParams.get("donation");
    expect(created.donationId).toBe(id);
    expect(await (await fetch(`${api.url}/donations/${id}`)).json()).toMatchObject({
      reference,
      fund: "qurban",
      amountCents: 90000,
      totalCents: 90000,
      status: "succeeded",
    });
    noProblems(seen);
    await page.close();
  });

  it("every bad input gets its message beside the field, keeps the form, and sends nothing; axe-core finds no violation with errors showing", async () => {
    const { page, seen } = await open("/pay/zakat/");
    const sent = posts().length;
    const amount = page.getByLabel("Amount (AUD)");
    const errorOf = (label: string) =>
      page.getByLabel(label, { exact: true }).evaluate((input) => {
        const ids = (input.getAttribute("aria-describedby") ?? "").split(" ");
        return {
          invalid: input.getAttribute("aria-invalid"),
          text:
            ids.map((id) => document.getElementById(id)).find((el) => el?.classList.contains("don-error"))
              ?.textContent ?? null,
        };
      });
    // Nothing typed yet: every required field says so.
    await amount.fill("");
    await page.getByRole("button", { name: "Continue to payment" }).click();
    expect(await errorOf("Amount (AUD)")).toEqual({ invalid: "true", text: "Enter an amount." });
    expect((await errorOf("First name")).text).toBe("Enter your first name.");
    expect((await errorOf("Last name")).text).toBe("Enter your last name.");
    expect((await errorOf("E-mail address")).text).toBe("Enter your e-mail address.");
    expect((await errorOf("Phone number")).text).toBe("Enter your phone number.");
    // Focus moves to the first field at fault, so a keyboard or screen-reader user lands on it.
    await expect.poll(() => amount.evaluate((el) => el === document.activeElement)).toBe(true);
    const violations = await axeViolations(page);
    expect(formatViolations("/pay/zakat/ with errors", violations)).toBe("");

    await fillDonor(page);
    await page.getByLabel("E-mail address", { exact: true }).fill("aisha@example");
    const cases: [string, string][] = [
      ["fifty", "Enter the amount as a number, like 50 or 50.25."],
      ["10.555", "Enter the amount in dollars and cents, with no more than two decimal places."],
      ["9.99", "The minimum gift is $10."],
      ["100000.01", "The maximum gift online is $100,000. For a larger gift, please contact us."],
    ];
    for (const [typed, message] of cases) {
      await amount.fill(typed);
      await page.getByRole("button", { name: "Continue to payment" }).click();
      expect((await errorOf("Amount (AUD)")).text, typed).toBe(message);
      expect(await amount.inputValue()).toBe(typed);
    }
    expect((await errorOf("E-mail address")).text).toBe("Enter an e-mail address, like name@example.com.");
    expect(await page.getByLabel("First name").inputValue()).toBe("Aisha");
    // A started address must be complete enough to post a receipt to.
    await page.getByLabel("Postcode").fill("20000");
    await page.getByRole("button", { name: "Continue to payment" }).click();
    expect((await errorOf("Postcode")).text).toBe("Enter a 4-digit postcode.");
    expect((await errorOf("Street address")).text).toBe("Enter the street address.");
    expect(posts().length).toBe(sent);

    // Nothing typed is lost on a reload either: the form is kept in sessionStorage.
    await page.reload();
    await page.waitForSelector('[data-island="donation"][data-hydrated="true"]');
    await expect.poll(() => page.getByLabel("First name").inputValue()).toBe("Aisha");
    expect(await amount.inputValue()).toBe("100000.01");
    expect(await page.getByLabel("Postcode").inputValue()).toBe("20000");
    noProblems(seen);
    await page.close();
  });

  it("a payments API 500 shows the error and keeps the form; trying again uses the same idempotency key and succeeds", async () => {
    const { page, seen } = await open("/pay/sadaqah/");
    await fillDonor(page);
    api.injectFault({ status: 500, path: "/donations" });
    const sent = posts().length;
    await page.getByRole("button", { name: "Continue to payment" }).click();
    const alert = page.locator(".don-alert");
    await expect.poll(() => alert.textContent()).toContain("Something went wrong on our side. Nothing was charged.");
    expect(await page.getByLabel("Last name").inputValue()).toBe("Rahman");
    await page.getByRole("button", { name: "Try again" }).click();
    await page.getByLabel("Card number").waitFor();
    const attempts = posts().slice(sent);
    expect(attempts.map((r) => r.status)).toEqual([500, 201]);
    expect(attempts[0]!.idempotencyKey).toBe(attempts[1]!.idempotencyKey);
    expect(await api.donationCount()).toBeGreaterThan(0);
    seen.failedRequests = seen.failedRequests.filter((r) => !/\/donations: HTTP 500$/.test(r));
    seen.consoleErrors = seen.consoleErrors.filter((r) => !/status of 500/.test(r));
    noProblems(seen);
    await page.close();
  });

  it("a payments API timeout shows the error; the retry gets the donation the first request created, not a second one", async () => {
    // A profile of its own whose clock is the test's: the client's time limit is jumped over, not waited out.
    let posted = () => {};
    const asked = new Promise<void>((resolve) => {
      posted = resolve;
    });
    const own = await donorContext((method, path) => {
      if (method === "POST" && path === "/donations") posted();
    });
    await own.context.clock.install();
    const { page } = await open("/pay/zakat/?amount=77", own.context);
    await fillDonor(page);
    const count = await api.donationCount();
    // The service is still working on the gift when the page gives up on it.
    api.injectFault({ delayMs: 3_000, path: "/donations" });
    await page.getByRole("button", { name: "Continue to payment" }).click();
    // The client starts its time limit before it sends the request (src/payments/client.ts).
    await asked;
    await page.clock.fastForward(TIMEOUT_MS);
    await expect
      .poll(() => page.locator(".don-alert").textContent(), { timeout: 10_000 })
      .toContain("took too long to answer. Nothing was charged.");
    // Let the slow request finish on the server, then try again with the same key.
    await expect.poll(() => api.donationCount(), { timeout: 10_000 }).toBe(count + 1);
    await page.getByRole("button", { name: "Try again" }).click();
    await page.getByLabel("Card number").waitFor();
    const last = posts().at(-1)!;
    expect(last).toMatchObject({ status: 201, replayed: true });
    expect(await api.donationCount()).toBe(count + 1);
    await own.context.close();
  });

  it("a reload at the card step, then Continue with the same gift, gets the donation already made, not a second", async () => {
    const { page } = await open("/pay/zakat/?amount=61");
    await fillDonor(page);
    const count = await api.donationCount();
    await page.getByRole("button", { name: "Continue to payment" }).click();
    await page.getByLabel("Card number").waitFor();
    expect(await api.donationCount()).toBe(count + 1);
    // The page hung, say: the donor reloads. What they typed is kept; Continue again.
    await page.reload();
    await page.waitForSelector('[data-island="donation"][data-hydrated="true"]');
    expect(await page.getByLabel("First name").inputValue()).toBe("Aisha");
    await page.getByRole("button", { name: "Continue to payment" }).click();
    await page.getByLabel("Card number").waitFor();
    expect(posts().at(-1)).toMatchObject({ status: 201, replayed: true });
    expect(await api.donationCount()).toBe(count + 1);
    // A changed gift updates the donation already made (PATCH /donations/{id}: the same id and
    // reference, the new amount), not a second one. (The dev server made a new donation here; the
    // service keeps one donation per gift, issue 37.)
    const made = posts().at(-1)!.donationId!;
    await page.getByRole("button", { name: "Change my gift or details" }).click();
    await page.getByLabel("Amount (AUD)").fill("62");
    await page.getByRole("button", { name: "Continue to payment" }).click();
    await page.getByLabel("Card number").waitFor();
    expect(await api.donationCount()).toBe(count + 1);
    expect(api.requests.filter((r) => r.method === "PATCH").at(-1)).toMatchObject({
      path: `/donations/${made}`,
      status: 200,
    });
    expect(await (await fetch(`${api.url}/donations/${made}`)).json()).toMatchObject({
      amountCents: 6200,
      status: "requires_payment_method",
    });
    await page.close();
  });

  for (const viewport of [
    { width: 390, height: 844 },
    { width: 1280, height: 800 },
  ]) {
    it(`${viewport.width}×${viewport.height}: Back at the card step (a phone's Back button) returns to the form on the same page, as typed`, async () => {
      const page = await context.newPage();
      await page.setViewportSize(viewport);
      // The donor came from the calculator: Back must not take them there from the card step.
      await page.goto(site.url + "/calculate/", { waitUntil: "load" });
      await page.goto(site.url + "/pay/zakat/?amount=63");
      // Watched on the giving page only: leaving a page may cut off its late third-party script.
      const seen = watchProblems(page);
      await page.waitForSelector('[data-island="donation"][data-hydrated]');
      await fillDonor(page);
      await page.getByRole("button", { name: "Continue to payment" }).click();
      await page.getByLabel("Card number").waitFor();
      await page.goBack();
      // The form again, on the giving page, with its heading in view and focused, and nothing lost.
      await page.getByRole("button", { name: "Continue to payment" }).waitFor();
      expect(new URL(page.url()).pathname).toBe("/pay/zakat/");
      expect(await page.getByLabel("First name").inputValue()).toBe("Aisha");
      expect(await page.getByLabel("Amount (AUD)").inputValue()).toBe("63");
      expect(await page.getByLabel("Card number").count()).toBe(0);
      // The focused heading is the form's, at the top of the screen, not where Continue was.
      const heading = await page.evaluate(() => {
        const el = document.activeElement!;
        return { tag: el.tagName, top: el.getBoundingClientRect().top, text: el.textContent };
      });
      expect(heading.tag).toMatch(/^H[1-6]$/);
      expect(heading.top).toBeGreaterThanOrEqual(0);
      expect(heading.top).toBeLessThan(viewport.height / 4);
      // Continue again, then the step's own button: it takes the step's entry away, as Back does.
      await page.getByRole("button", { name: "Continue to payment" }).click();
      await page.getByLabel("Card number").waitFor();
      await page.getByRole("button", { name: "Change my gift or details" }).click();
      await page.getByRole("button", { name: "Continue to payment" }).waitFor();
      expect(new URL(page.url()).pathname).toBe("/pay/zakat/");
      noProblems(seen);
      // So the next Back leaves the giving page for the calculator, with no step left in between.
      await page.goBack();
      await page.waitForURL(/\/calculate\/$/);
      await page.close();
    });
  }

  it("390×844 qurban: each animal's label sits beside its radio button, a long one wrapping there", async () => {
    const page = await context.newPage();
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(site.url + "/pay/qurban/");
    const rows = await page.locator(".don-choice").evaluateAll((choices) =>
      choices.map((c) => {
        const radio = c.querySelector("input")!.getBoundingClientRect();
        const label = c.querySelector("label")!.getBoundingClientRect();
        return { radio: { right: radio.right, top: radio.top, bottom: radio.bottom }, label };
      }),
    );
    expect(rows.length).toBeGreaterThan(1);
    for (const { radio, label } of rows) {
      expect(label.left).toBeGreaterThanOrEqual(radio.right);
      // Beside it: the label's box spans the radio's row (a wrapped label is taller, not lower).
      expect(label.top).toBeLessThanOrEqual(radio.bottom);
      expect(label.bottom).toBeGreaterThanOrEqual(radio.top);
    }
    // The sample's first choice is long enough to wrap at this width.
    expect(Math.max(...rows.map((r) => r.label.height))).toBeGreaterThan(30);
    await page.close();
  });

  it("390×844: a reload at the card step shows the form the donor was in, not the top of the page", async () => {
    const page = await context.newPage();
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(site.url + "/pay/zakat/?amount=64");
    await page.waitForSelector('[data-island="donation"][data-hydrated]');
    await fillDonor(page);
    await page.getByRole("button", { name: "Continue to payment" }).click();
    await page.getByLabel("Card number").waitFor();
    await page.reload();
    await page.waitForSelector('[data-island="donation"][data-hydrated="true"]');
    const heading = page.getByRole("heading", { name: "Give now" });
    await expect.poll(() => heading.evaluate((h) => Math.round(h.getBoundingClientRect().top))).toBeLessThan(844 / 4);
    expect(await heading.evaluate((h) => h.getBoundingClientRect().top)).toBeGreaterThanOrEqual(0);
    expect(await page.getByLabel("First name").inputValue()).toBe("Aisha");
    await page.close();
  });

  it("the dedication counts its characters as the donor nears the limit, and says when it is over", async () => {
    const { page, seen } = await open("/pay/sadaqah/");
    const dedication = page.getByLabel(/^Dedication/);
    const hint = async () => page.locator(`#${await dedication.getAttribute("id")}-hint`).textContent();
    await dedication.fill("In memory of my father");
    expect(await hint()).toBe('For example "On behalf of my late father". Up to 200 characters.');
    await dedication.fill("a".repeat(185));
    await expect.poll(hint).toBe("185 of 200 characters.");
    await dedication.fill("a".repeat(210));
    await expect.poll(hint).toBe("210 of 200 characters.");
    await dedication.press("Tab");
    await page.getByText("Keep the dedication to 200 characters or fewer.").waitFor();
    noProblems(seen);
    await page.close();
  });

  it("Stripe.js failing to load shows 'Failed to load Stripe.js', then loads on retry; a script without Stripe shows 'Stripe.js not available'", async () => {
    const { page } = await open("/pay/zakat/?amount=20");
    await fillDonor(page);
    // @stripe/stripe-js tries twice before giving up.
    stripe.failNextLoads(2);
    await page.getByRole("button", { name: "Continue to payment" }).click();
    await expect.poll(() => page.locator(".don-alert").textContent()).toContain("Failed to load Stripe.js");
    expect(await page.getByLabel("Amount (AUD)").inputValue()).toBe("20");
    stripe.emptyNextLoads(2);
    await page.getByRole("button", { name: "Try again" }).click();
    await expect.poll(() => page.locator(".don-alert").textContent()).toContain("Stripe.js not available");
    await page.getByRole("button", { name: "Try again" }).click();
    await page.getByLabel("Card number").waitFor();
    await expect(page.getByRole("button", { name: "Give $20.00" }).isVisible()).resolves.toBe(true);
    await page.close();
  });

  it("a double click on Continue sends one request; a declined card can be retried on the same intent", async () => {
    const { page, seen } = await open("/pay/zakat/?amount=40");
    await fillDonor(page);
    const sent = posts().length;
    await page.getByRole("button", { name: "Continue to payment" }).dblclick();
    await page.getByLabel("Card number").waitFor();
    expect(posts().length).toBe(sent + 1);
    await payWithCard(page, "4000 0000 0000 0002");
    await expect.poll(() => page.locator(".don-pay .don-alert").textContent()).toContain("Your card was declined.");
    await payWithCard(page);
    await expectThankYou(page);
    expect(posts().length).toBe(sent + 1);
    // Stripe answers the declined confirm with 402, as the real API does: that one is expected.
    const declined = (r: string) => r.includes("402");
    expect(seen.failedRequests.filter(declined)).toEqual([
      expect.stringMatching(/\/v1\/payment_intents\/pi_\w+\/confirm: HTTP 402$/),
    ]);
    seen.failedRequests = seen.failedRequests.filter((r) => !declined(r));
    seen.consoleErrors = seen.consoleErrors.filter((r) => !/status of 402 \(Payment Required\)/.test(r));
    noProblems(seen);
    await page.close();
  });

  it("a donor gives with the keyboard alone, and axe-core finds no violation on the form, the card step and the thank-you page", async () => {
    const { page, seen } = await open("/pay/jumuah-giving/");
    const problems: string[] = [];
    const axe = async (where: string) => {
      const v = await axeViolations(page);
      if (v.length) problems.push(formatViolations(where, v));
    };
    await axe("form");
    const focusOn = (label: string | RegExp) => tabTo(page, label);
    await page.locator("body").focus();
    await focusOn("$10");
    await page.keyboard.press("Enter");
    await focusOn("One-off");
    await page.keyboard.press("ArrowDown"); // radio group: the next schedule, Every Friday
    expect(await page.getByLabel("Every Friday").isChecked()).toBe(true);
    for (const [label, text] of [
      ["First name", "Yusuf"],
      ["Last name", "Ali"],
      ["E-mail address", "yusuf@example.com"],
      ["Phone number", "+61 412 345 678"],
    ]) {
      await focusOn(label!);
      await page.keyboard.type(text!);
    }
    await focusOn("Continue to payment");
    await page.keyboard.press("Enter");
    await page.getByLabel("Card number").waitFor();
    await page.waitForSelector(".don-pay button:not([disabled])");
    await axe("card step");
    await focusOn("Card number");
    await page.keyboard.type("4242424242424242");
    await page.keyboard.press("Tab");
    await page.keyboard.type("1230");
    await page.keyboard.press("Tab");
    await page.keyboard.type("123");
    // Weekly gifts start on the next Friday: on other days the card is saved for it (a SetupIntent).
    await focusOn(/^(Give \$10\.00|Save card for \$10\.00 from )/);
    await page.keyboard.press("Enter");
    await expectThankYou(page);
    await axe("thank-you");
    expect(problems).toEqual([]);
    noProblems(seen);
    await page.close();
  });

  it("on /pay the donor chooses the fund; the form switches to its options", async () => {
    const { page, seen } = await open("/pay/");
    const fund = page.getByLabel("Where your gift goes", { exact: true });
    await fund.selectOption({ label: "Dispose of tainted wealth" });
    await expect.poll(() => page.locator(".don-note").textContent()).toContain("purification, not zakat or sadaqah");
    await fund.selectOption({ label: "Qurban" });
    await page.getByLabel(/^Goat \(overseas\)/).check();
    await page.getByLabel("Number of animals").fill("2");
    await expect.poll(() => page.locator(".don-multiply").textContent()).toBe("2 × $150.00 = $300.00");
    expect(await page.locator(".don-summary").first().textContent()).toContain("$300.00");
    noProblems(seen);
    await page.close();
  });

  it("ships the form's own code under 15 KB gzip on top of React, with Stripe's loader deferred", async () => {
    const size = await measureDonationJs(built.outDir);
    expect(size.formGzip).toBeGreaterThan(1_000);
    expect(size.formGzip).toBeLessThanOrEqual(DONATION_BUDGET_GZIP);
    expect(size.files.some((f) => f.role === "deferred")).toBe(true);
    // The checks arrive on the donor's first use of the form (src/client/donation/validator.ts).
    const upFront = size.files.filter((f) => f.role !== "deferred").map((f) => f.url);
    const validation = size.files.filter((f) => f.role === "deferred").map((f) => f.url);
    const code = async (url: string) => readFile(join(built.outDir, url), "utf8");
    const hasChecks = async (url: string) => (await code(url)).includes("Check the comma: put cents after");
    expect(await Promise.all(upFront.map(hasChecks))).not.toContain(true);
    expect(await Promise.all(validation.map(hasChecks))).toContain(true);
    // The whole page, React with it, within the budget of every island page.
    expect((await measurePageJs(built.outDir, "pay/zakat/index.html")).totalGzip).toBeLessThanOrEqual(
      ISLAND_PAGE_BUDGET_GZIP,
    );
  });
});

/** Screenshots of each step, kept for review (gitignored). */
const JOURNEYS = "test-results/journeys";

/** Where an element sits in the viewport, and whether it has focus. */
const placeOf = (page: Page, selector: string) =>
  page
    .locator(selector)
    .first()
    .evaluate((el) => {
      const r = el.getBoundingClientRect();
      return {
        top: Math.round(r.top),
        bottom: Math.round(r.bottom),
        focused: el === document.activeElement,
        text: el.textContent,
      };
    });

/** "Today" as the form and the payments backend take it: Sydney's date. */
const sydneyToday = () => todayIn("Australia/Sydney");

describe("the donor's journey, pay → card → thank you, on a phone and a desktop", { timeout: 90_000 }, () => {
  for (const [name, viewport] of [
    ["phone", { width: 390, height: 844 }],
    ["desktop", { width: 1280, height: 800 }],
  ] as const) {
    it(`${name} ${viewport.width}×${viewport.height}: each step's heading is in view and focused, axe passes, zakat in 12 instalments that end`, async () => {
      await mkdir(JOURNEYS, { recursive: true });
      const page = await context.newPage();
      await page.setViewportSize(viewport);
      const seen = watchProblems(page);
      const problems: string[] = [];
      const axe = async (where: string) => {
        const v = await axeViolations(page);
        if (v.length) problems.push(formatViolations(where, v));
      };
      // Arrive from another page, as a donor does, so Back has somewhere to go.
      await page.goto(site.url + "/calculate/", { waitUntil: "networkidle" });
      await page.goto(site.url + "/pay/zakat/");
      // The way to the form is at the top of the page, in the first screen.
      const jump = page.locator(".don-jump a[href='#give']");
      expect((await placeOf(page, ".don-jump a")).bottom).toBeLessThan(viewport.height);
      // At the top the hero's "Give now" is the one action: the sticky one waits until it has
      // scrolled away (on a phone; a desktop never shows it), and showing it shifts nothing.
      const sticky = page.locator(".don-sticky");
      await page.waitForFunction(() => document.querySelector('[data-island="donation"][data-hydrated]'));
      expect(await sticky.isVisible()).toBe(false);
      if (name === "phone") {
        const heroBottom = await page.locator(".don-jump").evaluate((el) => el.getBoundingClientRect().bottom);
        const bodyTextTop = await page.locator("main h1").evaluate((el) => el.getBoundingClientRect().top);
        await page.mouse.wheel(0, heroBottom + 50);
        await expect.poll(() => sticky.isVisible()).toBe(true);
        const box = (await sticky.boundingBox())!;
        expect(box.y + box.height).toBeLessThanOrEqual(viewport.height);
        expect(box.y).toBeGreaterThan(viewport.height - 120);
        // The page did not move under the donor when it appeared.
        const shifted = await page.locator("main h1").evaluate((el) => el.getBoundingClientRect().top + window.scrollY);
        expect(Math.round(shifted)).toBe(Math.round(bodyTextTop));
        await page.screenshot({ path: `${JOURNEYS}/donation-${name}-0-sticky.png` });
        // Back at the top: the hero's action is in view again and the sticky one goes.
        await page.evaluate(() => window.scrollTo(0, 0));
        await expect.poll(() => sticky.isVisible()).toBe(false);
      }
      await jump.click();
      await page.waitForFunction(() => location.hash === "#give");
      const panel = await placeOf(page, "#give");
      expect(panel.top).toBeGreaterThanOrEqual(-1);
      expect(panel.top).toBeLessThan(viewport.height / 3);
      // Reached: the sticky link steps aside.
      expect(await sticky.isVisible()).toBe(false);
      await page.screenshot({ path: `${JOURNEYS}/donation-${name}-1-form.png` });

      // Errors as the donor leaves the field, precise, and gone once fixed.
      const amount = page.getByLabel("Amount (AUD)");
      await amount.fill("1,20");
      await amount.press("Tab");
      const amountError = page.locator(`[id="${await amount.getAttribute("id")}-error"]`);
      await expect
        .poll(() => amountError.textContent())
        .toBe(
          "Check the comma: put cents after a decimal point, like 1.20, and group thousands in threes, like 1,200.",
        );
      await amount.fill("-20");
      await amount.press("Tab");
      await expect
        .poll(() => amountError.textContent())
        .toBe("Enter an amount above $0, without a minus sign, like 50.");
      await amount.fill("489");
      await amount.press("Tab");
      await expect.poll(() => amountError.count()).toBe(0);

      // A year's zakat in twelve payments that stop: the sentence and the end date before paying.
      await page.getByLabel("In monthly instalments").check();
      expect(await page.getByLabel("Split into").inputValue()).toBe("12");
      const plan = planGift({
        frequency: "monthly-instalments",
        today: sydneyToday(),
        giftCents: 48_900,
        coverFees: false,
        instalmentCount: 12,
      });
      if (!plan.ok) throw new Error(plan.message);
      const sentence = instalmentSentence(plan.plan.instalments!, plan.plan.schedule.charges, formatsFor(englishWords));
      expect(sentence).toMatch(
        /^12 payments of \$40\.75, from \d{1,2} [A-Z][a-z]{2} \d{4} to \d{1,2} [A-Z][a-z]{2} \d{4}$/,
      );
      await expect
        .poll(() => page.locator(".don-plan").first().textContent())
        .toBe(`${sentence}. They stop when your $489.00 is paid.`);
      expect(await page.locator(".don-summary").first().textContent()).not.toContain("until you cancel");

      await fillDonor(page);
      // States and countries from lists, Australia first.
      await page.getByLabel("Street address").fill("1 George St");
      await page.getByLabel("Suburb or town").fill("Sydney");
      await page.getByLabel("State or territory").selectOption("NSW");
      await page.getByLabel("Postcode").fill("2000");
      const country = page.getByLabel("Country", { exact: true });
      await expect.poll(() => country.locator("option").count()).toBeGreaterThan(200);
      expect(await country.locator("option").first().textContent()).toBe("Australia");
      expect(await country.inputValue()).toBe("AU");
      await axe(`${name}: form`);

      await page.getByRole("button", { name: "Continue to payment" }).click();
      await page.getByLabel("Card number").waitFor();
      await page.waitForSelector(".don-pay button:not([disabled])");
      // The card step's heading at the top of the screen, with focus: not the footer of a shorter page.
      await expect.poll(() => placeOf(page, ".don-step-heading").then((p) => p.focused)).toBe(true);
      const step = await placeOf(page, ".don-step-heading");
      expect(step.text).toBe("Check your gift and pay");
      expect(step.top).toBeGreaterThanOrEqual(0);
      expect(step.top).toBeLessThan(150);
      expect(await page.locator(".don-plan").last().textContent()).toContain("12 payments of $40.75");
      await axe(`${name}: card step`);
      await page.screenshot({ path: `${JOURNEYS}/donation-${name}-2-payment.png` });

      const request = posts().at(-1)!;
      const created = await (await fetch(`${api.url}/donations/${request.donationId}`)).json();
      expect(created).toMatchObject({
        fund: "zakat",
        frequency: "monthly-instalments",
        amountCents: 4075,
        scheduleTotalCents: 48_900,
        openEnded: false,
        instalments: { count: 12, giftCents: 48_900 },
      });

      await payWithCard(page);
      await expectThankYou(page);
      // One heading, focused, at the top; what, where, when, how to change it, and the receipt.
      await expect.poll(() => placeOf(page, "main h1").then((p) => p.focused)).toBe(true);
      expect(await page.locator("h1").allTextContents()).toEqual(["Thank you"]);
      expect((await placeOf(page, "main h1")).top).toBeLessThan(viewport.height / 2);
      const thanks = (await page.locator(".thanks").textContent())!;
      expect(thanks).toContain("Given to" + "Zakat");
      expect(thanks).toMatch(/12 payments of \$40\.75, from .+ to .+, \$489\.00 in all/);
      expect(thanks).toContain("May Allah accept your zakat");
      expect(thanks).toContain("To change or cancel the remaining payments");
      expect(thanks).toContain("Your receipt for today's payment is on its way to your e-mail");
      expect(thanks).not.toMatch(/(^|[^\w ,])\s*\$\d[\d,]*\.\d\d\.(\s|$)/); // no bare "$489.06."
      await axe(`${name}: thank-you`);
      await page.screenshot({ path: `${JOURNEYS}/donation-${name}-3-thank-you.png`, fullPage: true });

      // Back: the card step and the filled form are gone (the thank-you page replaced them); the
      // pay page (the entry before the "Give now" jump) says the gift is made instead of inviting another.
      await page.goBack({ waitUntil: "commit" });
      await expect.poll(() => new URL(page.url()).pathname).toBe("/pay/zakat/");
      await page.locator(".don-given").waitFor();
      expect(await page.locator(".don-given").textContent()).toContain("You have already given — give again?");
      expect(await page.locator(".donation-form form").isHidden()).toBe(true);
      expect(await page.locator(".don-pay").count()).toBe(0);
      await page.screenshot({ path: `${JOURNEYS}/donation-${name}-4-back.png` });
      await page.getByRole("button", { name: "Give again" }).click();
      await expect.poll(() => page.getByLabel("First name").inputValue()).toBe("");
      expect(await page.getByLabel("Amount (AUD)").inputValue()).not.toBe("489");
      expect(problems).toEqual([]);
      noProblems(seen);
      await page.close();
    });
  }

  it("the thank-you page opened directly claims no gift and no receipt, and links to give", async () => {
    const page = await context.newPage();
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(site.url + "/pay/thank-you/");
    await page.locator("main h1").filter({ hasText: "No recent gift to show" }).waitFor();
    // What the donor reads (innerText): the page's words travel in the island's props, every variant.
    const text = await page.locator("main").innerText();
    expect(text).not.toMatch(/is on its way|receipt is coming|Thank you/);
    expect(await page.locator("h1").count()).toBe(1);
    expect(await page.getByRole("link", { name: "Give now" }).getAttribute("href")).toMatch(/^\/pay\//);
    await page.screenshot({ path: `${JOURNEYS}/donation-phone-thank-you-direct.png` });
    await page.close();
  });

  for (const [path, heading, notCharged] of [
    ["/pay/thank-you/", "We are confirming your payment", "not charged"],
    ["/ar-ae/pay/thank-you/", "جارٍ تأكيد الدفع", "لم يُخصم"],
  ] as const)
    it(`${path}: Stripe says paid, the API has not recorded it yet: no 'not charged', no invitation to pay again`, async () => {
      // A donation the API still has as awaiting payment (its record of the payment is late).
      const created = await fetch(`${api.url}/donations`, {
        method: "POST",
        headers: { "content-type": "application/json", "idempotency-key": crypto.randomUUID() },
        body: JSON.stringify(donationRequest()),
      }).then((r) => r.json() as Promise<{ donationId: string; reference: string; clientSecret: string }>);
      const page = await context.newPage();
      await page.setViewportSize({ width: 390, height: 844 });
      await page.goto(
        `${site.url}${path}?donation=${created.donationId}&payment_intent=pi_late&redirect_status=succeeded`,
      );
      await page.locator("main h1").filter({ hasText: heading }).waitFor();
      const text = await page.locator("main").innerText();
      expect(text).toContain(created.reference);
      expect(text).not.toContain(notCharged);
      // No way back to the form from here: the gift is made, as far as Stripe knows.
      expect(await page.locator('main a[href*="/pay/"]').count()).toBe(0);
      await page.screenshot({ path: `${JOURNEYS}/donation-confirming${path.startsWith("/ar-ae/") ? "-ar" : ""}.png` });
      expect(formatViolations(`${path} confirming`, await axeViolations(page))).toBe("");
      // Once the API has it, "Check again" shows the thanks: the card is confirmed with Stripe (the
      // stand-in), whose signed payment_intent.succeeded webhook the service records.
      await confirmWithStripe(created.clientSecret);
      await page.getByRole("button", { name: path.startsWith("/ar-ae/") ? "تحقق مرة أخرى" : "Check again" }).click();
      await page.locator(".thanks-reference strong").filter({ hasText: created.reference }).waitFor();
      await page.close();
    });

  it("on /pay/, choosing another fund keeps the amount the donor typed, and the default otherwise", async () => {
    const { page } = await open("/pay/");
    const amount = page.locator('[data-island="donation"]').getByLabel("Amount (AUD)");
    const fund = page.locator('[data-island="donation"]').getByLabel("Where your gift goes");
    const defaultOf = async (value: string) => {
      await fund.selectOption(value);
      return amount.inputValue();
    };
    // Untouched: each fund's own default amount.
    const sadaqahDefault = await defaultOf("sadaqah");
    const zakatDefault = await defaultOf("zakat");
    expect(sadaqahDefault).not.toBe(zakatDefault);
    // Typed: kept across funds.
    await amount.fill("333");
    await fund.selectOption("sadaqah");
    expect(await amount.inputValue()).toBe("333");
    await fund.selectOption("zakat");
    expect(await amount.inputValue()).toBe("333");
    await page.close();
  });

  it("tainted wealth is thanked as purification, never with reward or sadaqah", async () => {
    const { page } = await open("/pay/tainted-wealth/?amount=120");
    await fillDonor(page);
    await page.getByRole("button", { name: "Continue to payment" }).click();
    await page.getByLabel("Card number").waitFor();
    await payWithCard(page);
    await expectThankYou(page);
    const text = await page.locator("main").innerText();
    expect(text).toContain("purified");
    expect(text).not.toMatch(/reward|sadaqah/i);
    await page.close();
  });
});

describe("the Arabic pay page: the form, its messages and the thank-you page in Arabic, right to left", {
  timeout: 90_000,
}, () => {
  /** Latin words of four letters or more, other than names that stay as they are (Stripe, JavaScript, AU$, e-mail examples). */
  const englishWords = (text: string) =>
    (text.match(/[A-Za-z]{4,}/g) ?? []).filter(
      (w) => !/^(Stripe|JavaScript|name|example|Failed|load|available)$/.test(w),
    );

  for (const [name, viewport] of [
    ["phone", { width: 390, height: 844 }],
    ["desktop", { width: 1280, height: 800 }],
  ] as const) {
    it(`${name} ${viewport.width}×${viewport.height}: /ar-ae/pay/zakat/ → card → /ar-ae/pay/thank-you/, every word of the form in Arabic, axe passes`, async () => {
      await mkdir(JOURNEYS, { recursive: true });
      const page = await context.newPage();
      await page.setViewportSize(viewport);
      const seen = watchProblems(page);
      await page.goto(site.url + "/ar-ae/pay/zakat/?amount=1250");
      await page.waitForSelector('[data-island="donation"][data-hydrated="true"]');
      expect(await page.evaluate(() => [document.documentElement.lang, document.documentElement.dir])).toEqual([
        "ar-AE",
        "rtl",
      ]);
      expect(await page.locator(".don-jump a").textContent()).toBe("تبرّع الآن");
      const amount = page.getByLabel("المبلغ (بالدولار الأسترالي)");
      await expect.poll(() => amount.inputValue()).toBe("1250");
      // Amounts for the language: the currency named in Arabic, Latin digits as the donor types them,
      // joined by no-break spaces (a line never ends inside an amount).
      await expect
        .poll(() => page.locator(".don-summary dd strong").first().textContent())
        .toBe("1,250.00\u00a0دولار\u00a0أسترالي");
      // A message as the donor leaves the field, in Arabic.
      await amount.fill("-20");
      await amount.press("Tab");
      const amountError = page.locator(`[id="${await amount.getAttribute("id")}-error"]`);
      await expect.poll(() => amountError.textContent()).toBe("أدخل مبلغًا أكبر من 0 دولار، دون إشارة ناقص، مثل 50.");
      // Typed in Arabic-Indic digits with the Arabic thousands separator: the same 1,250 dollars.
      await amount.fill("١٬٢٥٠");
      await amount.press("Tab");
      await expect.poll(() => amountError.count()).toBe(0);
      await expect
        .poll(() => page.locator(".don-summary dd strong").first().textContent())
        .toBe("1,250.00\u00a0دولار\u00a0أسترالي");
      // Continue with nothing else filled: every message in Arabic, the first field focused.
      await page.getByRole("button", { name: "المتابعة إلى الدفع" }).click();
      await expect.poll(() => page.locator(".don-error").count()).toBeGreaterThan(2);
      const messages = await page.locator(".don-error").allTextContents();
      expect(messages).toContain("أدخل اسمك الأول.");
      expect(messages.flatMap(englishWords)).toEqual([]);
      // The form moves focus once the messages have rendered: read it when it has.
      await expect
        .poll(() => page.evaluate(() => (document.activeElement as HTMLInputElement).id))
        .toMatch(/firstName$/);
      // Instalments: the plan sentence with Arabic month names.
      await page.getByLabel("على أقساط شهرية").check();
      await expect.poll(() => page.locator(".don-plan").first().textContent()).toMatch(/^12 دفعة[، ]/);
      expect(await page.locator(".don-plan").first().textContent()).toMatch(
        /(يناير|فبراير|مارس|أبريل|مايو|يونيو|يوليو|أغسطس|سبتمبر|أكتوبر|نوفمبر|ديسمبر)/,
      );
      await page.getByLabel("مرة واحدة").check();
      await page.getByLabel("الاسم الأول").fill("عائشة");
      await page.getByLabel("اسم العائلة").fill("رحمن");
      await page.getByLabel("البريد الإلكتروني", { exact: true }).fill("aisha@example.com");
      await page.getByLabel("رقم الهاتف").fill("0412 345 678");
      const form = (await page.locator(".donation-form").textContent())!;
      expect(englishWords(form)).toEqual([]);
      // Right to left without sideways scrolling.
      expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
      const v = await axeViolations(page);
      expect(formatViolations(`/ar-ae/pay/zakat/ ${name}`, v)).toBe("");
      await page.screenshot({ path: `${JOURNEYS}/donation-ar-${name}-1-form.png` });

      await page.getByRole("button", { name: "المتابعة إلى الدفع" }).click();
      await page.getByLabel("Card number").waitFor();
      await expect.poll(() => placeOf(page, ".don-step-heading").then((p) => p.focused)).toBe(true);
      expect((await placeOf(page, ".don-step-heading")).text).toBe("راجع تبرعك وادفع");
      await page.waitForSelector(".don-pay button:not([disabled])");
      const give = page.locator(".don-pay .don-actions button").first();
      expect(await give.textContent()).toMatch(/^تبرّع بمبلغ .*1,250\.00/);
      await page.screenshot({ path: `${JOURNEYS}/donation-ar-${name}-2-payment.png` });
      await page.getByLabel("Card number").fill("4242 4242 4242 4242");
      await page.getByLabel("Expiry (MM / YY)").fill("12 / 30");
      await page.getByLabel("Security code").fill("123");
      await give.click();
      await page.waitForURL(/\/ar-ae\/pay\/thank-you\/\?donation=don_/);
      await page.locator(".thanks-reference strong").waitFor();
      expect(await page.locator("main h1").allTextContents()).toEqual(["شكرًا لك"]);
      expect(await page.evaluate(() => document.documentElement.dir)).toBe("rtl");
      const thanks = (await page.locator(".thanks").textContent())!;
      expect(thanks).toContain("تقبّل الله زكاتك");
      expect(thanks).toContain("الزكاة");
      expect(englishWords(thanks.replace(/NZF-[0-9A-Z-]+/g, ""))).toEqual([]);
      expect(formatViolations(`/ar-ae/pay/thank-you/ ${name}`, await axeViolations(page))).toBe("");
      await page.screenshot({ path: `${JOURNEYS}/donation-ar-${name}-3-thank-you.png`, fullPage: true });
      noProblems(seen);
      await page.close();
    });
  }

  it("a first activation of Continue before the form has hydrated is not lost", async () => {
    const own = await isolatedContext(browser, { viewport: { width: 390, height: 844 } });
    const page = await own.newPage();
    await page.goto(site.url + "/pay/zakat/");
    await page.waitForSelector('[data-island="donation"][data-hydrated="on-first-use"]');
    // A click with no pointer or key event before it, as some assistive technology sends: the page
    // holds the submit back (src/client/entries/page-scripts.ts), the island hydrates and sends it.
    await page.evaluate(() =>
      document.querySelector<HTMLButtonElement>('[data-island="donation"] form button[type="submit"]')!.click(),
    );
    await expect.poll(() => page.locator(".don-error").count(), { timeout: 15_000 }).toBeGreaterThan(2);
    expect(await page.locator('[data-island="donation"]').getAttribute("data-hydrated")).toBe("true");
    expect(new URL(page.url()).search).toBe("");
    await own.close();
  });

  it("at 320 px the Arabic form and its messages fit without sideways scrolling", async () => {
    // A context of its own: the journeys before it leave a donor's details in storage, which the
    // form restores, and then there would be no messages to measure.
    // A donor whose own date is not Sydney's (UTC at 20:00, Sydney's next morning): the form, once
    // hydrated by the tap on Continue, shows Sydney's date in full, three lines at 320 px. That
    // must not move the button before the tap is released (it did, and the tap was lost).
    const own = await isolatedContext(browser, { viewport: { width: 320, height: 640 }, timezoneId: "UTC" });
    const page = await own.newPage();
    await page.clock.setFixedTime(new Date("2026-11-27T20:00:00Z"));
    await page.goto(site.url + "/ar-ae/pay/zakat/");
    await page.waitForSelector('[data-island="donation"][data-hydrated="on-first-use"]');
    // A person's tap: pressed, held a tenth of a second (the form hydrates meanwhile), released.
    const button = page.getByRole("button", { name: "المتابعة إلى الدفع" });
    await button.scrollIntoViewIfNeeded();
    const box = (await button.boundingBox())!;
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    await page.mouse.down();
    await page.waitForTimeout(100);
    await page.mouse.up();
    // A loaded machine (CI beside other jobs) can take longer than expect.poll's default 5 s.
    await expect.poll(() => page.locator(".don-error").count(), { timeout: 15_000 }).toBeGreaterThan(2);
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    await page.screenshot({ path: `${JOURNEYS}/donation-ar-320-errors.png`, fullPage: true });
    await own.close();
  });
});

describe("a donor's first tap on Continue, which hydrates the form", () => {
  for (const [path, size, today] of [
    ["/ar-ae/pay/zakat/", { width: 320, height: 640 }, "اليوم"],
    ["/pay/zakat/", { width: 390, height: 844 }, "Today"],
  ] as const)
    it(`${size.width}×${size.height} ${path}: the Continue button stays where it was when the form hydrates`, async () => {
      // A donor's first tap hydrates the form; if the form then grew above the button, the finger's
      // release would land beside it and the tap would be lost (seen on a loaded machine).
      // A donor in Sydney's day: elsewhere, after Sydney's midnight, today is shown as Sydney's date.
      const own = await isolatedContext(browser, { viewport: size, timezoneId: "Australia/Sydney" });
      const page = await own.newPage();
      await page.goto(site.url + path);
      await page.waitForSelector('[data-island="donation"][data-hydrated="on-first-use"]');
      const dates = page.locator('[data-island="donation"] .don-dates li');
      expect(await dates.allTextContents()).toEqual([today]);
      const button = page.locator('[data-island="donation"] form button[type="submit"]');
      await button.scrollIntoViewIfNeeded();
      const before = await button.boundingBox();
      await page.evaluate(() =>
        document.querySelector('[data-island="donation"]')!.dispatchEvent(new FocusEvent("focusin", { bubbles: true })),
      );
      await expect.poll(() => page.locator('[data-island="donation"]').getAttribute("data-hydrated")).toBe("true");
      // After the effects that ran on hydration (the date, the countries, the storage): still today.
      await page.evaluate(() => new Promise((resolve) => setTimeout(resolve, 200)));
      expect(await dates.allTextContents()).toEqual([today]);
      expect(await button.boundingBox()).toEqual(before);
      await own.close();
    });
});
