/**
 * The pay page's promises, kept, from the donor's side (issue 39): in Chromium at 390×844 a donor
 * gives $10 every Friday on a Thursday; the page shows the dates it will charge. The service's clock
 * then moves day by day through three Fridays, its job running twice a day as the timer would: each
 * date the page showed is charged once, and each charge's receipt, issued from Stripe's signed
 * webhook (never the browser), reaches the SMTP catcher; one opened there in Chromium reads at 390 px
 * with the amount and the date the page promised. Then the donor signs in to /account/ (the account
 * API at the service's /graphql, tokens from cognito-local, as in account-*.test.ts), adds the gift
 * given with their e-mail, and finds the three charges in the history with the receipts the e-mails
 * carried, and the plan under "Regular gifts" with its next Friday; axe-core clean at 390×844.
 * And a zakat gift's receipt e-mail, opened at 390 px, says about deductibility what the zakat pay
 * page says under its form (receipt-email.test.ts checks the e-mail's layout with a long name).
 */
import { randomUUID } from "node:crypto";
import type { Browser, BrowserContext } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runScheduledCharges } from "../../src/api/jobs/scheduled-charges.js";
import { receiptsOf } from "../../src/api/receipts/issue.js";
import { expectAxeClean, expectStep, pressButton, typeInto } from "../support/account-page.js";
import { axeViolations, formatViolations } from "../support/axe.js";
import { isolatedContext, watchProblems } from "../support/browser.js";
import { type CognitoLocal, joinCognitoLocal, runCognito } from "../support/cognito-local.js";
import { fillDonor } from "../support/donation-request.js";
import { startMailingService, type MailingService } from "../support/mailing-service.js";
import { type SiteWithService, startSiteWithService } from "../support/site-with-service.js";

// Thursday 3 December 2026, noon in Sydney.
const THURSDAY = new Date("2026-12-03T01:00:00Z");
const DAY = 86_400_000;
// Unique in the run's shared pool (other files make their own users there).
const EMAIL = `yusuf-${randomUUID().slice(0, 8)}@example.com`;
const PASSWORD = "a long jumuah phrase";
let cognito: CognitoLocal & { bridge: string };
let mailing: MailingService;
let web: SiteWithService;
let site: { url: string };
let browser: Browser;
let context: BrowserContext;

beforeAll(async () => {
  // The run's pool, behind this file's own bridge; the run's shared account build names it.
  const run = runCognito();
  if (!run) throw new Error("promised-dates needs the run's cognito-local (NZF_TEST_COGNITO, global-setup.ts)");
  cognito = await joinCognitoLocal(run);
  // The account API at the service's /graphql, from the pool's settings, on the service's clock.
  mailing = await startMailingService({
    start: THURSDAY,
    env: {
      NZF_COGNITO_USER_POOL_ID: cognito.userPoolId,
      NZF_COGNITO_CLIENT_ID: cognito.clientId,
      NZF_COGNITO_ENDPOINT: cognito.endpoint,
    },
  });
  web = await startSiteWithService(mailing.service, { timezoneId: "Australia/Sydney", sharedAuth: cognito });
  ({ site, browser, context } = web);
  // The donor's account, made through the pool's own calls (signing up in the page is account.test.ts's).
  await cognito.call("SignUp", {
    ClientId: cognito.clientId,
    Username: EMAIL,
    Password: PASSWORD,
    UserAttributes: [{ Name: "email", Value: EMAIL }],
  });
  await cognito.call("ConfirmSignUp", { ClientId: cognito.clientId, Username: EMAIL, ConfirmationCode: cognito.code });
}, 180_000);
afterAll(async () => {
  await web?.stop();
  await mailing?.stop();
  await cognito?.stop();
});

