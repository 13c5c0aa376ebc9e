/**
 * A later payment of a plan that Stripe bills and the bank declines shows in the donor's history as
 * failed (Stripe's signed invoice.payment_failed), once; paid later on the same invoice, that row
 * becomes paid, never a second one. The plan itself is not marked unpaid. Another donor sees none
 * of it. Stripe test clock; dates from 15 March 2026, noon in Sydney.
 */
import type Stripe from "stripe";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Account, Harness } from "../support/account-api-harness.js";
import { startHarnessOnClock, type TestClock } from "../support/stripe-test-clock.js";

let h: Harness;
let donor: Account;
let other: Account;
let stripe: Stripe;
let clock: TestClock;
let donationId: string;
let subscriptionId: string;

const history = async (token = donor.access) =>
  (
    (await h.gql("{ donations { chargeNumber date totalCents status receipt { number } } }", {}, token)).json.data
      .donations as { chargeNumber: number; date: string; totalCents: number; status: string; receipt: unknown }[]
  ).map((d) => [d.chargeNumber, d.date, d.totalCents, d.status, d.receipt === null ? "no receipt" : "receipt"]);

const moveTo = (date: string) => clock.moveTo(date);

beforeAll(async () => {
  ({ h, clock } = await startHarnessOnClock("2026-03-15T01:00:00Z"));
  stripe = h.stripeSdk;
  donor = await h.signUp("hafsa@example.com");
  other = await h.signUp("omar@example.com");
  // Stripe's test clock on the test's day before the subscription is made.
  h.service.stripe.setNow(clock.now());
  donationId = await h.donate({ fund: "sadaqah", amountCents: 2_500, frequency: "monthly" }, "succeeded", donor.access);
  const row = await h.service.db
    .selectFrom("donations")
    .selectAll()
    .where("id", "=", donationId)
    .executeTakeFirstOrThrow();
  subscriptionId = row.stripe_subscription_id!;
  // The donor's card starts declining before the second month.
  const declining = await stripe.paymentMethods.attach("pm_card_chargeCustomerFail", {
    customer: row.stripe_customer_id!,
  });
  await stripe.subscriptions.update(subscriptionId, { default_payment_method: declining.id });
}, 120_000);

afterAll(async () => {
  await h?.stop();
});

describe("a later payment Stripe could not take", () => {
  it("shows in the history as failed, with no receipt; the plan stays active", async () => {
    await moveTo("2026-04-15");
    expect(await history()).toEqual([
      [2, "2026-04-15", 2_500, "FAILED", "no receipt"],
      [1, "2026-03-15", 2_500, "SUCCEEDED", "receipt"],
    ]);
    const plan = (await h.gql("{ regularGifts { status paidCount nextChargeDate } }", {}, donor.access)).json.data;
    expect(plan.regularGifts[0]).toEqual({ status: "ACTIVE", paidCount: 1, nextChargeDate: "2026-05-15" });
    const row = await h.service.db
      .selectFrom("donations")
      .select("status")
      .where("id", "=", donationId)
      .executeTakeFirstOrThrow();
    expect(row.status).toBe("succeeded");
    // Another donor sees none of it.
    expect(await history(other.access)).toEqual([]);
  });

  it("the same invoice paid later is the same row, now paid, once", async () => {
    const invoice = (await stripe.invoices.list({ subscription: subscriptionId, status: "open" })).data[0]!;
    const row = await h.service.db
      .selectFrom("donations")
      .selectAll()
      .where("id", "=", donationId)
      .executeTakeFirstOrThrow();
    const card = await stripe.paymentMethods.attach("pm_card_visa", { customer: row.stripe_customer_id! });
    clock.set(new Date("2026-04-17T02:00:00Z"));
    await stripe.invoices.pay(invoice.id!, { payment_method: card.id });
    await h.service.stripe.settled();
    expect(await history()).toEqual([
      [2, "2026-04-17", 2_500, "SUCCEEDED", "receipt"],
      [1, "2026-03-15", 2_500, "SUCCEEDED", "receipt"],
    ]);
  });
});
