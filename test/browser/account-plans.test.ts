/**
 * Issue 38's journey, as a donor on a phone (390×844) in real Chromium: sign up on /account/, give
 * $1,200 of zakat in 12 monthly instalments through the real zakat form (Stripe.js replaced at the
 * network layer), see the plan in the account "1 of 12 paid" with its next and last date, change
 * its card in Stripe's card form, skip its next payment, pause and resume it before its Stripe schedule starts, cancel it, each after a question; the receipt says what the zakat page says about
 * deductibility; the tax summary fits a 320 px screen. axe-core at each step.
 *
 * The payments service takes the gift and serves the account API at /graphql, as deployed, on
 * PGlite, with the Stripe API stand-in as Stripe (its signed webhook makes the payment paid).
 */
import { randomUUID } from "node:crypto";
import { join } from "node:path";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { todayIn } from "../../src/payments/schedules.js";
import type { StaticServer } from "../../src/server/static-server.js";
import { expectAxeClean, expectStep, pressButton, signUpOnAccountPage } from "../support/account-page.js";
import { isolatedContext, type PageProblems, watchProblems } from "../support/browser.js";
import { PROJECT_ROOT } from "../support/build-fixture.js";
import { type AccountSite, startAccountSite } from "../support/account-site.js";
import type { CognitoLocal } from "../support/cognito-local.js";
import { TEST_SECRET_KEY, type TestPaymentsService } from "../support/payments-service.js";
import { stripeThroughApiHost } from "../support/stripe-api-host.js";

let site: AccountSite;
let cognito: CognitoLocal;
let service: TestPaymentsService;
let server: StaticServer;
let browser: Browser;

const SHOTS = join(PROJECT_ROOT, "test-results/journeys");
// Unique in the run's shared pool (other files make their own users there).
const EMAIL = `maryam-${randomUUID().slice(0, 8)}@example.org`;
const PASSWORD = "a long zakat phrase";

beforeAll(async () => {
  site = await startAccountSite({ shared: true });
  ({ cognito, service, server, browser } = site);
}, 240_000);

afterAll(async () => {
  await site?.stop();
});

function ownProblems(seen: PageProblems): string[] {
  // The pool answers ListDevices with 400 (device tracking is off), which Chromium logs.
  const expected = (e: string) => e.startsWith(cognito.endpoint) || /status of 400/.test(e);
  return [
    ...seen.consoleErrors.filter((e) => !expected(e)),
    ...seen.pageErrors,
    ...seen.failedRequests.filter((r) => r.startsWith(server.url)),
  ];
}

const MONTHS = [
  "January",
  "February",
  "March",
  "April",
  "May",
  "June",
  "July",
  "August",
  "September",
  "October",
  "November",
  "December",
];
/** "2026-12-27" → "27 December 2026", as the site writes dates. */
const long = (iso: string) => {
  const [y, m, d] = iso.split("-").map(Number);
  return `${d} ${MONTHS[m! - 1]} ${y}`;
};
/** The same day n months on, or the month's last day (the schedule's rule). */
function monthsOn(iso: string, n: number): string {
  const [y, m, d] = iso.split("-").map(Number) as [number, number, number];
  const last = new Date(Date.UTC(y, m - 1 + n + 1, 0)).getUTCDate();
  return new Date(Date.UTC(y, m - 1 + n, Math.min(d, last))).toISOString().slice(0, 10);
}

async function signUp(page: Page): Promise<void> {
  await signUpOnAccountPage(page, server.url, { email: EMAIL, password: PASSWORD, code: cognito.code });
}

