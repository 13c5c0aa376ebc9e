/**
 * Pausing card instalments before their Stripe SubscriptionSchedule has started: the first
 * instalment is a PaymentIntent, the schedule starts a month later, and until then there is no
 * subscription whose collection could be paused. The plan must never read PAUSED while Stripe will
 * charge: the pause is refused with a coded error saying what to do instead, nothing is asked of
 * Stripe, and the charge comes on the date the account shows. Once the schedule bills, a pause is
 * real at Stripe (nothing charged while paused) and after resume the charges come on the dates the
 * account then shows. Checked on Stripe's side: the stand-in's charges, listed through the SDK.
 * 12 monthly zakat instalments of $100 from 15 March 2026, noon in Sydney; dates by hand.
 */
import type Stripe from "stripe";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { todayIn } from "../../src/payments/schedules.js";
import type { Account, Harness } from "../support/account-api-harness.js";
import { giveInstalments, startHarnessOnClock, type TestClock } from "../support/stripe-test-clock.js";

let h: Harness;
let donor: Account;
let stripe: Stripe;
let clock: TestClock;
let gift: string;

const FIELDS = "changed message gift { status nextChargeDate endDate paidCount canPause }";
const change = async (mutation: "pauseRegularGift" | "resumeRegularGift") =>
  (await h.gql(`mutation($id: ID!) { ${mutation}(id: $id) { ${FIELDS} } }`, { id: gift }, donor.access)).json;
const shown = async () =>
  (
    (await h.gql("{ regularGifts { id status nextChargeDate endDate paidCount canPause } }", {}, donor.access)).json
      .data.regularGifts as {
      id: string;
      status: string;
      nextChargeDate: string | null;
      paidCount: number;
      canPause: boolean;
    }[]
  ).find((g) => g.id === gift)!;
/** What Stripe charged the donor's card, oldest first: [day in Sydney, cents]. */
const stripeCharges = async () => {
  const customer = (
    await h.service.db
      .selectFrom("donations")
      .select("stripe_customer_id")
      .where("id", "=", gift.slice(5))
      .executeTakeFirstOrThrow()
  ).stripe_customer_id!;
  return (await stripe.charges.list({ customer, limit: 100 })).data
    .filter((c) => c.status === "succeeded")
    .map((c) => [todayIn("Australia/Sydney", new Date(c.created * 1000)), c.amount] as const)
    .sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
};
const stripePosts = () => h.service.stripe.requests().filter((r) => r.method === "POST").length;
const moveTo = (date: string) => clock.moveTo(date);

beforeAll(async () => {
  ({ h, clock } = await startHarnessOnClock("2026-03-15T01:00:00Z"));
  stripe = h.stripeSdk;
  donor = await h.signUp("ruqayya@example.com");
  gift = await giveInstalments(h, donor);
}, 120_000);

afterAll(async () => {
  await h?.stop();
});

describe("pausing instalments before their Stripe schedule starts", () => {
  it("refuses the pause with a coded error and what to do instead; asks Stripe to change nothing", async () => {
    await moveTo("2026-03-20");
    // The account says so first: the page offers no Pause for this plan.
    expect(await shown()).toMatchObject({ status: "ACTIVE", canPause: false });
    const before = stripePosts();
    const res = await change("pauseRegularGift");
    expect(res.errors?.[0]?.extensions?.code).toBe("PAUSE_NOT_STARTED");
    expect(res.errors[0].message).toBe(
      "Your Zakat instalment plan cannot be paused before its monthly payments begin on 15 April 2026, so nothing was changed. To have nothing charged that day, skip the next payment; to stop the plan, cancel it.",
    );
    expect(stripePosts()).toBe(before);
    expect(await shown()).toMatchObject({ status: "ACTIVE", nextChargeDate: "2026-04-15", paidCount: 1 });
  });

  it("another donor's pause of it is not found and asks Stripe nothing, whether it could be paused or not", async () => {
    const other = await h.signUp("intruder@example.com");
    const requests = h.service.stripe.requests().length;
    const res = (
      await h.gql("mutation($id: ID!) { pauseRegularGift(id: $id) { changed } }", { id: gift }, other.access)
    ).json;
    expect(res.errors?.[0]?.extensions?.code).toBe("GIFT_NOT_FOUND");
    // The same answer as for a plan that does not exist: nothing says the plan could not be paused.
    const none = (
      await h.gql("mutation($id: ID!) { pauseRegularGift(id: $id) { changed } }", { id: "gift_nothing" }, other.access)
    ).json;
    expect(none.errors[0]).toMatchObject({ message: res.errors[0].message, extensions: { code: "GIFT_NOT_FOUND" } });
    expect(h.service.stripe.requests()).toHaveLength(requests);
    expect(await shown()).toMatchObject({ status: "ACTIVE", nextChargeDate: "2026-04-15" });
  });

  it("the plan never reads PAUSED while Stripe charges: the next payment comes on the date shown", async () => {
    await moveTo("2026-04-16");
    expect(await stripeCharges()).toEqual([
      ["2026-03-15", 10_000],
      ["2026-04-15", 10_000],
    ]);
    // Billing now: a pause is taken (Stripe pauses the schedule's subscription).
    expect(await shown()).toMatchObject({
      status: "ACTIVE",
      nextChargeDate: "2026-05-15",
      paidCount: 2,
      canPause: true,
    });
  });

  it("once the schedule bills, a pause is real at Stripe: nothing is charged while paused", async () => {
    const res = await change("pauseRegularGift");
    expect(res.data.pauseRegularGift).toMatchObject({ changed: true, gift: { status: "PAUSED" } });
    await moveTo("2026-06-20");
    expect(await stripeCharges()).toEqual([
      ["2026-03-15", 10_000],
      ["2026-04-15", 10_000],
    ]);
    expect(await shown()).toMatchObject({ status: "PAUSED", paidCount: 2 });
  });

  it("after resume, Stripe charges on the dates the account then shows", async () => {
    const res = await change("resumeRegularGift");
    expect(res.data.resumeRegularGift).toMatchObject({ changed: true, gift: { status: "ACTIVE" } });
    const next = res.data.resumeRegularGift.gift.nextChargeDate as string;
    expect(next > "2026-06-20").toBe(true);
    const dayBefore = new Date(Date.parse(`${next}T00:00:00Z`) - 86_400_000).toISOString().slice(0, 10);
    await moveTo(dayBefore);
    expect((await stripeCharges()).length).toBe(2);
    await moveTo(next);
    expect(await stripeCharges()).toEqual([
      ["2026-03-15", 10_000],
      ["2026-04-15", 10_000],
      [next, 10_000],
    ]);
    expect(await shown()).toMatchObject({ status: "ACTIVE", paidCount: 3 });
  });
});
