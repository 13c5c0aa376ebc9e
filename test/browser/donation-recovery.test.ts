/**
 * What goes wrong on the way to paying, in real Chromium, and how the donor recovers: bad input,
 * the payments API failing or slow, a reload or Back at the card step, Stripe.js not loading, a
 * double click, a declined card, a first input before the form has hydrated. Nothing typed is lost
 * and no gift is made twice (every write is keyed). On the run's shared payments build and the file's own payments service
 * (test/support/donation-site.ts).
 */
import { describe, expect, it } from "vitest";
import { axeViolations, formatViolations } from "../support/axe.js";
import { isolatedContext, watchProblems } from "../support/browser.js";
import { fillDonor } from "../support/donation-request.js";
import {
  cardStep,
  donationSiteForThisFile,
  expectThankYou,
  noProblems,
  payWithCard,
} from "../support/donation-site.js";

/** The payments client's own time limit (src/payments/client-limits.ts), as published. */
const TIMEOUT_MS = 15_000;

const donation = donationSiteForThisFile();

describe("failures and recovery: nothing lost, nothing charged twice", { timeout: 60_000 }, () => {
  it("every bad input gets its message beside the field, keeps the form, and sends nothing; axe-core finds no violation with errors showing", async () => {
    const { page, seen } = await donation.open("/pay/zakat/");
    const sent = donation.posts().length;
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
    // The messages come once the validation code has arrived: it starts loading at the donor's
    // first step into the form (src/client/donation/validator.ts), and on a loaded machine it was
    // not there yet when the click returned.
    await expect.poll(() => errorOf("Amount (AUD)")).toEqual({ invalid: "true", text: "Enter an amount." });
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
      await expect.poll(async () => (await errorOf("Amount (AUD)")).text, { message: typed }).toBe(message);
      expect(await amount.inputValue()).toBe(typed);
    }
    expect((await errorOf("E-mail address")).text).toBe("Enter an e-mail address, like name@example.com.");
    expect(await page.getByLabel("First name").inputValue()).toBe("Aisha");
    // A started address must be complete enough to post a receipt to.
    await page.getByLabel("Postcode").fill("20000");
    await page.getByRole("button", { name: "Continue to payment" }).click();
    await expect.poll(async () => (await errorOf("Postcode")).text).toBe("Enter a 4-digit postcode.");
    expect((await errorOf("Street address")).text).toBe("Enter the street address.");
    expect(donation.posts().length).toBe(sent);

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
    const { page, seen } = await donation.open("/pay/sadaqah/");
    await fillDonor(page);
    donation.api.injectFault({ status: 500, path: "/donations" });
    const sent = donation.posts().length;
    await page.getByRole("button", { name: "Continue to payment" }).click();
    const alert = page.locator(".don-alert");
    await expect.poll(() => alert.textContent()).toContain("Something went wrong on our side. Nothing was charged.");
    expect(await page.getByLabel("Last name").inputValue()).toBe("Rahman");
    await page.getByRole("button", { name: "Try again" }).click();
    await cardStep(page);
    const attempts = donation.posts().slice(sent);
    expect(attempts.map((r) => r.status)).toEqual([500, 201]);
    expect(attempts[0]!.idempotencyKey).toBe(attempts[1]!.idempotencyKey);
    expect(await donation.api.donationCount()).toBeGreaterThan(0);
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
    const own = await donation.donorContext((method, path) => {
      if (method === "POST" && path === "/donations") posted();
    });
    await own.context.clock.install();
    const { page } = await donation.open("/pay/zakat/?amount=77", own.context);
    await fillDonor(page);
    const count = await donation.api.donationCount();
    const sent = donation.posts().length;
    // The service is still working on the gift when the page gives up on it.
    donation.api.injectFault({ delayMs: 3_000, path: "/donations" });
    await page.getByRole("button", { name: "Continue to payment" }).click();
    // The client starts its time limit before it sends the request (src/payments/client.ts).
    await asked;
    await page.clock.fastForward(TIMEOUT_MS);
    await expect
      .poll(() => page.locator(".don-alert").textContent(), { timeout: 10_000 })
      .toContain("took too long to answer. Nothing was charged.");
    // Let the slow request finish on the server, then try again with the same key. Finished means
    // answered (the log has its 201): its donation row is written before its payment intent and
    // its stored answer, and a retry in between carries on with that donation, not a replay.
    await expect.poll(() => donation.posts().length, { timeout: 10_000 }).toBe(sent + 1);
    expect(await donation.api.donationCount()).toBe(count + 1);
    await page.getByRole("button", { name: "Try again" }).click();
    await cardStep(page);
    const last = donation.posts().at(-1)!;
    expect(last).toMatchObject({ status: 201, replayed: true });
    expect(await donation.api.donationCount()).toBe(count + 1);
    await own.context.close();
  });

  it("a reload at the card step, then Continue with the same gift, gets the donation already made, not a second", async () => {
    const { page } = await donation.open("/pay/zakat/?amount=61");
    await fillDonor(page);
    const count = await donation.api.donationCount();
    await page.getByRole("button", { name: "Continue to payment" }).click();
    await cardStep(page);
    expect(await donation.api.donationCount()).toBe(count + 1);
    // The page hung, say: the donor reloads. What they typed is kept; Continue again.
    await page.reload();
    await page.waitForSelector('[data-island="donation"][data-hydrated="true"]');
    expect(await page.getByLabel("First name").inputValue()).toBe("Aisha");
    await page.getByRole("button", { name: "Continue to payment" }).click();
    await cardStep(page);
    expect(donation.posts().at(-1)).toMatchObject({ status: 201, replayed: true });
    expect(await donation.api.donationCount()).toBe(count + 1);
    // A changed gift updates the donation already made (PATCH /donations/{id}: the same id and
    // reference, the new amount), not a second one. (The dev server made a new donation here; the
    // service keeps one donation per gift, issue 37.)
    const made = donation.posts().at(-1)!.donationId!;
    await page.getByRole("button", { name: "Change my gift or details" }).click();
    await page.getByLabel("Amount (AUD)").fill("62");
    await page.getByRole("button", { name: "Continue to payment" }).click();
    await cardStep(page);
    expect(await donation.api.donationCount()).toBe(count + 1);
    expect(donation.api.requests.filter((r) => r.method === "PATCH").at(-1)).toMatchObject({
      path: `/donations/${made}`,
      status: 200,
    });
    expect(await (await fetch(`${donation.api.url}/donations/${made}`)).json()).toMatchObject({
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
      const page = await donation.context.newPage();
      await page.setViewportSize(viewport);
      // The donor came from the calculator: Back must not take them there from the card step.
      await page.goto(donation.site.url + "/calculate/", { waitUntil: "load" });
      await page.goto(donation.site.url + "/pay/zakat/?amount=63");
      // Watched on the giving page only: leaving a page may cut off its late third-party script.
      const seen = watchProblems(page);
      await page.waitForSelector('[data-island="donation"][data-hydrated]');
      await fillDonor(page);
      await page.getByRole("button", { name: "Continue to payment" }).click();
      await cardStep(page);
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
      await cardStep(page);
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

  it("390×844: a reload at the card step shows the form the donor was in, not the top of the page", async () => {
    const page = await donation.context.newPage();
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(donation.site.url + "/pay/zakat/?amount=64");
    await page.waitForSelector('[data-island="donation"][data-hydrated]');
    await fillDonor(page);
    await page.getByRole("button", { name: "Continue to payment" }).click();
    await cardStep(page);
    await page.reload();
    await page.waitForSelector('[data-island="donation"][data-hydrated="true"]');
    const heading = page.getByRole("heading", { name: "Give now" });
    await expect.poll(() => heading.evaluate((h) => Math.round(h.getBoundingClientRect().top))).toBeLessThan(844 / 4);
    expect(await heading.evaluate((h) => h.getBoundingClientRect().top)).toBeGreaterThanOrEqual(0);
    expect(await page.getByLabel("First name").inputValue()).toBe("Aisha");
    await page.close();
  });

  it("Stripe.js failing to load shows 'Failed to load Stripe.js', then loads on retry; a script without Stripe shows 'Stripe.js not available'", async () => {
    const { page } = await donation.open("/pay/zakat/?amount=20");
    await fillDonor(page);
    // @stripe/stripe-js tries twice before giving up.
    donation.stripe.failNextLoads(2);
    await page.getByRole("button", { name: "Continue to payment" }).click();
    await expect.poll(() => page.locator(".don-alert").textContent()).toContain("Failed to load Stripe.js");
    expect(await page.getByLabel("Amount (AUD)").inputValue()).toBe("20");
    donation.stripe.emptyNextLoads(2);
    await page.getByRole("button", { name: "Try again" }).click();
    await expect.poll(() => page.locator(".don-alert").textContent()).toContain("Stripe.js not available");
    await page.getByRole("button", { name: "Try again" }).click();
    await cardStep(page);
    await expect(page.getByRole("button", { name: "Give $20.00" }).isVisible()).resolves.toBe(true);
    await page.close();
  });

  it("a double click on Continue sends one request; a declined card can be retried on the same intent", async () => {
    const { page, seen } = await donation.open("/pay/zakat/?amount=40");
    await fillDonor(page);
    const sent = donation.posts().length;
    await page.getByRole("button", { name: "Continue to payment" }).dblclick();
    await cardStep(page);
    expect(donation.posts().length).toBe(sent + 1);
    await payWithCard(page, "4000 0000 0000 0002");
    await expect.poll(() => page.locator(".don-pay .don-alert").textContent()).toContain("Your card was declined.");
    await payWithCard(page);
    await expectThankYou(page);
    expect(donation.posts().length).toBe(sent + 1);
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
});

describe("the donor's first input, before and as the form hydrates, is not lost", { timeout: 60_000 }, () => {
  it("a donor who types and presses Enter before the island's code has arrived loses nothing and sends nothing", async () => {
    // A context of its own: the shared one's service worker, installed by earlier tests, would serve the code from its cache.
    const fresh = await isolatedContext(donation.browser);
    const page = await fresh.newPage();
    const seen = watchProblems(page);
    // Hold the island's code back at the network layer until the donor has typed.
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route(/\/_islands\/donation-[^/]+\.js$/, async (route) => {
      await held;
      await route.continue();
    });
    await page.goto(donation.site.url + "/pay/sadaqah/");
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
    const { page, seen } = await donation.open("/pay/sadaqah/");
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

  it("a first activation of Continue before the form has hydrated is not lost", async () => {
    const own = await isolatedContext(donation.browser, { viewport: { width: 390, height: 844 } });
    const page = await own.newPage();
    await page.goto(donation.site.url + "/pay/zakat/");
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
      const own = await isolatedContext(donation.browser, { viewport: size, timezoneId: "Australia/Sydney" });
      const page = await own.newPage();
      await page.goto(donation.site.url + path);
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
