/**
 * Skipping the next payment, and a new amount for instalments, act on Stripe and move what is
 * charged: 12 monthly zakat instalments (a PaymentIntent, then a SubscriptionSchedule) and a
 * monthly gift (a Subscription), given through the payments service and paid by the Stripe
 * stand-in's signed webhooks; the test clock then moves, Stripe bills what falls due, and the
 * history shows what was charged and when. The attacker's tests first: another donor's token,
 * another donor's plan, a forged or stale date, a huge one ask Stripe nothing.
 * Dates by hand from 15 March 2026, noon in Sydney.
 */
import type Stripe from "stripe";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Account, Harness } from "../support/account-api-harness.js";
import { giveInstalments, startHarnessOnClock, type TestClock } from "../support/stripe-test-clock.js";

let h: Harness;
let donor: Account;
let other: Account;
let stripe: Stripe;
let clock: TestClock;
let instalments: string;
let monthly: string;
let othersPlan: string;

const FIELDS =
  "changed message gift { status nextChargeDate endDate amountCents paidCount skippedCount canSkip scheduleTotalCents }";
const skip = async (id: string, date: string, token = donor.access) =>
  (
    await h.gql(
      `mutation($id: ID!, $date: String!) { skipRegularGiftCharge(id: $id, date: $date) { ${FIELDS} } }`,
      { id, date },
      token,
    )
  ).json;
const plans = async () =>
  (await h.gql("{ regularGifts { id nextChargeDate endDate amountCents paidCount } }", {}, donor.access)).json.data
    .regularGifts as {
    id: string;
    nextChargeDate: string;
    endDate: string | null;
    amountCents: number;
    paidCount: number;
  }[];
const history = async () =>
  (
    (await h.gql("{ donations { regularGiftId date totalCents chargeNumber status } }", {}, donor.access)).json.data
      .donations as { regularGiftId: string; date: string; totalCents: number; chargeNumber: number; status: string }[]
  ).map((d) => [d.regularGiftId, d.chargeNumber, d.date, d.totalCents, d.status]);
const stripePosts = () => h.service.stripe.requests().filter((r) => r.method === "POST").length;
const moveTo = (date: string) => clock.moveTo(date);
const rowOf = (giftId: string) =>
  h.service.db.selectFrom("donations").selectAll().where("id", "=", giftId.slice(5)).executeTakeFirstOrThrow();

beforeAll(async () => {
  ({ h, clock } = await startHarnessOnClock("2026-03-15T01:00:00Z"));
  stripe = h.stripeSdk;
  donor = await h.signUp("hafsa@example.com");
  other = await h.signUp("omar@example.com");
  instalments = await giveInstalments(h, donor);
  monthly = `gift_${await h.donate({ fund: "sadaqah", amountCents: 2_500, frequency: "monthly" }, "succeeded", donor.access)}`;
  othersPlan = `gift_${await h.donate({ fund: "sadaqah", amountCents: 1_000, frequency: "monthly" }, "succeeded", other.access)}`;
}, 120_000);

afterAll(async () => {
  await h?.stop();
});

