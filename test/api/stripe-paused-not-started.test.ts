/**
 * The data check for instalments an older version paused wrongly (before pauses held them): the
 * account read PAUSED while the plan's Stripe schedule had not started, so Stripe charged on its
 * start. The check finds exactly those (not a paused monthly gift, not instalments paused once
 * their schedule bills), sets each active again only while it still reads paused, says what to
 * tell the donor in a coded warning, changes nothing when run again, and runs when the service
 * starts. Then Stripe charges on the date the account shows. Read from the Stripe stand-in's
 * charges; dates by hand, noon in Sydney.
 */
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startApiServer } from "../../src/api/node-server.js";
import { findPausedNotStarted, repairPausedNotStarted } from "../../src/api/stripe/paused-not-started.js";
import { todayIn } from "../../src/payments/schedules.js";
import type { Account, Harness } from "../support/account-api-harness.js";
import { TEST_SECRET_KEY, TEST_WEBHOOK_SECRET } from "../support/payments-service.js";
import { giveInstalments, startHarnessOnClock, type TestClock } from "../support/stripe-test-clock.js";

let h: Harness;
let clock: TestClock;
let donor: Account;
/** Paused properly: its schedule bills, its subscription's collection is paused at Stripe. */
let billing: string;
/** Paused as the older version did, with nothing asked of Stripe. */
let wrong: string;
let monthly: string;

const warnings: string[] = [];
const logger = {
  debug() {},
  info() {},
  warn: (_: string, message: string) => void warnings.push(message),
  error: (_: string, message: string) => void warnings.push(message),
};

const shown = async (id: string) =>
  (
    (await h.gql("{ regularGifts { id status nextChargeDate paidCount } }", {}, donor.access)).json.data
      .regularGifts as { id: string; status: string; nextChargeDate: string | null; paidCount: number }[]
  ).find((g) => g.id === id)!;
const pause = async (id: string) =>
  (await h.gql("mutation($id: ID!) { pauseRegularGift(id: $id) { changed } }", { id }, donor.access)).json;
/** What Stripe billed by the plan's schedule, paid: [day in Sydney, cents], oldest first. */
async function billedBySchedule(id: string) {
  const row = await h.service.db
    .selectFrom("donations")
    .select("stripe_schedule_id")
    .where("id", "=", id.slice(5))
    .executeTakeFirstOrThrow();
  const schedule = await h.stripeSdk.subscriptionSchedules.retrieve(row.stripe_schedule_id!);
  if (!schedule.subscription) return [];
  const subscription = typeof schedule.subscription === "string" ? schedule.subscription : schedule.subscription.id;
  return (await h.stripeSdk.invoices.list({ subscription, limit: 100 })).data
    .filter((i) => i.status === "paid")
    .map((i) => [todayIn("Australia/Sydney", new Date(i.created * 1000)), i.amount_paid] as const)
    .sort((a, b) => (a[0] < b[0] ? -1 : 1));
}

beforeAll(async () => {
  ({ h, clock } = await startHarnessOnClock("2026-02-15T02:00:00Z"));
  donor = await h.signUp("maryam@example.com");
  billing = await giveInstalments(h, donor);
  await clock.moveTo("2026-03-16");
  expect((await pause(billing)).data.pauseRegularGift.changed).toBe(true);
  wrong = await giveInstalments(h, donor);
  monthly = `gift_${await h.donate({ fund: "sadaqah", amountCents: 2_500, frequency: "monthly" }, "succeeded", donor.access)}`;
  expect((await pause(monthly)).data.pauseRegularGift.changed).toBe(true);
  // What the older version wrote for a pause before the schedule started: the plan paused, no Stripe call.
  await sql`insert into account_plans (donation_id, paused, cancelled, skips, updated_at)
    values (${wrong.slice(5)}, true, false, 0, ${clock.now()})`.execute(h.service.db);
}, 120_000);

afterAll(async () => {
  await h?.stop();
});

