/**
 * Monthly card gifts that start on the 29th to 31st: the dates the account shows, before and after
 * a skip, are the days Stripe charges (its billing cycle anchor: the last day of shorter months, then
 * back to the anchor's day). A monthly gift from 31 January 2027 and 12 zakat instalments from 30
 * January 2027, given through the payments service and paid by the Stripe stand-in's signed
 * webhooks; the test clock moves, Stripe bills what falls due, and the history shows the days.
 * A skip's confirmation (afterSkip) shows the dates the skip makes, also when it moves the start of
 * an instalment schedule to a shorter month.
 */
import Stripe from "stripe";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { todayIn } from "../../src/payments/schedules.js";
import type { Account, Harness } from "../support/account-api-harness.js";
import { giveInstalments, startHarnessOnClock, type TestClock } from "../support/stripe-test-clock.js";
import { TEST_SECRET_KEY } from "../support/payments-service.js";

let h: Harness;
let donor: Account;
let clock: TestClock;
let monthly: string;
let instalments: string;
let morning: string;

const FIELDS = "changed message gift { nextChargeDate endDate afterSkip { nextChargeDate endDate } }";
const skip = async (id: string, date: string) =>
  (
    await h.gql(
      `mutation($id: ID!, $date: String!) { skipRegularGiftCharge(id: $id, date: $date) { ${FIELDS} } }`,
      { id, date },
      donor.access,
    )
  ).json;
const plan = async (id: string) =>
  (
    (
      await h.gql(
        "{ regularGifts { id nextChargeDate endDate afterSkip { nextChargeDate endDate } } }",
        {},
        donor.access,
      )
    ).json.data.regularGifts as { id: string; nextChargeDate: string | null; endDate: string | null }[]
  ).find((g) => g.id === id)!;
/** The days in Sydney that Stripe billed the gift's subscription (its invoices, paid; a skipped one is voided). */
async function charged(id: string): Promise<string[]> {
  const stripe = new Stripe(TEST_SECRET_KEY, {
    host: new URL(h.service.stripe.url).hostname,
    port: Number(new URL(h.service.stripe.url).port),
    protocol: "http",
  });
  const row = await h.service.db
    .selectFrom("donations")
    .selectAll()
    .where("id", "=", id.slice(5))
    .executeTakeFirstOrThrow();
  let subscription = row.stripe_subscription_id;
  if (!subscription && row.stripe_schedule_id) {
    const schedule = await stripe.subscriptionSchedules.retrieve(row.stripe_schedule_id);
    subscription =
      typeof schedule.subscription === "string" ? schedule.subscription : (schedule.subscription?.id ?? null);
  }
  if (!subscription) return [];
  const invoices = await stripe.invoices.list({ subscription, limit: 100 });
  return invoices.data
    .filter((i) => i.status === "paid")
    .map((i) => todayIn("Australia/Sydney", new Date(i.created * 1000)))
    .sort();
}
const moveTo = (date: string) => clock.moveTo(date);

beforeAll(async () => {
  ({ h, clock } = await startHarnessOnClock("2027-01-30T01:00:00Z", { utcHour: "01:00" }));
  donor = await h.signUp("zainab@example.com");
  instalments = await giveInstalments(h, donor);
  // 9 am in Sydney on 31 January: 22:00 UTC on the 30th, the day Stripe counts from.
  clock.set(new Date("2027-01-30T22:00:00Z"));
  h.service.stripe.setNow(clock.now());
  morning = `gift_${await h.donate({ fund: "sadaqah", amountCents: 1_500, frequency: "monthly" }, "succeeded", donor.access)}`;
  clock.set(new Date("2027-01-31T01:00:00Z"));
  // Stripe's clock on the day too: the subscription is anchored when it is made.
  h.service.stripe.setNow(clock.now());
  monthly = `gift_${await h.donate({ fund: "sadaqah", amountCents: 2_000, frequency: "monthly" }, "succeeded", donor.access)}`;
}, 120_000);

afterAll(async () => {
  await h?.stop();
});

