/**
 * Pausing card instalments before their Stripe SubscriptionSchedule has started: the first
 * instalment is a PaymentIntent, the schedule starts a month later, and until then there is no
 * subscription whose collection could be paused. The pause cancels the not-started schedule (marked
 * as the pause's first, keyed), the plan reads PAUSED and Stripe charges nothing; the resume lays a
 * new keyed schedule for the 11 instalments that remain from the next billing day, and Stripe then
 * charges, to the cent, on the dates the account shows, 12 payments in all. The attacker's side:
 * another donor's pause or resume is not found and asks Stripe nothing; the schedule's
 * `subscription_schedule.canceled` replayed or forged changes nothing (the plan stays paused, not
 * cancelled); two resumes at once lay one schedule. Checked on Stripe's side: the stand-in's
 * charges and requests, through the SDK. 12 monthly zakat instalments of $100 from 15 March 2026,
 * noon in Sydney; dates by hand.
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
const stripePosts = () => h.service.stripe.requests().filter((r) => r.method === "POST");
const moveTo = (date: string) => clock.moveTo(date);
const rowOf = () =>
  h.service.db.selectFrom("donations").selectAll().where("id", "=", gift.slice(5)).executeTakeFirstOrThrow();
let firstSchedule: string;

beforeAll(async () => {
  ({ h, clock } = await startHarnessOnClock("2026-03-15T01:00:00Z"));
  stripe = h.stripeSdk;
  donor = await h.signUp("ruqayya@example.com");
  gift = await giveInstalments(h, donor);
  firstSchedule = (await rowOf()).stripe_schedule_id!;
}, 120_000);

afterAll(async () => {
  await h?.stop();
});

describe("pausing instalments before their Stripe schedule starts", () => {
  it("another donor's pause or resume of it is not found and asks Stripe nothing", async () => {
    await moveTo("2026-03-20");
    const other = await h.signUp("intruder@example.com");
    const requests = h.service.stripe.requests().length;
    for (const mutation of ["pauseRegularGift", "resumeRegularGift"]) {
      const res = (await h.gql(`mutation($id: ID!) { ${mutation}(id: $id) { changed } }`, { id: gift }, other.access))
        .json;
      expect(res.errors?.[0]?.extensions?.code).toBe("GIFT_NOT_FOUND");
      // The same answer as for a plan that does not exist.
      const none = (
        await h.gql(`mutation($id: ID!) { ${mutation}(id: $id) { changed } }`, { id: "gift_nothing" }, other.access)
      ).json;
      expect(none.errors[0]).toMatchObject({ message: res.errors[0].message, extensions: { code: "GIFT_NOT_FOUND" } });
    }
    expect(h.service.stripe.requests()).toHaveLength(requests);
    expect(await shown()).toMatchObject({ status: "ACTIVE", nextChargeDate: "2026-04-15", canPause: true });
  });

  it("pauses: the not-started schedule is marked as the pause's, then cancelled, each keyed", async () => {
    const before = stripePosts().length;
    const res = await change("pauseRegularGift");
    expect(res.data.pauseRegularGift).toMatchObject({
      changed: true,
      gift: { status: "PAUSED", nextChargeDate: null, paidCount: 1 },
    });
    const posts = stripePosts().slice(before);
    expect(posts.map((r) => r.path)).toEqual([
      `/v1/subscription_schedules/${firstSchedule}`,
      `/v1/subscription_schedules/${firstSchedule}/cancel`,
    ]);
    expect(posts.every((r) => r.status === 200 && /\/plan\/pause\//.test(r.idempotencyKey ?? ""))).toBe(true);
    const schedule = await stripe.subscriptionSchedules.retrieve(firstSchedule);
    expect(schedule.status).toBe("canceled");
    await h.service.stripe.settled();
    // Its cancellation is the pause's: the plan stays paused, not cancelled.
    expect(await shown()).toMatchObject({ status: "PAUSED" });
    // Asked again: already paused, nothing more asked of Stripe.
    expect((await change("pauseRegularGift")).data.pauseRegularGift.changed).toBe(false);
    expect(stripePosts()).toHaveLength(before + 2);
  });

  it("the schedule's cancellation replayed or forged changes nothing", async () => {
    const event = h.service.stripe
      .events()
      .find(
        (e) => e.type === "subscription_schedule.canceled" && (e.data.object as { id: string }).id === firstSchedule,
      )!;
    expect(await h.service.stripe.redeliver(event.id)).toBe(200);
    expect(await h.service.stripe.redeliver(event.id, { signatureSecret: "whsec_someone_else" })).toBe(400);
    expect(await shown()).toMatchObject({ status: "PAUSED", paidCount: 1 });
  });

  it("while paused, Stripe charges nothing", async () => {
    await moveTo("2026-06-20");
    expect(await stripeCharges()).toEqual([["2026-03-15", 10_000]]);
    expect(await shown()).toMatchObject({ status: "PAUSED", paidCount: 1 });
  });

  it("two resumes at once lay one new schedule for the 11 that remain, from the next billing day", async () => {
    const before = stripePosts().length;
    const [a, b] = await Promise.all([change("resumeRegularGift"), change("resumeRegularGift")]);
    for (const res of [a, b])
      expect(res.data.resumeRegularGift.gift).toMatchObject({
        status: "ACTIVE",
        nextChargeDate: "2026-07-15",
        endDate: "2027-05-15",
        paidCount: 1,
      });
    const made = stripePosts()
      .slice(before)
      .filter((r) => r.path === "/v1/subscription_schedules" && r.status === 200);
    // The second is Stripe's replay of the first, by its key: one schedule.
    expect(new Set(made.map((r) => r.idempotencyKey)).size).toBe(1);
    expect(made.filter((r) => !r.replayed).length).toBe(1);
    const row = await rowOf();
    expect(row.stripe_schedule_id).not.toBe(firstSchedule);
    const schedule = await stripe.subscriptionSchedules.retrieve(row.stripe_schedule_id!);
    expect(schedule.status).toBe("not_started");
    expect(await shown()).toMatchObject({ status: "ACTIVE", nextChargeDate: "2026-07-15", canPause: true });
  });

  it("Stripe charges what the account shows, to the cent, on the dates shown: 12 payments in all", async () => {
    const shownDates: string[] = [];
    for (;;) {
      const plan = await shown();
      if (!plan.nextChargeDate) break;
      shownDates.push(plan.nextChargeDate);
      const dayBefore = new Date(Date.parse(`${plan.nextChargeDate}T00:00:00Z`) - 86_400_000)
        .toISOString()
        .slice(0, 10);
      await moveTo(dayBefore);
      expect((await stripeCharges()).length).toBe(shownDates.length);
      await moveTo(plan.nextChargeDate);
    }
    expect(shownDates).toEqual([
      "2026-07-15",
      "2026-08-15",
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
    await moveTo("2027-07-20");
    expect(await stripeCharges()).toEqual([["2026-03-15", 10_000], ...shownDates.map((d) => [d, 10_000] as const)]);
    expect(await shown()).toMatchObject({ status: "COMPLETED", paidCount: 12 });
  });
});
