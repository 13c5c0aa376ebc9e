/**
 * Gifts on a schedule in real Chromium: monthly and weekly gifts, and the donor's whole journey
 * (pay → card → thank you) on a phone and a desktop with zakat in twelve instalments, on the run's
 * shared payments build and the file's own payments service (test/support/donation-site.ts).
 */
import { describe, expect, it } from "vitest";
import { mkdir } from "node:fs/promises";
import { instalmentSentence } from "../../src/client/donation/summary.js";
import { formatsFor } from "../../src/client/donation/format.js";
import { en as englishWords } from "../../src/client/donation/words/en.js";
import { planGift } from "../../src/payments/plan.js";
import { todayIn } from "../../src/payments/schedules.js";
import { axeViolations, formatViolations } from "../support/axe.js";
import { watchProblems } from "../support/browser.js";
import { fillDonor } from "../support/donation-request.js";
import {
  cardStep,
  donationSiteForThisFile,
  expectThankYou,
  JOURNEYS,
  noProblems,
  payWithCard,
  placeOf,
  tabTo,
} from "../support/donation-site.js";

const donation = donationSiteForThisFile();

/** "Today" as the form and the payments backend take it: Sydney's date. */
const sydneyToday = () => todayIn("Australia/Sydney");

describe("monthly and weekly gifts", { timeout: 60_000 }, () => {
  it("a monthly sadaqah shows the total and the dates before paying, with the fee covered", async () => {
    const { page, seen } = await donation.open("/pay/sadaqah/");
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
    const state = await (await fetch(`${donation.api.url}/donations/${id}`)).json();
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

  it("a donor gives with the keyboard alone, and axe-core finds no violation on the form, the card step and the thank-you page", async () => {
    const { page, seen } = await donation.open("/pay/jumuah-giving/");
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
    await cardStep(page);
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
});

describe("the donor's journey, pay → card → thank you, on a phone and a desktop", { timeout: 90_000 }, () => {
  for (const [name, viewport] of [
    ["phone", { width: 390, height: 844 }],
    ["desktop", { width: 1280, height: 800 }],
  ] as const) {
    it(`${name} ${viewport.width}×${viewport.height}: each step's heading is in view and focused, axe passes, zakat in 12 instalments that end`, async () => {
      await mkdir(JOURNEYS, { recursive: true });
      const page = await donation.context.newPage();
      await page.setViewportSize(viewport);
      const seen = watchProblems(page);
      const problems: string[] = [];
      const axe = async (where: string) => {
        const v = await axeViolations(page);
        if (v.length) problems.push(formatViolations(where, v));
      };
      // Arrive from another page, as a donor does, so Back has somewhere to go.
      await page.goto(donation.site.url + "/calculate/", { waitUntil: "networkidle" });
      await page.goto(donation.site.url + "/pay/zakat/");
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
      await cardStep(page);
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

      const request = donation.posts().at(-1)!;
      const created = await (await fetch(`${donation.api.url}/donations/${request.donationId}`)).json();
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
});