describe("month-end dates are Stripe's", () => {
  it("a monthly gift made on a Sydney morning on the 31st: the dates given back are the days Stripe bills", async () => {
    const row = await h.service.db
      .selectFrom("donations")
      .select("schedule")
      .where("id", "=", morning.slice(5))
      .executeTakeFirstOrThrow();
    // Stripe's anchor is 22:00 UTC on the 30th: February's is 22:00 UTC on the 28th, 1 March in Sydney.
    expect(row.schedule.slice(0, 4).map((c) => c.date)).toEqual([
      "2027-01-31",
      "2027-03-01",
      "2027-03-31",
      "2027-05-01",
    ]);
    expect(await plan(morning)).toMatchObject({ nextChargeDate: "2027-03-01" });
  });

  it("a monthly gift from 31 January: next 28 February; skipped, the next is 31 March, as Stripe charges", async () => {
    expect(await plan(monthly)).toMatchObject({
      nextChargeDate: "2027-02-28",
      afterSkip: { nextChargeDate: "2027-03-31", endDate: null },
    });
    const res = await skip(monthly, "2027-02-28");
    expect(res.data.skipRegularGiftCharge).toMatchObject({
      changed: true,
      message: "The payment of 28 February 2027 is skipped: nothing is charged then. The next is on 31 March 2027.",
      gift: { nextChargeDate: "2027-03-31", afterSkip: { nextChargeDate: "2027-04-30" } },
    });
    await moveTo("2027-03-30");
    expect(await charged(monthly)).toEqual(["2027-01-31"]);
    await moveTo("2027-04-01");
    expect(await charged(monthly)).toEqual(["2027-01-31", "2027-03-31"]);
    expect(await plan(monthly)).toMatchObject({ nextChargeDate: "2027-04-30" });
  });

  it("a skip of 30 April: the next is 31 May, not the 30th", async () => {
    expect((await skip(monthly, "2027-04-30")).data.skipRegularGiftCharge.gift.nextChargeDate).toBe("2027-05-31");
    await moveTo("2027-05-30");
    expect(await charged(monthly)).toEqual(["2027-01-31", "2027-03-31"]);
    await moveTo("2027-06-01");
    expect(await charged(monthly)).toEqual(["2027-01-31", "2027-03-31", "2027-05-31"]);
  });

  it("instalments from 30 January: the page's dates, the account's and Stripe's are the same days", async () => {
    const row = await h.service.db
      .selectFrom("donations")
      .select("schedule")
      .where("id", "=", instalments.slice(5))
      .executeTakeFirstOrThrow();
    expect(row.schedule.slice(0, 4).map((c) => c.date)).toEqual([
      "2027-01-30",
      "2027-02-28",
      "2027-03-28",
      "2027-04-28",
    ]);
    const shown: string[] = [];
    for (;;) {
      const p = await plan(instalments);
      if (!p.nextChargeDate || p.nextChargeDate > "2027-07-31") break;
      shown.push(p.nextChargeDate);
      await moveTo(p.nextChargeDate);
    }
    await moveTo("2027-08-01");
    // The clock is in June (the tests above): the dates still to come, then everything Stripe billed.
    expect(shown).toEqual(["2027-06-28", "2027-07-28"]);
    // The first was paid at checkout (a PaymentIntent); the rest are the schedule's invoices, each on
    // the day the page showed and the account said.
    expect(await charged(instalments)).toEqual(row.schedule.slice(1, 7).map((c) => c.date));
    // The morning gift: every day Stripe billed is a day it was given back with.
    const given = await h.service.db
      .selectFrom("donations")
      .select("schedule")
      .where("id", "=", morning.slice(5))
      .executeTakeFirstOrThrow();
    const billed = await charged(morning);
    expect(billed).toEqual(given.schedule.map((c) => c.date).filter((d) => d <= "2027-08-01"));
  });

  it("instalments whose second payment, on the 31st, is skipped before they start: Stripe's days after it are shown", async () => {
    clock.set(new Date("2027-12-31T01:00:00Z"));
    await h.service.stripe.advanceTo(clock.now());
    h.service.stripe.setNow(clock.now());
    const late = await giveInstalments(h, donor);
    expect(await plan(late)).toMatchObject({ nextChargeDate: "2028-01-31" });
    // Skipped before the schedule starts: it starts a month later, on 29 February, and Stripe bills
    // the 29th from then on.
    expect((await skip(late, "2028-01-31")).data.skipRegularGiftCharge.gift.nextChargeDate).toBe("2028-02-29");
    const shown: string[] = [];
    for (;;) {
      const p = await plan(late);
      if (!p.nextChargeDate || p.nextChargeDate > "2028-05-31") break;
      shown.push(p.nextChargeDate);
      await moveTo(p.nextChargeDate);
    }
    await moveTo("2028-06-01");
    expect(shown).toEqual(["2028-02-29", "2028-03-29", "2028-04-29", "2028-05-29"]);
    expect(await charged(late)).toEqual(shown);
  });
});

describe("the skip's confirmation says what the skip does", () => {
  it("12 instalments skipped before they start: the end date shown before the skip is the account's after it and Stripe's last", async () => {
    // Made on 31 July: the schedule would start on 31 August; skipped, it starts on 30 September
    // and Stripe bills the 30th from then on, so the last payment moves to the 30th too.
    clock.set(new Date("2028-07-31T01:00:00Z"));
    await h.service.stripe.advanceTo(clock.now());
    h.service.stripe.setNow(clock.now());
    const gift = await giveInstalments(h, donor);
    const before = (await plan(gift)) as Awaited<ReturnType<typeof plan>> & {
      afterSkip: { nextChargeDate: string | null; endDate: string | null };
    };
    expect(before.nextChargeDate).toBe("2028-08-31");
    const confirmed = before.afterSkip;
    expect(confirmed).toEqual({ nextChargeDate: "2028-09-30", endDate: "2029-07-30" });
    const res = await skip(gift, "2028-08-31");
    expect(res.data.skipRegularGiftCharge).toMatchObject({
      changed: true,
      message:
        "The payment of 31 August 2028 is skipped: nothing is charged then. The next is on 30 September 2028, and the last on 30 July 2029.",
    });
    const after = res.data.skipRegularGiftCharge.gift;
    expect({ nextChargeDate: after.nextChargeDate, endDate: after.endDate }).toEqual(confirmed);
    expect(await plan(gift)).toMatchObject(confirmed);
    // Stripe bills every payment still to come, and nothing after the end date the donor was shown.
    for (;;) {
      const p = await plan(gift);
      if (!p.nextChargeDate) break;
      await moveTo(p.nextChargeDate);
    }
    await moveTo("2029-10-31");
    const billed = await charged(gift);
    expect(billed).toHaveLength(11);
    expect(billed[0]).toBe(confirmed.nextChargeDate);
    expect(billed.at(-1)).toBe(confirmed.endDate);
  }, 120_000);
});