describe("a donor's zakat instalments, from the zakat page to the account (390×844)", () => {
  it("gives 12 monthly instalments, sees 1 of 12, pauses and resumes it before it starts, cancels; the receipt agrees with the zakat page", async () => {
    const context = await isolatedContext(browser, { viewport: { width: 390, height: 844 } });
    await site.route(context);
    await stripeThroughApiHost(context, service.stripe.url);
    const page = await context.newPage();
    const seen = watchProblems(page);
    await signUp(page);

    // The zakat page says whether zakat is tax-deductible; the receipt must say the same.
    await page.goto(`${server.url}/pay/zakat/`);
    await page.waitForSelector('[data-island="donation"][data-hydrated]');
    const payPage = await page.locator("main").innerText();
    expect(payPage).toContain("Zakat payments are not tax-deductible.");
    await page.getByLabel("In monthly instalments").check();
    await page.getByLabel("Amount (AUD)").fill("1200");
    await page.getByLabel("Split into").selectOption({ label: "12 monthly payments" });
    await page.getByLabel("First name").fill("Maryam");
    await page.getByLabel("Last name").fill("Haddad");
    await expect.poll(() => page.getByLabel("E-mail address", { exact: true }).inputValue()).toBe(EMAIL);
    await page.getByLabel("Phone number").fill("0412 345 678");
    await page.getByLabel("Street address").fill("3 Wattle Street");
    await page.getByLabel("Suburb or town").fill("Auburn");
    await page.getByLabel("State or territory").selectOption("NSW");
    await page.getByLabel("Postcode").fill("2144");
    await page.getByRole("button", { name: "Continue to payment" }).click();
    await page.getByLabel("Card number").fill("4242 4242 4242 4242");
    await page.getByLabel("Expiry (MM / YY)").fill("12 / 30");
    await page.getByLabel("Security code").fill("123");
    await page.getByRole("button", { name: /^(Give|Save card)/ }).click();
    await page.waitForURL(/\/pay\/thank-you\//);
    const reference = (await page.locator(".thanks-reference strong").textContent())!;
    // The thank-you page sends the donor to the plan, not to the phone.
    const manage = page.getByRole("link", { name: "Regular gifts on your account page" });
    expect(await manage.getAttribute("href")).toBe("/account/#regular-gifts");

    // The account: the form sent the donor's access token, so the plan is the account's already,
    // shown once the Stripe stand-in's signed webhook made the first payment paid.
    await page.goto(`${server.url}/account/`);
    await expectStep(page, "Your account", { focused: false });
    const plan = page.locator(".account-gift");
    await expect.poll(() => plan.count(), { timeout: 15_000 }).toBe(1);

    const today = todayIn("Australia/Sydney");
    const text = await plan.innerText();
    expect(text).toMatch(/Zakat: \$100(\.00)? a month/);
    expect(text).toMatch(/Monthly instalments, 12 payments \(\$1,200(\.00)? in all\)/);
    expect(text).toContain("1 of 12 paid");
    expect(text).toMatch(new RegExp(`Next charge\\s+${long(monthsOn(today, 1))}`));
    expect(text).toMatch(new RegExp(`Ends\\s+${long(monthsOn(today, 11))}`));
    expect(text).toContain(reference);
    const row = await page.locator(".account-donation").innerText();
    expect(row).toContain("Monthly instalments: Payment 1 of 12");
    expect(row).toContain("Paid");
    await expectAxeClean(page, "plan 1 of 12");
    await page.screenshot({ path: join(SHOTS, "account-plan-390.png"), fullPage: true });

    // The receipt says what the zakat page says.
    await pressButton(page, `View receipt ${reference}`);
    const receipt = await page.locator(".account-document").innerText();
    expect(receipt).toContain("Gifts to Zakat are not tax-deductible, so this receipt is for your records only.");
    expect(receipt).not.toMatch(/This gift is listed as tax-deductible/);
    await expectAxeClean(page, "zakat receipt");
    await pressButton(page, "Back to your account");

    // Change card, asked first: Stripe's card form in the account page; the new card is the
    // plan's once Stripe's signed webhook says it was saved (read back from our row and Stripe).
    const status = plan.locator("[role=status]");
    const donationRow = () =>
      service.db
        .selectFrom("donations")
        .select(["stripe_payment_method_id", "stripe_schedule_id"])
        .where("reference", "=", reference)
        .executeTakeFirstOrThrow();
    const before = await donationRow();
    // The card it is charged to, as Stripe described it.
    expect(await plan.innerText()).toMatch(/Paid with\s+Visa ending 4242, expires 12\/\d{4}/);
    await pressButton(page, "Change card");
    await expect
      .poll(() => plan.locator(".account-confirm p").first().textContent())
      .toMatch(/^Change the card for your instalment plan to Zakat\? You enter the new card here/);
    await pressButton(page, "Enter a new card");
    await plan.getByLabel("Card number").fill("5555 5555 5555 4444");
    await plan.getByLabel("Expiry (MM / YY)").fill("11 / 31");
    await plan.getByLabel("Security code").fill("321");
    await expectAxeClean(page, "card form");
    await pressButton(page, "Save this card");
    await expect
      .poll(() => status.textContent())
      .toBe("Your new card is saved. Your gift is charged to it from the next payment.");
    await service.stripe.settled();
    // The new card shows in the plan once Stripe's webhook made it the gift's (the stand-in's
    // cards all expire in December, whatever is typed).
    await expect.poll(() => plan.innerText()).toMatch(/Paid with\s+Mastercard ending 4444, expires 12\/\d{4}/);
    const after = await donationRow();
    expect(after.stripe_payment_method_id).toMatch(/^pm_/);
    expect(after.stripe_payment_method_id).not.toBe(before.stripe_payment_method_id);
    const schedule = await fetch(`${service.stripe.url}/v1/subscription_schedules/${after.stripe_schedule_id}`, {
      headers: { authorization: `Bearer ${TEST_SECRET_KEY}` },
    }).then((r) => r.json() as Promise<{ default_settings: { default_payment_method: string } }>);
    expect(schedule.default_settings.default_payment_method).toBe(after.stripe_payment_method_id);

    // Skip the next payment, asked first: the dates move a month on, shown in the plan.
    await pressButton(page, "Skip next payment");
    await expect
      .poll(() => plan.locator(".account-confirm p").first().textContent())
      .toBe(
        `Skip the payment of ${long(monthsOn(today, 1))}? Nothing is charged then. The payment after it is on ${long(monthsOn(monthsOn(today, 1), 1))}, and the last on ${long(monthsOn(monthsOn(today, 11), 1))}.`,
      );
    await pressButton(page, "Yes, skip this payment");
    await expect.poll(() => status.textContent()).toMatch(/^The payment of .+ is skipped: nothing is charged then\./);
    // Each date still to come a month on (the same day, or the month's last).
    expect(await plan.innerText()).toMatch(new RegExp(`Next charge\\s+${long(monthsOn(monthsOn(today, 1), 1))}`));
    expect(await plan.innerText()).toMatch(new RegExp(`Ends\\s+${long(monthsOn(monthsOn(today, 11), 1))}`));
    await expectAxeClean(page, "payment skipped");

    // Pause, asked first: before its Stripe schedule starts, the schedule is cancelled and nothing
    // is charged until it is resumed; the plan says so.
    const next = long(monthsOn(monthsOn(today, 1), 1));
    const ends = long(monthsOn(monthsOn(today, 11), 1));
    await pressButton(page, "Pause");
    await expect
      .poll(() => plan.locator(".account-confirm p").first().textContent())
      .toMatch(/^Pause your instalment plan to Zakat\?/);
    await expectAxeClean(page, "pause question");
    await pressButton(page, "Yes, pause this gift");
    await expect
      .poll(() => status.textContent())
      .toBe("Your Zakat instalment plan is paused. Nothing more will be charged until you resume it.");
    expect(await plan.innerText()).toMatch(/Next charge\s+None/);
    await expectAxeClean(page, "plan paused");
    // Resume, asked first: a new schedule for the 11 payments left, from the next billing day: the
    // dates it had.
    await pressButton(page, "Resume");
    await pressButton(page, "Yes, resume this gift");
    await expect.poll(() => status.textContent()).toBe("Your Zakat instalment plan is active again.");
    expect(await plan.innerText()).toMatch(new RegExp(`Next charge\\s+${next}`));
    expect(await plan.innerText()).toMatch(new RegExp(`Ends\\s+${ends}`));
    expect(await plan.innerText()).toContain("1 of 12 paid");

    // Cancel, asked first; the plan stays listed, cancelled, with no buttons.
    await pressButton(page, "Cancel gift");
    await expect
      .poll(() => plan.locator(".account-confirm p").first().textContent())
      .toMatch(/^Cancel your instalment plan to Zakat for good\?/);
    await pressButton(page, "Yes, cancel this gift");
    await expect.poll(() => plan.innerText()).toContain("Cancelled");
    expect(await plan.locator("button").count()).toBe(0);
    await expectAxeClean(page, "plan cancelled");

    // The tax summary fits a 320 px screen (zakat is not deductible, so it lists no receipt here;
    // account-giving.test.ts checks the receipt cards at 320 px).
    await page.setViewportSize({ width: 320, height: 700 });
    await pressButton(page, "Open the printable summary");
    await page.locator(".account-document").waitFor();
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    await expectAxeClean(page, "tax summary at 320 px");
    await page.screenshot({ path: join(SHOTS, "account-summary-320.png"), fullPage: true });

    expect(ownProblems(seen)).toEqual([]);
    await context.close();
  }, 180_000);
});