describe("instalments shown paused while their Stripe schedule has not started", () => {
  it("are found, and only they", async () => {
    expect(await shown(wrong)).toMatchObject({ status: "PAUSED", nextChargeDate: null });
    const found = await findPausedNotStarted(h.service.deps, h.stripeSdk);
    expect(found).toEqual([
      {
        donationId: wrong.slice(5),
        reference: expect.stringMatching(/^NZF-/),
        scheduleId: expect.stringMatching(/^sub_sched_/),
        chargesOn: "2026-04-16",
      },
    ]);
  });

  it("are set active with a coded warning saying what to tell the donor; a second run changes nothing", async () => {
    const [plan] = await findPausedNotStarted(h.service.deps, h.stripeSdk);
    const posts = h.service.stripe.requests().filter((r) => r.method === "POST").length;
    const repaired = await repairPausedNotStarted(h.service.deps, h.stripeSdk, logger);
    expect(repaired).toEqual([plan]);
    expect(warnings).toEqual([
      `[API_PLAN_PAUSED_NOT_STARTED] Instalment plan ${plan!.reference} (donation ${plan!.donationId}) was shown paused although its Stripe schedule ${plan!.scheduleId} had not started, so Stripe charges it on 16 April 2026; the account now shows it active, with that payment next. An older version of the service recorded this pause without telling Stripe. Tell the donor (the reference names the plan) that their pause did not take effect and that the payment named will be charged unless they pause the plan again in their account (a pause now holds it at Stripe), skip that payment, or cancel the plan. Nothing else needs doing: the account and Stripe agree again.`,
    ]);
    // Nothing is changed at Stripe: the account now says what Stripe will do.
    expect(h.service.stripe.requests().filter((r) => r.method === "POST")).toHaveLength(posts);
    expect(await shown(wrong)).toMatchObject({ status: "ACTIVE", nextChargeDate: "2026-04-16", paidCount: 1 });
    expect(await shown(billing)).toMatchObject({ status: "PAUSED" });
    expect(await shown(monthly)).toMatchObject({ status: "PAUSED" });

    expect(await repairPausedNotStarted(h.service.deps, h.stripeSdk, logger)).toEqual([]);
    expect(warnings).toHaveLength(1);
  });

  it("the next payment comes on the date the account shows; the properly paused plan is charged nothing", async () => {
    await clock.moveTo("2026-04-16");
    expect(await billedBySchedule(wrong)).toEqual([["2026-04-16", 10_000]]);
    // Billed on 15 March, then paused: the April invoice voided.
    expect(await billedBySchedule(billing)).toEqual([["2026-03-15", 10_000]]);
    expect(await shown(wrong)).toMatchObject({ status: "ACTIVE", paidCount: 2, nextChargeDate: "2026-05-16" });
    expect(await shown(billing)).toMatchObject({ status: "PAUSED", paidCount: 2 });
  });

  it("runs when the service starts", async () => {
    // The plan set right above bills now: a new one paused as the older version did.
    const again = await giveInstalments(h, donor);
    await sql`insert into account_plans (donation_id, paused, cancelled, skips, updated_at)
      values (${again.slice(5)}, true, false, 0, ${clock.now()})`.execute(h.service.db);
    warnings.length = 0;
    const second = await startApiServer({
      port: 0,
      dataDir: h.service.dataDir,
      env: {
        STRIPE_SECRET_KEY: TEST_SECRET_KEY,
        STRIPE_WEBHOOK_SECRET: TEST_WEBHOOK_SECRET,
        STRIPE_API_BASE: h.service.stripe.url,
      },
      localPayPal: true,
      logger,
    });
    try {
      expect(warnings).toEqual([
        expect.stringMatching(
          new RegExp(`^\\[API_PLAN_PAUSED_NOT_STARTED\\] Instalment plan NZF-\\S+ \\(donation ${again.slice(5)}\\)`),
        ),
      ]);
      expect(await shown(again)).toMatchObject({ status: "ACTIVE", nextChargeDate: "2026-05-16" });
    } finally {
      await second.stop();
    }
  });
});
