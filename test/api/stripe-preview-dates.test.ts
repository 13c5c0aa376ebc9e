/**
 * What the pay page shows is what Stripe charges, on the days shown: a monthly card gift made at
 * 9 am in Sydney (the day before in UTC, the day Stripe anchors the subscription on), on 31 January
 * and on 1 March 2027. The page's preview (previewFigures, the function the form renders) is set
 * against the days the Stripe stand-in's invoices for that gift were made, in Sydney, over four
 * months of its test clock.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { FundConfig } from "../../src/client/donation/config.js";
import { initialValues } from "../../src/client/donation/form-state.js";
import { previewFigures } from "../../src/client/donation/summary.js";
import { todayIn } from "../../src/payments/schedules.js";
import { type Harness, startAccountHarness } from "../support/account-api-harness.js";

const SYDNEY = "Australia/Sydney";
const sadaqah: FundConfig = {
  fund: "sadaqah",
  title: "Sadaqah",
  path: "/pay/sadaqah/",
  presets: [{ amountCents: 2500 }],
  defaultAmountCents: 2500,
  minimumCents: 100,
  maximumCents: 10_000_000,
  frequencies: ["once", "monthly"],
};

let h: Harness;
let clock = new Date("2027-01-30T22:00:00Z");

beforeAll(async () => {
  h = await startAccountHarness({ now: () => clock });
}, 120_000);

afterAll(async () => {
  await h?.stop();
});

/** The days in Sydney that the stand-in made the gift's subscription's paid invoices on. */
async function invoicedDays(donationId: string): Promise<string[]> {
  const stripe = h.stripeSdk;
  const row = await h.service.db
    .selectFrom("donations")
    .select("stripe_subscription_id")
    .where("id", "=", donationId)
    .executeTakeFirstOrThrow();
  const invoices = await stripe.invoices.list({ subscription: row.stripe_subscription_id!, limit: 100 });
  return invoices.data
    .filter((i) => i.status === "paid")
    .map((i) => todayIn(SYDNEY, new Date(i.created * 1000)))
    .sort();
}

describe("a monthly card gift made on a Sydney morning is charged on the days the pay page showed", () => {
  it.each([
    ["31 January", "2027-01-30T22:00:00Z", "2027-05-20T01:00:00Z"],
    ["1 March", "2027-02-28T22:00:00Z", "2027-06-20T01:00:00Z"],
  ])("made at 9 am in Sydney on %s", async (_day, madeAt, until) => {
    clock = new Date(madeAt);
    h.service.stripe.setNow(clock);
    const today = todayIn(SYDNEY, clock);
    const values = { ...initialValues(sadaqah), amount: "15.00", frequency: "monthly" as const };
    // What the page shows, at the moment the donor presses Give (a card gift).
    const shown = previewFigures(values, sadaqah, today, clock)!.charges.map((c) => c.date);
    const id = await h.donate({ fund: "sadaqah", amountCents: 1_500, frequency: "monthly" }, "succeeded");
    clock = new Date(until);
    await h.service.stripe.advanceTo(clock);
    await h.service.stripe.settled();
    const billed = await invoicedDays(id);
    // Today and the next three or four months: each day Stripe billed is the day shown.
    expect(billed.length).toBeGreaterThanOrEqual(4);
    expect(billed).toEqual(shown.slice(0, billed.length));
    expect(shown.slice(billed.length)[0]! > todayIn(SYDNEY, clock)).toBe(true);
  });
});
