/**
 * Pausing card instalments once their Stripe schedule bills: the schedule is cancelled (its
 * subscription with it), marked first as the pause's, so Stripe charges nothing while paused; the
 * resume lays a new keyed schedule for the instalments that remain from the next billing day, so
 * the plan keeps its 12 payments (a pause that only voided the paused months' invoices lost them:
 * the schedule still ended on its date). Stripe's charges, read after each move of both clocks,
 * are the dates and amounts the account shows. 12 zakat instalments of $100 from 15 March 2026,
 * noon in Sydney; dates by hand.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { todayIn } from "../../src/payments/schedules.js";
import type { Account, Harness } from "../support/account-api-harness.js";
import { giveInstalments, startHarnessOnClock, type TestClock } from "../support/stripe-test-clock.js";

let h: Harness;
let clock: TestClock;
let donor: Account;
let gift: string;

const FIELDS = "changed gift { status nextChargeDate endDate paidCount canPause }";
const change = async (mutation: "pauseRegularGift" | "resumeRegularGift") =>
  (await h.gql(`mutation($id: ID!) { ${mutation}(id: $id) { ${FIELDS} } }`, { id: gift }, donor.access)).json;
const shown = async () =>
  (
    (await h.gql("{ regularGifts { id status nextChargeDate endDate paidCount } }", {}, donor.access)).json.data
      .regularGifts as {
      id: string;
      status: string;
      nextChargeDate: string | null;
      endDate: string;
      paidCount: number;
    }[]
  ).find((g) => g.id === gift)!;
const rowOf = () =>
  h.service.db.selectFrom("donations").selectAll().where("id", "=", gift.slice(5)).executeTakeFirstOrThrow();
/** What Stripe charged the donor's card, oldest first: [day in Sydney, cents]. */
async function stripeCharges() {
  const customer = (await rowOf()).stripe_customer_id!;
  return (await h.stripeSdk.charges.list({ customer, limit: 100 })).data
    .filter((c) => c.status === "succeeded")
    .map((c) => [todayIn("Australia/Sydney", new Date(c.created * 1000)), c.amount] as const)
    .sort((a, b) => (a[0] < b[0] ? -1 : 1));
}

beforeAll(async () => {
  ({ h, clock } = await startHarnessOnClock("2026-03-15T01:00:00Z"));
  donor = await h.signUp("asma@example.com");
  gift = await giveInstalments(h, donor);
  await clock.moveTo("2026-05-16");
}, 120_000);

afterAll(async () => {
  await h?.stop();
});

describe("pausing instalments whose Stripe schedule bills", () => {
  it("cancels the schedule and its subscription, marked as the pause's; the plan reads paused", async () => {
    expect(await shown()).toMatchObject({ status: "ACTIVE", paidCount: 3, nextChargeDate: "2026-06-15" });
    const schedule = (await rowOf()).stripe_schedule_id!;
    const subscription = (await h.stripeSdk.subscriptionSchedules.retrieve(schedule)).subscription as string;
    const res = await change("pauseRegularGift");
    expect(res.data.pauseRegularGift).toMatchObject({ changed: true, gift: { status: "PAUSED", paidCount: 3 } });
    const after = await h.stripeSdk.subscriptionSchedules.retrieve(schedule);
    expect(after.status).toBe("canceled");
    expect(after.metadata).toMatchObject({ nzf_paused_by_account: expect.stringMatching(/\/plan\/pause\//) });
    expect((await h.stripeSdk.subscriptions.retrieve(subscription)).status).toBe("canceled");
    await h.service.stripe.settled();
    expect(await shown()).toMatchObject({ status: "PAUSED" });
  });

  it("charges nothing while paused", async () => {
    await clock.moveTo("2026-08-20");
    expect((await stripeCharges()).map(([day]) => day)).toEqual(["2026-03-15", "2026-04-15", "2026-05-15"]);
  });

  it("resumes from the next billing day with the 9 that remain: 12 payments in all, on the dates shown", async () => {
    const res = await change("resumeRegularGift");
    expect(res.data.resumeRegularGift.gift).toMatchObject({
      status: "ACTIVE",
      nextChargeDate: "2026-09-15",
      endDate: "2027-05-15",
      paidCount: 3,
      canPause: true,
    });
    const shownDates: string[] = [];
    for (;;) {
      const plan = await shown();
      if (!plan.nextChargeDate) break;
      shownDates.push(plan.nextChargeDate);
      await clock.moveTo(plan.nextChargeDate);
    }
    await clock.moveTo("2027-07-20");
    expect(shownDates).toEqual([
      "2026-09-15",
      "2026-10-15",
      "2026-11-15",
      "2026-12-15",
      "2027-01-15",
      "2027-02-15",
      "2027-03-15",
      "2027-04-15",
      "2027-05-15",
    ]);
    expect(await stripeCharges()).toEqual(
      ["2026-03-15", "2026-04-15", "2026-05-15", ...shownDates].map((d) => [d, 10_000] as const),
    );
    expect(await shown()).toMatchObject({ status: "COMPLETED", paidCount: 12 });
  });
});
