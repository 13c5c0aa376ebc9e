/**
 * One-off gifts by card in real Chromium, fund by fund, and the thank-you page's cases, in English
 * and in Arabic: the donor's pages on the run's shared payments build, the
 * file's own payments service (test/support/donation-site.ts). Schedules are in
 * donation-schedules.test.ts, failures and recovery in donation-recovery.test.ts.
 */
import { describe, expect, it } from "vitest";
import { mkdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { DONATION_BUDGET_GZIP, measureDonationJs } from "../../bench/donation.js";
import { ISLAND_PAGE_BUDGET_GZIP, measurePageJs } from "../../bench/page-js.js";
import { axeViolations, formatViolations } from "../support/axe.js";
import { isolatedContext, watchProblems } from "../support/browser.js";
import { donationRequest, fillDonor } from "../support/donation-request.js";
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

describe("a one-off gift by card, fund by fund", { timeout: 60_000 }, () => {
  it("a one-off zakat amount carried from the calculator is paid and the thank-you page shows the reference", async () => {
    const before = donation.stripe.requests;
    const { page, seen } = await donation.open("/pay/zakat/?amount=1234.56");
    await expect.poll(() => page.getByLabel("Amount (AUD)").inputValue()).toBe("1234.56");
    await fillDonor(page);
    // Stripe.js is not loaded before the donor proceeds.
    expect(donation.stripe.requests).toBe(before);
    // This build has no PayPal client ID: no word of PayPal, no choice of how to pay.
    expect(await page.locator("main").innerText()).not.toContain("PayPal");
    expect(await page.getByText("How to pay").count()).toBe(0);
    await page.getByRole("button", { name: "Continue to payment" }).click();
    await cardStep(page);
    expect(donation.stripe.requests).toBe(before + 1);
    await expect(page.getByRole("button", { name: "Give $1,234.56" }).isVisible()).resolves.toBe(true);
    await payWithCard(page);
    const reference = await expectThankYou(page);
    const body = await page.locator("main").textContent();
    expect(body).toContain("$1,234.56");
    expect(body).toContain("Your gift is received.");
    const created = donation.posts().at(-1)!;
    expect(created.status).toBe(201);
    const state = await (
      await fetch(`${donation.api.url}/donations/${new URL(page.url()).searchParams.get("donation")}`)
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

  it("Zakat al-Fitr for five people: 5 × $15 = $75", async () => {
    const { page, seen } = await donation.open("/pay/fitr/");
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
    expect(await (await fetch(`${donation.api.url}/donations/${id}`)).json()).toMatchObject({
      fund: "fitr",
      amountCents: 7500,
    });
    noProblems(seen);
    await page.close();
  });

  it("qurban by keyboard: two lambs at the page's $450, paid at the API's price, reach the thank-you page", async () => {
    // The island names the option by its content code; without it the API cannot price the gift.
    const html = await (await fetch(donation.site.url + "/pay/qurban/")).text();
    expect(
      html.includes('"code":"lamb-australia"'),
      "templates/pages/donation.tsx must pass animal_options[].code to the donation island",
    ).toBe(true);
    const { page, seen } = await donation.open("/pay/qurban/");
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
    await cardStep(page);
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
    const created = donation.posts().at(-1)!;
    expect(created.status).toBe(201);
    const id = new URL(page.url()).searchParams.get("donation");
    expect(created.donationId).toBe(id);
    expect(await (await fetch(`${donation.api.url}/donations/${id}`)).json()).toMatchObject({
      reference,
      fund: "qurban",
      amountCents: 90000,
      totalCents: 90000,
      status: "succeeded",
    });
    noProblems(seen);
    await page.close();
  });

  it("390×844 qurban: each animal's label sits beside its radio button, a long one wrapping there", async () => {
    const page = await donation.context.newPage();
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(donation.site.url + "/pay/qurban/");
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

  it("on /pay the donor chooses the fund; the form switches to its options", async () => {
    const { page, seen } = await donation.open("/pay/");
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

  it("on /pay/, choosing another fund keeps the amount the donor typed, and the default otherwise", async () => {
    const { page } = await donation.open("/pay/");
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
    const { page } = await donation.open("/pay/tainted-wealth/?amount=120");
    await fillDonor(page);
    await page.getByRole("button", { name: "Continue to payment" }).click();
    await cardStep(page);
    await payWithCard(page);
    await expectThankYou(page);
    const text = await page.locator("main").innerText();
    expect(text).toContain("purified");
    expect(text).not.toMatch(/reward|sadaqah/i);
    await page.close();
  });

  it("the dedication counts its characters as the donor nears the limit, and says when it is over", async () => {
    const { page, seen } = await donation.open("/pay/sadaqah/");
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

  it("ships the form's own code under 15 KB gzip on top of React, with Stripe's loader deferred", async () => {
    const size = await measureDonationJs(donation.built.outDir);
    expect(size.formGzip).toBeGreaterThan(1_000);
    expect(size.formGzip).toBeLessThanOrEqual(DONATION_BUDGET_GZIP);
    expect(size.files.some((f) => f.role === "deferred")).toBe(true);
    // The checks arrive on the donor's first use of the form (src/client/donation/validator.ts).
    const upFront = size.files.filter((f) => f.role !== "deferred").map((f) => f.url);
    const validation = size.files.filter((f) => f.role === "deferred").map((f) => f.url);
    const code = async (url: string) => readFile(join(donation.built.outDir, url), "utf8");
    const hasChecks = async (url: string) => (await code(url)).includes("Check the comma: put cents after");
    expect(await Promise.all(upFront.map(hasChecks))).not.toContain(true);
    expect(await Promise.all(validation.map(hasChecks))).toContain(true);
    // The whole page, React with it, within the budget of every island page.
    expect((await measurePageJs(donation.built.outDir, "pay/zakat/index.html")).totalGzip).toBeLessThanOrEqual(
      ISLAND_PAGE_BUDGET_GZIP,
    );
  });
});

describe("the thank-you page without a confirmed gift", { timeout: 90_000 }, () => {
  it("the thank-you page opened directly claims no gift and no receipt, and links to give", async () => {
    const page = await donation.context.newPage();
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(donation.site.url + "/pay/thank-you/");
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
      const created = await fetch(`${donation.api.url}/donations`, {
        method: "POST",
        headers: { "content-type": "application/json", "idempotency-key": crypto.randomUUID() },
        body: JSON.stringify(donationRequest()),
      }).then((r) => r.json() as Promise<{ donationId: string; reference: string; clientSecret: string }>);
      const page = await donation.context.newPage();
      await page.setViewportSize({ width: 390, height: 844 });
      await page.goto(
        `${donation.site.url}${path}?donation=${created.donationId}&payment_intent=pi_late&redirect_status=succeeded`,
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
      await donation.confirmWithStripe(created.clientSecret);
      await page.getByRole("button", { name: path.startsWith("/ar-ae/") ? "تحقق مرة أخرى" : "Check again" }).click();
      await page.locator(".thanks-reference strong").filter({ hasText: created.reference }).waitFor();
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
      const page = await donation.context.newPage();
      await page.setViewportSize(viewport);
      const seen = watchProblems(page);
      await page.goto(donation.site.url + "/ar-ae/pay/zakat/?amount=1250");
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
      await cardStep(page);
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

  it("at 320 px the Arabic form and its messages fit without sideways scrolling", async () => {
    // A context of its own: the journeys before it leave a donor's details in storage, which the
    // form restores, and then there would be no messages to measure.
    // A donor whose own date is not Sydney's (UTC at 20:00, Sydney's next morning): the form, once
    // hydrated by the tap on Continue, shows Sydney's date in full, three lines at 320 px. That
    // must not move the button before the tap is released (it did, and the tap was lost).
    const own = await isolatedContext(donation.browser, { viewport: { width: 320, height: 640 }, timezoneId: "UTC" });
    const page = await own.newPage();
    await page.clock.setFixedTime(new Date("2026-11-27T20:00:00Z"));
    await page.goto(donation.site.url + "/ar-ae/pay/zakat/");
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