describe("skip the next payment; a new amount for instalments", () => {
  it("refuses someone else's token, another donor's plan, a stale, forged or huge date, asking Stripe nothing", async () => {
    const before = stripePosts();
    expect((await skip(instalments, "2026-04-15", other.access)).errors[0].extensions.code).toBe("GIFT_NOT_FOUND");
    expect((await skip(othersPlan, "2026-04-15")).errors[0].extensions.code).toBe("GIFT_NOT_FOUND");
    expect((await skip(instalments, "2026-05-15")).errors[0].extensions.code).toBe("SKIP_DATE_CHANGED");
    expect((await skip(instalments, "2026-02-30")).errors[0].extensions.code).toBe("INVALID_DATE");
    expect((await skip(instalments, "9".repeat(5_000))).errors[0].extensions.code).toBe("INVALID_DATE");
    expect(stripePosts()).toBe(before);
    expect((await plans()).find((p) => p.id === instalments)).toMatchObject({
      nextChargeDate: "2026-04-15",
      endDate: "2027-02-15",
    });
  });

  it("skips an instalment: every later date a month on, still 12 payments; a repeat changes nothing", async () => {
    const scheduleId = (await rowOf(instalments)).stripe_schedule_id!;
    const startBefore = (await stripe.subscriptionSchedules.retrieve(scheduleId)).phases[0]!.start_date;
    const res = await skip(instalments, "2026-04-15");
    expect(res.data.skipRegularGiftCharge).toMatchObject({
      changed: true,
      message:
        "The payment of 15 April 2026 is skipped: nothing is charged then. The next is on 15 May 2026, and the last on 15 March 2027.",
      gift: { status: "ACTIVE", nextChargeDate: "2026-05-15", endDate: "2027-03-15", skippedCount: 1, canSkip: true },
    });
    // At Stripe: the schedule starts a month later (its phases moved with it).
    const schedule = await stripe.subscriptionSchedules.retrieve(scheduleId);
    expect(schedule.phases[0]!.start_date - startBefore).toBe(30 * 86_400);
    const before = stripePosts();
    const again = await skip(instalments, "2026-04-15");
    expect(again.data.skipRegularGiftCharge).toMatchObject({ changed: false, gift: { nextChargeDate: "2026-05-15" } });
    expect(again.data.skipRegularGiftCharge.message).toMatch(/already skipped/);
    expect(stripePosts()).toBe(before);
  });

  it("nothing is charged on the skipped date; the next payment comes on the moved one", async () => {
    await moveTo("2026-04-15");
    expect((await history()).filter((r) => r[0] === instalments)).toEqual([
      [instalments, 1, "2026-03-15", 10_000, "SUCCEEDED"],
    ]);
    await moveTo("2026-05-15");
    expect((await history()).filter((r) => r[0] === instalments)).toEqual([
      [instalments, 2, "2026-05-15", 10_000, "SUCCEEDED"],
      [instalments, 1, "2026-03-15", 10_000, "SUCCEEDED"],
    ]);
    expect((await plans()).find((p) => p.id === instalments)).toMatchObject({
      paidCount: 2,
      nextChargeDate: "2026-06-15",
      endDate: "2027-03-15",
    });
  });

  it("a new amount for the instalments is what Stripe charges from the next one", async () => {
    const res = await h.gql(
      `mutation($id: ID!) { changeRegularGiftAmount(id: $id, amountCents: 15000) { ${FIELDS} } }`,
      { id: instalments },
      donor.access,
    );
    expect(res.json.data.changeRegularGiftAmount).toMatchObject({
      changed: true,
      gift: { amountCents: 15_000, scheduleTotalCents: 20_000 + 10 * 15_000 },
    });
    const schedule = await stripe.subscriptionSchedules.retrieve((await rowOf(instalments)).stripe_schedule_id!);
    const prices = await Promise.all(
      schedule.phases.map(async (p) => (await stripe.prices.retrieve(p.items[0]!.price as string)).unit_amount),
    );
    expect(prices).toEqual(schedule.phases.map(() => 15_000));
    await moveTo("2026-06-15");
    expect((await history()).filter((r) => r[0] === instalments)[0]).toEqual([
      instalments,
      3,
      "2026-06-15",
      15_000,
      "SUCCEEDED",
    ]);
  });

  it("skips a monthly gift's next payment: Stripe voids that invoice and charges the month after", async () => {
    const plan = (await plans()).find((p) => p.id === monthly)!;
    expect(plan.nextChargeDate).toBe("2026-07-15");
    const res = await skip(monthly, "2026-07-15");
    expect(res.data.skipRegularGiftCharge.gift).toMatchObject({ nextChargeDate: "2026-08-15", endDate: null });
    const sub = await stripe.subscriptions.retrieve((await rowOf(monthly)).stripe_subscription_id!);
    expect(sub.pause_collection).toMatchObject({ behavior: "void" });
    await moveTo("2026-07-15");
    const charged = () => history().then((rows) => rows.filter((r) => r[0] === monthly).map((r) => r[2]));
    expect(await charged()).toEqual(["2026-06-15", "2026-05-15", "2026-04-15", "2026-03-15"]);
    await moveTo("2026-08-15");
    expect((await charged())[0]).toBe("2026-08-15");
    expect((await stripe.subscriptions.retrieve(sub.id)).pause_collection).toBeNull();
  });

  it("skips an instalment of a schedule already billing: that invoice is voided, the plan a month longer", async () => {
    const ofPlan = () => history().then((rows) => rows.filter((r) => r[0] === instalments));
    expect((await ofPlan()).map((r) => r[2])).toEqual([
      "2026-08-15",
      "2026-07-15",
      "2026-06-15",
      "2026-05-15",
      "2026-03-15",
    ]);
    const res = await skip(instalments, "2026-09-15");
    expect(res.data.skipRegularGiftCharge.gift).toMatchObject({
      nextChargeDate: "2026-10-15",
      endDate: "2027-04-15",
      skippedCount: 2,
    });
    await moveTo("2026-09-15");
    expect((await ofPlan())[0]![2]).toBe("2026-08-15");
    await moveTo("2026-10-15");
    expect((await ofPlan())[0]).toEqual([instalments, 6, "2026-10-15", 15_000, "SUCCEEDED"]);
    expect((await plans()).find((p) => p.id === instalments)).toMatchObject({ paidCount: 6, endDate: "2027-04-15" });
  });

  it("a payment skipped, then the gift paused and resumed before that date, stays skipped", async () => {
    const run = (m: string) => h.gql(`mutation($id: ID!) { ${m} }`, { id: monthly }, donor.access);
    expect((await plans()).find((p) => p.id === monthly)!.nextChargeDate).toBe("2026-11-15");
    await skip(monthly, "2026-11-15");
    expect((await run("pauseRegularGift(id: $id) { changed }")).json.data.pauseRegularGift.changed).toBe(true);
    await moveTo("2026-10-20");
    const resumed = await run("resumeRegularGift(id: $id) { changed gift { nextChargeDate } }");
    expect(resumed.json.data.resumeRegularGift).toEqual({ changed: true, gift: { nextChargeDate: "2026-12-15" } });
    const charged = () => history().then((rows) => rows.filter((r) => r[0] === monthly).map((r) => r[2]));
    await moveTo("2026-11-15");
    expect((await charged())[0]).toBe("2026-10-15");
    await moveTo("2026-12-15");
    expect((await charged())[0]).toBe("2026-12-15");
  });
});
