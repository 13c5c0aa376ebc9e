/**
 * A signed-in donor's giving, in real Chromium: the built site (CSP enforced) with the account
 * island pointed at the payments service's /graphql (graphql-yoga, access tokens verified against
 * cognito-local's keys), the same service taking the gifts on PGlite, the Stripe API stand-in as
 * Stripe (its signed webhooks make them paid), and Stripe.js replaced at the network layer. The donor gives through the real donation forms, then finds the gifts in
 * the history, opens and "prints" a receipt and the tax summary, and manages the monthly gift.
 * Phone (390×844) and desktop (1280×800), keyboard only on the account page, axe-core throughout.
 */
import { randomUUID } from "node:crypto";
import { join } from "node:path";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { StaticServer } from "../../src/server/static-server.js";
import { todayIn } from "../../src/payments/schedules.js";
import { expectAxeClean, expectStep, pressButton, typeInto } from "../support/account-page.js";
import { isolatedContext, watchProblems, type PageProblems } from "../support/browser.js";
import { PROJECT_ROOT } from "../support/build-fixture.js";
import { type AccountSite, startAccountSite } from "../support/account-site.js";
import type { CognitoLocal } from "../support/cognito-local.js";
import { donationRequest } from "../support/donation-request.js";
import { stripeThroughApiHost } from "../support/stripe-api-host.js";
import { TEST_PUBLISHABLE_KEY, type TestPaymentsService } from "../support/payments-service.js";

let site: AccountSite;
let cognito: CognitoLocal;
let service: TestPaymentsService;
let server: StaticServer;
let browser: Browser;

/** Screenshots kept for review (test-results/ is not committed). */
const SHOTS = join(PROJECT_ROOT, "test-results/journeys");
// Unique in the run's shared pool (other files make their own users there).
const EMAIL = `yusuf-${randomUUID().slice(0, 8)}@example.org`;
const PASSWORD = "a long sadaqah phrase";
const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1280, height: 800 };

beforeAll(async () => {
  site = await startAccountSite({ shared: true });
  ({ cognito, service, server, browser } = site);
  // The donor's account, made through the pool's own calls (signing up in the page is account.test.ts's).
  await cognito.call("SignUp", {
    ClientId: cognito.clientId,
    Username: EMAIL,
    Password: PASSWORD,
    UserAttributes: [{ Name: "email", Value: EMAIL }],
  });
  await cognito.call("ConfirmSignUp", { ClientId: cognito.clientId, Username: EMAIL, ConfirmationCode: cognito.code });
  // What the donor's profile holds, for the donation forms to pre-fill.
  await cognito.call("AdminUpdateUserAttributes", {
    UserPoolId: cognito.userPoolId,
    Username: EMAIL,
    UserAttributes: [
      { Name: "given_name", Value: "Yusuf" },
      { Name: "family_name", Value: "Ali" },
      { Name: "phone_number", Value: "+61412345678" },
      {
        Name: "address",
        Value: JSON.stringify({
          street_address: "12 Haldon Street",
          locality: "Lakemba",
          region: "NSW",
          postal_code: "2195",
          country: "AU",
        }),
      },
    ],
  });
}, 240_000);

afterAll(async () => {
  await site?.stop();
});

async function device(viewport: { width: number; height: number }): Promise<BrowserContext> {
  const context = await isolatedContext(browser, { viewport });
  await site.route(context);
  // The page's CSP lets Stripe.js call Stripe's API at api.stripe.com only, as in production.
  await stripeThroughApiHost(context, service.stripe.url);
  return context;
}

function ownProblems(seen: PageProblems): string[] {
  // The pool answers ListDevices with 400 (device tracking is off), which Chromium logs.
  const expected = (e: string) => e.startsWith(cognito.endpoint) || /status of 400/.test(e);
  return [
    ...seen.consoleErrors.filter((e) => !expected(e)),
    ...seen.pageErrors,
    ...seen.failedRequests.filter((r) => r.startsWith(server.url)),
  ];
}

async function signIn(page: Page): Promise<void> {
  await page.goto(`${server.url}/account/`);
  await page.waitForSelector('[data-island="account"][data-hydrated="true"]');
  await expectStep(page, "Sign in", { focused: false });
  await typeInto(page, "E-mail address", EMAIL);
  await typeInto(page, "Password", PASSWORD);
  await pressButton(page, "Sign in");
  await expectStep(page, "Your account");
}