describe("every Friday, as the page promised", { timeout: 240_000 }, () => {
  it("$10 from a Thursday: the three Fridays shown are charged once each, each with its receipt e-mail", async () => {
    const page = await context.newPage();
    const seen = watchProblems(page);
    await page.clock.setFixedTime(THURSDAY);
    await page.goto(`${site.url}/pay/jumuah-giving/`);
    await page.getByLabel("Amount (AUD)").fill("10");
    await page.getByLabel("Every Friday").check();
    await fillDonor(page, { firstName: "Yusuf", lastName: "Ali", email: EMAIL, phone: "0412 345 678" });
    // What the page promises: the first three Fridays, and on until cancelled.
    const promised = page.locator(".donation-form form .don-dates li");
    await expect
      .poll(() => promised.allTextContents())
      .toEqual(["Fri, 4 Dec 2026", "Fri, 11 Dec 2026", "Fri, 18 Dec 2026", expect.any(String)]);
    // The days as the service names them (YYYY-MM-DD), read from what the page said.
    const shown = (await promised.allTextContents())
      .slice(0, 3)
      .map((text) => new Date(`${text.replace(/^\w+, /, "")} UTC`).toISOString().slice(0, 10));

    await page.getByRole("button", { name: "Continue to payment" }).click();
    await page.getByLabel("Card number").fill("4242 4242 4242 4242");
    await page.getByLabel("Expiry (MM / YY)").fill("12 / 30");
    await page.getByLabel("Security code").fill("123");
    await page.locator(".don-pay .don-actions button.button").click();
    await page.waitForURL(/\/pay\/thank-you\/\?donation=don_[0-9a-f]+&setup_intent=seti_/);
    const donationId = new URL(page.url()).searchParams.get("donation")!;
    await mailing.service.stripe.settled();
    expect(await receiptsOf(mailing.service.db, donationId)).toEqual([]); // nothing charged on the Thursday

    // The service's days: Thursday 3 to Saturday 19 December, the job twice each day.
    for (let t = THURSDAY.getTime(); t <= Date.parse("2026-12-19T01:00:00Z"); t += DAY) {
      mailing.setNow(new Date(t));
      await runScheduledCharges(mailing.service.deps);
      await runScheduledCharges(mailing.service.deps);
      await mailing.service.stripe.settled();
    }
    const charged = await mailing.service.db
      .withTables<{ scheduled_charges: { donation_id: string; charge_date: string; status: string } }>()
      .selectFrom("scheduled_charges")
      .select(["charge_date", "status"])
      .where("donation_id", "=", donationId)
      .orderBy("charge_date")
      .execute();
    expect(charged).toEqual(shown.map((date) => ({ charge_date: date, status: "succeeded" })));
    // Paid by Stripe's signed events, one per charge, each accepted by the service.
    const succeeded = mailing.service.stripe.deliveries().filter((d) => d.type === "payment_intent.succeeded");
    expect(succeeded.map((d) => d.status)).toEqual([200, 200, 200]);
    const receipts = await receiptsOf(mailing.service.db, donationId);
    expect(receipts.map((r) => [r.number, r.body.amountCents])).toEqual([
      ["2026-27/000001", 1_000],
      ["2026-27/000002", 1_000],
      ["2026-27/000003", 1_000],
    ]);
    // Each receipt e-mailed once, from the webhook's issue: three in the catcher.
    await mailing.catcher.waitFor(() => mailing.catcher.messages().length >= 3);
    const mails = mailing.catcher.messages().filter((m) => m.to === EMAIL);
    expect(mails.map((m) => m.subject)).toEqual([
      "Your receipt 2026-27/000001 for your gift",
      "Your receipt 2026-27/000002 for your gift",
      "Your receipt 2026-27/000003 for your gift",
    ]);
    // The dates on the receipts are the dates the page promised.
    const written = (iso: string) =>
      new Date(`${iso}T00:00:00Z`).toLocaleDateString("en-AU", {
        day: "numeric",
        month: "long",
        year: "numeric",
        timeZone: "UTC",
      });
    for (const [i, mail] of mails.entries()) expect(mail.text).toContain(written(shown[i]!));
    expect([...seen.consoleErrors, ...seen.pageErrors]).toEqual([]);
    await page.close();

    // The first receipt as the donor opens it: readable at 390 px, the amount and the promised date.
    const reader = await isolatedContext(browser, { viewport: { width: 390, height: 844 }, bypassCSP: true });
    try {
      const mailPage = await reader.newPage();
      expect((await mailPage.goto(`${mailing.catcher.url}messages/${mails[0]!.id}.html`))?.status()).toBe(200);
      await expect.poll(() => mailPage.getByRole("heading", { level: 1 }).textContent()).toBe("Receipt for your gift");
      expect(await mailPage.getByRole("row", { name: /^Amount/ }).textContent()).toContain("$10.00");
      expect(await mailPage.locator("main").textContent()).toContain(written(shown[0]!));
      const widths = await mailPage.evaluate(() => ({
        scroll: document.documentElement.scrollWidth,
        client: document.documentElement.clientWidth,
      }));
      expect(widths.scroll).toBeLessThanOrEqual(widths.client);
    } finally {
      await reader.close();
    }

    // The donor's account on 19 December. The pay page ran on a browser clock fixed at the Thursday,
    // where the pool's tokens (issued on the real clock) would read as expired, so the gift was given
    // signed out; the account offers it by the verified e-mail, and the donor adds it.
    const own = await isolatedContext(browser, { viewport: { width: 390, height: 844 } });
    await web.route(own);
    own.setDefaultTimeout(15_000);
    try {
      const accountPage = await own.newPage();
      const problems = watchProblems(accountPage);
      await accountPage.goto(`${site.url}/account/`);
      await accountPage.waitForSelector('[data-island="account"][data-hydrated="true"]');
      await expectStep(accountPage, "Sign in", { focused: false });
      await typeInto(accountPage, "E-mail address", EMAIL);
      await typeInto(accountPage, "Password", PASSWORD);
      await pressButton(accountPage, "Sign in");
      await expectStep(accountPage, "Your account");
      await pressButton(accountPage, "Add 1 gift to my account");
      await expect
        .poll(() => accountPage.locator(".account-offer [role=status]").textContent(), { timeout: 15_000 })
        .toBe(`1 gift given with ${EMAIL} is now in your account.`);

      // The history: the three charges, newest first, each paid, on the date the page promised, $10.
      const donations = accountPage.locator(".account-donation");
      await expect.poll(() => donations.count(), { timeout: 15_000 }).toBe(3);
      const rows = await donations.allInnerTexts();
      for (const [i, row] of rows.entries()) {
        const date = shown[2 - i]!;
        expect(row).toMatch(/Fund\s+Jumu/);
        expect(row).toMatch(/Amount\s+\$10\.00/);
        expect(row).toMatch(new RegExp(`Date\\s+${written(date)}`));
        expect(row).toMatch(/Schedule\s+Every Friday/);
        expect(row).toMatch(/Status\s+Paid/);
      }
      await expectAxeClean(accountPage, "three Fridays in the history");
      // Each charge's receipt is the one its e-mail carried: number, date and amount.
      for (const [i, row] of rows.entries()) {
        const reference = /Reference\s+(\S+)/.exec(row)![1]!;
        await pressButton(accountPage, `View receipt ${reference}`);
        const receipt = await accountPage.locator(".account-document").innerText();
        expect(receipt).toMatch(new RegExp(`Receipt number\\s+${receipts[2 - i]!.number}`));
        expect(receipt).toContain(written(shown[2 - i]!));
        expect(receipt).toContain("$10.00");
        await pressButton(accountPage, "Back to your account");
        await expectStep(accountPage, "Your account", { focused: false });
      }

      // The plan under "Regular gifts": every Friday, three paid, the next on Friday 25 December.
      const gift = accountPage.locator(".account-gift");
      await expect.poll(() => gift.count(), { timeout: 15_000 }).toBe(1);
      const plan = await gift.innerText();
      expect(plan).toMatch(/: \$10\.00 a week/);
      expect(plan).toMatch(/Status\s+Active/);
      expect(plan).toMatch(/Schedule\s+Every Friday/);
      expect(plan).toMatch(/Payments\s+3 paid so far/);
      expect(plan).toMatch(/Next charge\s+25 December 2026/);
      await expectAxeClean(accountPage, "the plan under Regular gifts");
      const expected = (e: string) => e.startsWith(cognito.endpoint) || /status of 400/.test(e);
      expect([...problems.consoleErrors.filter((e) => !expected(e)), ...problems.pageErrors]).toEqual([]);
    } finally {
      await own.close();
    }
  });

  it("a zakat gift's receipt e-mail, opened at 390 px, says about deductibility what the pay page says", async () => {
    mailing.setNow(THURSDAY);
    const donor = { firstName: "Maryam", lastName: "Hassan", email: "maryam@example.com", phone: "0412 345 678" };
    const page = await context.newPage();
    const seen = watchProblems(page);
    await page.goto(`${site.url}/pay/zakat/`);
    // What the pay page says under the form, from the fund's one setting.
    const paySays = (await page.locator(".don-tax").first().textContent())?.trim() ?? "";
    expect(paySays).toMatch(/tax-deductible/);
    await page.getByLabel("Amount (AUD)").fill("457.50");
    await fillDonor(page, donor);
    await page.getByRole("button", { name: "Continue to payment" }).click();
    await page.getByLabel("Card number").fill("4242 4242 4242 4242");
    await page.getByLabel("Expiry (MM / YY)").fill("12 / 30");
    await page.getByLabel("Security code").fill("123");
    await page.locator(".don-pay .don-actions button.button").click();
    await page.waitForURL(/\/pay\/thank-you\/\?donation=don_[0-9a-f]+/);
    await mailing.service.stripe.settled();
    expect([...seen.consoleErrors, ...seen.pageErrors]).toEqual([]);
    await page.close();

    // The receipt the signed webhook issued, as the donor's mail program shows it.
    const mail = await mailing.catcher.waitFor((m) => m.to === donor.email && m.subject.startsWith("Your receipt"));
    const reader = await isolatedContext(browser, { viewport: { width: 390, height: 844 }, bypassCSP: true });
    try {
      const mailPage = await reader.newPage();
      expect((await mailPage.goto(`${mailing.catcher.url}messages/${mail.id}.html`))?.status()).toBe(200);
      await expect.poll(() => mailPage.getByRole("heading", { level: 1 }).textContent()).toBe("Receipt for your gift");
      const widths = await mailPage.evaluate(() => ({
        scroll: document.documentElement.scrollWidth,
        client: document.documentElement.clientWidth,
        font: getComputedStyle(document.querySelector("main")!).fontSize,
      }));
      expect(widths.scroll, "no sideways scrolling at 390 px").toBeLessThanOrEqual(widths.client);
      expect(Number.parseFloat(widths.font)).toBeGreaterThanOrEqual(16);
      expect(await mailPage.getByRole("row", { name: /^Amount/ }).textContent()).toContain("$457.50");
      const says = (await mailPage.getByText(/tax-deductible/).textContent()) ?? "";
      // Both say the same thing: zakat is not deductible, so the receipt is for the donor's records.
      const notDeductible = (text: string) => /\bnot tax-deductible\b/.test(text);
      expect(notDeductible(says)).toBe(true);
      expect(notDeductible(paySays)).toBe(notDeductible(says));
      expect(says).toMatch(/records/);
      expect(paySays).toMatch(/records/);
      const violations = await axeViolations(mailPage);
      expect(violations, formatViolations(mailPage.url(), violations)).toEqual([]);
    } finally {
      await reader.close();
    }
  });
});
