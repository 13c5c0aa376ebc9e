/**
 * The proof from the donor's side: a $100 sadaqah gift at 390×844 in Chromium, against the real
 * payments service (src/api/) on PGlite with the Stripe API stand-in as Stripe. Stripe.js is
 * replaced at the network layer and confirms through the stand-in with the publishable key, as
 * real Stripe.js confirms through Stripe; the stand-in's signed `payment_intent.succeeded` webhook
 * is what makes the gift paid, and the thank-you page shows it with the reference.
 */
import type { BrowserContext } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { watchProblems } from "../support/browser.js";
import { fillDonor } from "../support/donation-request.js";
import { startTestPaymentsService, type TestPaymentsService } from "../support/payments-service.js";
import { type SiteWithService, startSiteWithService } from "../support/site-with-service.js";

let service: TestPaymentsService;
let web: SiteWithService;
let site: { url: string };
let context: BrowserContext;

// The run's shared sample build, its payments address sent on to this file's service
// (test/support/site-with-service.ts), Chromium at 390×844.
beforeAll(async () => {
  service = await startTestPaymentsService();
  web = await startSiteWithService(service);
  ({ site, context } = web);
}, 180_000);

afterAll(async () => {
  await web?.stop();
  await service?.stop();
});

describe("a gift through the payments service", { timeout: 90_000 }, () => {
  it("$100 sadaqah on a phone: the signed webhook makes it paid, and the thank-you page says so", async () => {
    const page = await context.newPage();
    const seen = watchProblems(page);
    await page.goto(`${site.url}/pay/sadaqah/?amount=100`);
    await page.waitForSelector('[data-island="donation"][data-hydrated]');
    await expect.poll(() => page.getByLabel("Amount (AUD)").inputValue()).toBe("100");
    await fillDonor(page);
    await page.getByRole("button", { name: "Continue to payment" }).click();
    await page.getByLabel("Card number").fill("4242 4242 4242 4242");
    await page.getByLabel("Expiry (MM / YY)").fill("12 / 30");
    await page.getByLabel("Security code").fill("123");
    await page.getByRole("button", { name: /^Give \$100/ }).click();
    await page.waitForURL(/\/pay\/thank-you\/\?donation=don_[0-9a-f]+&payment_intent=pi_/);
    const donationId = new URL(page.url()).searchParams.get("donation")!;

    // Paid only by the signed webhook: the stand-in delivers it, the service records it.
    await service.stripe.settled();
    const delivered = service.stripe.deliveries().filter((d) => d.type === "payment_intent.succeeded");
    expect(delivered.map((d) => d.status)).toContain(200);
    const row = await service.db
      .selectFrom("donations")
      .selectAll()
      .where("id", "=", donationId)
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({ status: "succeeded", fund: "sadaqah", amount_cents: 10_000, frequency: "once" });
    // If the page asked before the webhook came, it says it is confirming and offers to check again.
    const again = page.getByRole("button", { name: "Check again" });
    if (await again.isVisible()) await again.click();
    await expect.poll(() => page.locator(".thanks-lead").textContent()).toContain("Your gift is received.");
    expect(await page.locator(".thanks-reference strong").textContent()).toBe(row.reference);
    expect([...seen.consoleErrors, ...seen.pageErrors, ...seen.failedRequests]).toEqual([]);
    await page.close();
  });
});