/**
 * Gives through the real donation form (the Stripe stand-in confirms the card). The donor types
 * only the amount: name, e-mail, phone and address come from their profile, already filled in.
 */
async function give(page: Page, path: string, amount: string, monthly: boolean): Promise<string> {
  await page.goto(server.url + path);
  // Signed in, the form hydrates at once (not on first use) to pre-fill.
  await page.waitForSelector('[data-island="donation"][data-hydrated="true"]');
  const value = (label: string) => page.getByLabel(label, { exact: true }).inputValue();
  await expect.poll(() => value("First name"), { timeout: 10_000 }).toBe("Yusuf");
  expect(await value("Last name")).toBe("Ali");
  expect(await value("E-mail address")).toBe(EMAIL);
  expect(await value("Phone number")).toBe("+61412345678");
  expect(await value("Street address")).toBe("12 Haldon Street");
  expect(await value("Suburb or town")).toBe("Lakemba");
  expect(await page.getByLabel("State or territory").inputValue()).toBe("NSW");
  expect(await value("Postcode")).toBe("2195");
  if (monthly) await page.getByLabel("Monthly, until you cancel").check();
  await page.getByLabel("Amount (AUD)").fill(amount);
  await page.getByRole("button", { name: "Continue to payment" }).click();
  await page.getByLabel("Card number").fill("4242 4242 4242 4242");
  await page.getByLabel("Expiry (MM / YY)").fill("12 / 30");
  await page.getByLabel("Security code").fill("123");
  await page.getByRole("button", { name: /^(Give|Save card)/ }).click();
  await page.waitForURL(/\/pay\/thank-you\//);
  const reference = page.locator(".thanks-reference strong");
  await reference.waitFor();
  return (await reference.textContent())!;
}

const focused = (page: Page) =>
  page.evaluate(() => {
    const el = document.activeElement as HTMLElement | null;
    return el ? `${el.tagName} ${el.textContent?.trim().slice(0, 80)}` : "";
  });

/** What a printer gets: the visible text under `@media print`. */
async function printedText(page: Page): Promise<{ header: boolean; document: string; buttons: number }> {
  await page.emulateMedia({ media: "print" });
  const out = await page.evaluate(() => {
    const visible = (el: Element | null) => !!el && getComputedStyle(el).visibility === "visible";
    const doc = document.querySelector(".account-document") as HTMLElement | null;
    return {
      header: visible(document.querySelector("header")) || visible(document.querySelector(".account-step > h2")),
      document: visible(doc) ? (doc?.innerText ?? "") : "",
      buttons: [...(doc?.querySelectorAll("button") ?? [])].filter((b) => b.getClientRects().length > 0).length,
    };
  });
  await page.emulateMedia({ media: "screen" });
  return out;
}

describe("a signed-in donor's giving in Chromium", () => {
  const refs: { monthly?: string; once?: string } = {};

  it("gifts made through the donation forms show in the history; a receipt and the tax summary print alone (phone)", async () => {
    const context = await device(PHONE);
    const page = await context.newPage();
    const seen = watchProblems(page);
    await signIn(page);
    refs.monthly = await give(page, "/pay/sadaqah/", "25", true);
    refs.once = await give(page, "/pay/zakat/", "120.50", false);

    await page.goto(`${server.url}/account/`);
    await expectStep(page, "Your account", { focused: false });
    // The form sent the donor's access token: both gifts are the account's already, shown once
    // the Stripe stand-in's signed webhooks made them paid (no offer to add guest gifts).
    const donations = page.locator(".account-donation");
    await expect.poll(() => donations.count(), { timeout: 15_000 }).toBe(2);
    expect(await page.getByRole("button", { name: /^Add \d+ gifts? to my account$/ }).count()).toBe(0);
    const today = todayIn("Australia/Sydney");
    const [y, m, d] = today.split("-").map(Number);
    const longToday = `${d} ${new Date(Date.UTC(y!, m! - 1, 1)).toLocaleString("en-AU", { month: "long", timeZone: "UTC" })} ${y}`;
    // Newest first: the zakat gift, then the monthly sadaqah.
    const first = await donations.nth(0).innerText();
    expect(first).toContain("Zakat");
    expect(first).toContain("$120.50");
    expect(first).toContain(longToday);
    expect(first).toContain("One-off");
    expect(first).toContain("Paid");
    expect(first).toContain(refs.once);
    const second = await donations.nth(1).innerText();
    expect(second).toContain("Sadaqah");
    expect(second).toContain("Monthly");
    expect(second).toContain(refs.monthly);
    await expectAxeClean(page, "giving history");

    // The receipt, by keyboard: focus on its heading; print shows the receipt alone.
    await pressButton(page, `View receipt ${refs.once}`);
    await expect.poll(() => focused(page)).toBe(`H3 Receipt ${refs.once}`);
    const receipt = await page.locator(".account-document").innerText();
    // The issuer from the global document: the site's name and ABN, as in the footer.
    expect(receipt).toContain("National Zakat Foundation · ABN 51 824 753 556");
    expect(receipt).toContain(EMAIL);
    // Made out to the name given with the donation (pre-filled from the profile).
    expect(receipt).toMatch(/Donor\s+Yusuf Ali/);
    expect(receipt).toContain("$120.50");
    // What the zakat page says: zakat is not tax-deductible.
    expect(receipt).toContain("Gifts to Zakat are not tax-deductible, so this receipt is for your records only.");
    await expectAxeClean(page, "receipt");
    const printed = await printedText(page);
    expect(printed.header).toBe(false);
    expect(printed.document).toContain(`Receipt ${refs.once}`);
    expect(printed.buttons).toBe(0);
    await page.screenshot({ path: join(SHOTS, "account-receipt-390.png"), fullPage: true });
    await pressButton(page, "Back to your account");
    await expect.poll(() => focused(page)).toBe(`BUTTON View receipt ${refs.once}`);

    // The tax summary of this financial year: the first $25 sadaqah is deductible, the $120.50 zakat is not.
    const summary = page.locator(".account-giving");
    await expect.poll(() => summary.innerText()).toContain("Tax-deductible gifts:");
    expect(await summary.innerText()).toMatch(/Sadaqah: \$25(\.00)? \(1 gift\)/);
    expect(await summary.innerText()).toContain("Gifts that are not tax-deductible (for your records): $120.50");
    await pressButton(page, "Open the printable summary");
    await expect.poll(() => focused(page)).toMatch(/^H3 Tax summary, 1 July \d{4} to 30 June \d{4}$/);
    // On a phone the receipts are cards, not a wide table, and fit a 320 px screen.
    expect(await page.locator(".account-document table").isVisible()).toBe(false);
    const cards = await page.locator(".account-receipt-cards").innerText();
    expect(cards).toContain(refs.monthly);
    expect(cards).not.toContain(refs.once);
    await page.setViewportSize({ width: 320, height: 700 });
    expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
    await page.screenshot({ path: join(SHOTS, "account-summary-cards-320.png"), fullPage: true });
    await page.setViewportSize(PHONE);
    await expectAxeClean(page, "tax summary");
    const printedSummary = await printedText(page);
    expect(printedSummary.header).toBe(false);
    expect(printedSummary.document).toContain("Receipts in this financial year");
    await pressButton(page, "Back to your account");
    await expect.poll(() => focused(page)).toBe("BUTTON Open the printable summary");

    // A gift given signed out with the same e-mail is a guest's: offered, added only when asked.
    const guest = await fetch(`${service.url}/donations`, {
      method: "POST",
      headers: { "Content-Type": "application/json", "Idempotency-Key": randomUUID() },
      body: JSON.stringify(
        donationRequest({
          fund: "sadaqah",
          amountCents: 1_000,
          donor: { firstName: "Yusuf", lastName: "Ali", email: EMAIL, phone: "0412 345 678" },
        }),
      ),
    });
    const { clientSecret } = (await guest.json()) as { clientSecret: string };
    const confirmed = await fetch(
      `${service.stripe.url}/v1/payment_intents/${clientSecret.split("_secret_")[0]}/confirm`,
      {
        method: "POST",
        headers: { "Content-Type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({
          key: TEST_PUBLISHABLE_KEY,
          client_secret: clientSecret,
          payment_method: "pm_card_visa",
        }),
      },
    );
    expect(confirmed.status).toBe(200);
    await service.stripe.settled();
    await page.reload();
    await expectStep(page, "Your account", { focused: false });
    await page.getByRole("button", { name: "Add 1 gift to my account" }).waitFor({ timeout: 15_000 });
    expect(await donations.count()).toBe(2);
    await pressButton(page, "Add 1 gift to my account");
    await expect
      .poll(() => page.locator(".account-offer [role=status]").textContent(), { timeout: 15_000 })
      .toBe(`1 gift given with ${EMAIL} is now in your account.`);
    await expect.poll(() => donations.count(), { timeout: 15_000 }).toBe(3);

    expect(ownProblems(seen)).toEqual([]);
    await context.close();
  }, 120_000);

  it("pauses, resumes, changes and cancels the monthly gift, each after a confirmation (desktop, keyboard)", async () => {
    const context = await device(DESKTOP);
    const page = await context.newPage();
    const seen = watchProblems(page);
    await signIn(page);
    const gift = page.locator(".account-gift");
    await expect.poll(() => gift.count(), { timeout: 15_000 }).toBe(1);
    expect(await gift.innerText()).toContain("Active");
    const status = gift.locator("[role=status]");

    await pressButton(page, "Pause");
    await expect.poll(() => focused(page)).toMatch(/^P Pause your monthly gift to Sadaqah\?/);
    await expectAxeClean(page, "pause question");
    // "No" changes nothing.
    await pressButton(page, "No, keep it as it is");
    expect(await gift.innerText()).toContain("Active");
    await pressButton(page, "Pause");
    await pressButton(page, "Yes, pause this gift");
    await expect.poll(() => status.textContent()).toMatch(/^Your monthly gift to Sadaqah is paused\./);
    await expect.poll(() => focused(page)).toMatch(/^DIV Your monthly gift to Sadaqah is paused/);
    expect(await gift.innerText()).toContain("Paused");
    expect(await gift.innerText()).toMatch(/Next charge\s+None/);

    await pressButton(page, "Resume");
    await pressButton(page, "Yes, resume this gift");
    await expect.poll(() => gift.innerText()).toContain("Active");
    expect(await status.textContent()).toBe("Your monthly gift to Sadaqah is active again.");

    // Below the fund's minimum: refused beside the field, focus stays there; then a good amount.
    await pressButton(page, "Change amount");
    await expect.poll(() => focused(page)).toBe("INPUT ");
    await page.keyboard.press("ControlOrMeta+A");
    await page.keyboard.type("0.50");
    await page.keyboard.press("Enter");
    const amountError = gift.locator(".account-field-error");
    await expect.poll(() => amountError.textContent()).toMatch(/^Error: /);
    await expectAxeClean(page, "amount refused");
    await typeInto(page, "New amount per gift (AUD, before fees)", "40");
    await pressButton(page, "Save the new amount");
    await expect.poll(() => gift.locator("h4").textContent()).toMatch(/^Sadaqah: \$40(\.\d\d)? a month$/);
    expect(await status.textContent()).toMatch(/\$40/);

    await pressButton(page, "Cancel gift");
    await pressButton(page, "Yes, cancel this gift");
    await expect.poll(() => gift.innerText()).toContain("Cancelled");
    expect(await gift.locator("button").count()).toBe(0);
    await expectAxeClean(page, "gift cancelled");
    await page.screenshot({ path: join(SHOTS, "account-gifts-1280.png"), fullPage: true });

    // A reload shows what the API keeps, not what the page remembered.
    await page.reload();
    await expectStep(page, "Your account", { focused: false });
    await expect.poll(() => page.locator(".account-gift").innerText(), { timeout: 15_000 }).toContain("Cancelled");

    expect(ownProblems(seen)).toEqual([]);
    await context.close();
  }, 120_000);

  it("when the account API cannot be reached, the signed-in page says so and what to do", async () => {
    const context = await device(PHONE);
    const page = await context.newPage();
    // The API's origin refused at the network: the page must say it, not hang.
    await page.route(`${site.apiUrl}/graphql**`, (route) => route.abort("connectionrefused"));
    await signIn(page);
    await expect
      .poll(() => page.locator(".account-giving [role=alert]").first().textContent(), { timeout: 15_000 })
      .toBe("Error: We could not reach your account records. Check your internet connection, then reload the page.");
    await expectAxeClean(page, "account API unreachable");
    await context.close();
  }, 60_000);
});
