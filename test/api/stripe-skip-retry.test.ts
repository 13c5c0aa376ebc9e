/**
 * A skip that Stripe accepted but the service never recorded (it stopped, or its database write
 * failed, between the two) is asked for again by the donor. The retry must find the change already
 * made at Stripe and record it, not move the schedule a second month (a payment lost from the dates
 * the donor was shown) nor fail on Stripe's idempotency rule (the same key with other parameters).
 * The failed record is made real by a trigger that refuses the donation's next skip count once.
 * 12 monthly zakat instalments of $100 from 15 March 2026 (noon in Sydney); dates by hand.
 */
import { sql } from "kysely";
import type Stripe from "stripe";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { INTERNAL } from "../../src/account-api/graphql.js";
import type { Account, Harness } from "../support/account-api-harness.js";
import { giveInstalments, startHarnessOnClock, type TestClock } from "../support/stripe-test-clock.js";

let h: Harness;
let donor: Account;
let stripe: Stripe;
let clock: TestClock;
let gift: string;

const FIELDS = "changed message gift { nextChargeDate endDate skippedCount }";
const skip = async (date: string) =>
  (
    await h.gql(
      `mutation($id: ID!, $date: String!) { skipRegularGiftCharge(id: $id, date: $date) { ${FIELDS} } }`,
      { id: gift, date },
      donor.access,
    )
  ).json;
const row = () =>
  h.service.db.selectFrom("donations").selectAll().where("id", "=", gift.slice(5)).executeTakeFirstOrThrow();
const recordedSkips = async () =>
  (
    await sql<{ skips: number }>`select skips from account_plans where donation_id = ${gift.slice(5)}`.execute(
      h.service.db,
    )
  ).rows[0]?.skips ?? 0;
const charged = async () =>
  (
    (await h.gql("{ donations { regularGiftId date totalCents } }", {}, donor.access)).json.data.donations as {
      regularGiftId: string;
      date: string;
      totalCents: number;
    }[]
  )
    .filter((d) => d.regularGiftId === gift)
    .map((d) => d.date)
    .reverse();
/** The same time on the same day of the next month (every date here is a 15th). */
function aMonthAfter(seconds: number): number {
  const date = new Date(seconds * 1000);
  date.setUTCMonth(date.getUTCMonth() + 1);
  return date.getTime() / 1000;
}
const moveTo = (date: string) => clock.moveTo(date);

/** This donation's plan cannot be written (its skip count with it), as a crash after Stripe's answer would leave it. */
async function failNextSkipRecord() {
  const id = gift.slice(5);
  await sql
    .raw(
      `CREATE OR REPLACE FUNCTION nzf_test_refuse_skip() RETURNS trigger LANGUAGE plpgsql AS $$
       BEGIN RAISE EXCEPTION 'the service stopped before recording the skip'; END $$`,
    )
    .execute(h.service.db);
  await sql
    .raw(
      `CREATE TRIGGER nzf_test_refuse_skip BEFORE INSERT OR UPDATE ON account_plans FOR EACH ROW
       WHEN (NEW.donation_id = '${id}') EXECUTE FUNCTION nzf_test_refuse_skip()`,
    )
    .execute(h.service.db);
}
async function recordSkipsAgain() {
  await sql.raw("DROP TRIGGER nzf_test_refuse_skip ON account_plans").execute(h.service.db);
}

beforeAll(async () => {
  ({ h, clock } = await startHarnessOnClock("2026-03-15T01:00:00Z"));
  stripe = h.stripeSdk;
  donor = await h.signUp("zainab@example.com");
  gift = await giveInstalments(h, donor);
}, 120_000);

afterAll(async () => {
  await h?.stop();
});

describe("a skip retried after Stripe made it but before the service recorded it", () => {
  it("before the schedule starts: the retry finds it made, the schedule moved one month, not two", async () => {
    const scheduleId = (await row()).stripe_schedule_id!;
    const startBefore = (await stripe.subscriptionSchedules.retrieve(scheduleId)).phases[0]!.start_date;
    await failNextSkipRecord();
    const first = await skip("2026-04-15");
    // Not "nothing was changed": Stripe was.
    expect(first.errors).toEqual([
      {
        message: INTERNAL,
        path: ["skipRegularGiftCharge"],
        extensions: { code: "INTERNAL" },
      },
    ]);
    expect(INTERNAL).toMatch(/asking again never makes a change twice/);
    expect(await recordedSkips()).toBe(0);
    // Stripe has the change already: 15 April 2026 → 15 May 2026.
    expect((await stripe.subscriptionSchedules.retrieve(scheduleId)).phases[0]!.start_date).toBe(
      aMonthAfter(startBefore),
    );
    await recordSkipsAgain();

    const retry = await skip("2026-04-15");
    expect(retry.errors).toBeUndefined();
    expect(retry.data.skipRegularGiftCharge).toMatchObject({
      changed: false,
      gift: { nextChargeDate: "2026-05-15", endDate: "2027-03-15", skippedCount: 1 },
    });
    expect(retry.data.skipRegularGiftCharge.message).toBe(
      "The payment of 15 April 2026 is already skipped. The next is on 15 May 2026.",
    );
    expect((await stripe.subscriptionSchedules.retrieve(scheduleId)).phases[0]!.start_date).toBe(
      aMonthAfter(startBefore),
    );
    await moveTo("2026-04-15");
    expect(await charged()).toEqual(["2026-03-15"]);
    await moveTo("2026-05-15");
    expect(await charged()).toEqual(["2026-03-15", "2026-05-15"]);
  });

  it("once the schedule bills: the retry records it, the plan one month longer, that month's invoice voided", async () => {
    const scheduleId = (await row()).stripe_schedule_id!;
    const endBefore = (await stripe.subscriptionSchedules.retrieve(scheduleId)).phases.at(-1)!.end_date;
    await failNextSkipRecord();
    const first = await skip("2026-06-15");
    expect(first.errors?.length).toBeGreaterThan(0);
    // Stripe has the change already: the schedule's end a month later.
    expect((await stripe.subscriptionSchedules.retrieve(scheduleId)).phases.at(-1)!.end_date).toBe(
      aMonthAfter(endBefore),
    );
    await recordSkipsAgain();

    const retry = await skip("2026-06-15");
    expect(retry.errors).toBeUndefined();
    expect(retry.data.skipRegularGiftCharge).toMatchObject({
      changed: true,
      gift: { nextChargeDate: "2026-07-15", endDate: "2027-04-15", skippedCount: 2 },
    });
    expect((await stripe.subscriptionSchedules.retrieve(scheduleId)).phases.at(-1)!.end_date).toBe(
      aMonthAfter(endBefore),
    );
    await moveTo("2026-06-15");
    expect(await charged()).toEqual(["2026-03-15", "2026-05-15"]);
    await moveTo("2026-07-15");
    expect(await charged()).toEqual(["2026-03-15", "2026-05-15", "2026-07-15"]);
  });
});
