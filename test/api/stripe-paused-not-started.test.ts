/**
 * The data check for instalments an older version paused wrongly (before pauses held them at
 * Stripe): the account read PAUSED while the plan's Stripe schedule had not started, so Stripe
 * charged from its start and went on charging. The check finds exactly those (not yet started, or
 * billing with collection not paused), not a paused monthly gift nor instalments paused as the
 * account pauses today; pauses each at Stripe as the account does (the schedule marked as the
 * account's pause, then cancelled, keyed by the schedule), so the plan stays paused as the donor
 * asked; says what happened in a coded warning; changes nothing when run again; and runs when the
 * service starts. Then Stripe charges nothing until the donor resumes, and after it on the dates
 * the account shows. Read from the Stripe stand-in; dates by hand, noon in Sydney.
 */
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startApiServer } from "../../src/api/node-server.js";
import { findWronglyPaused, repairWronglyPaused } from "../../src/api/stripe/paused-not-started.js";
import { todayIn } from "../../src/payments/schedules.js";
import type { Account, Harness } from "../support/account-api-harness.js";
import { TEST_SECRET_KEY, TEST_WEBHOOK_SECRET } from "../support/payments-service.js";
import { giveInstalments, startHarnessOnClock, type TestClock } from "../support/stripe-test-clock.js";

let h: Harness;
let clock: TestClock;
let donor: Account;
/** Paused as the account pauses: its schedule cancelled as the account's pause. */
let pausedWell: string;
/** Shown paused by the older version once its schedule billed: Stripe went on charging. */
let charging: string;
/** Shown paused by the older version before its schedule started. */
let notStarted: string;
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
const rowOf = (id: string) =>
  h.service.db.selectFrom("donations").selectAll().where("id", "=", id.slice(5)).executeTakeFirstOrThrow();
/** What the older version wrote for a pause: the plan paused, nothing asked of Stripe. */
const pauseAsBefore = (id: string) =>
  sql`insert into account_plans (donation_id, paused, cancelled, skips, updated_at)
    values (${id.slice(5)}, true, false, 0, ${clock.now()})`.execute(h.service.db);
/** Days in Sydney Stripe charged the donor's card, oldest first. */
async function chargedDays(): Promise<string[]> {
  const customer = (await rowOf(monthly)).stripe_customer_id!;
  return (await h.stripeSdk.charges.list({ customer, limit: 100 })).data
    .filter((c) => c.status === "succeeded" && c.amount === 10_000)
    .map((c) => todayIn("Australia/Sydney", new Date(c.created * 1000)))
    .sort();
}

beforeAll(async () => {
  ({ h, clock } = await startHarnessOnClock("2026-02-15T02:00:00Z"));
  donor = await h.signUp("maryam@example.com");
  pausedWell = await giveInstalments(h, donor);
  charging = await giveInstalments(h, donor);
  await clock.moveTo("2026-03-16");
  expect((await pause(pausedWell)).data.pauseRegularGift.changed).toBe(true);
  await pauseAsBefore(charging);
  notStarted = await giveInstalments(h, donor);
  await pauseAsBefore(notStarted);
  monthly = `gift_${await h.donate({ fund: "sadaqah", amountCents: 2_500, frequency: "monthly" }, "succeeded", donor.access)}`;
  expect((await pause(monthly)).data.pauseRegularGift.changed).toBe(true);
}, 120_000);

afterAll(async () => {
  await h?.stop();
});

describe("instalments shown paused while Stripe charges them", () => {
  it("are found, and only they", async () => {
    const found = await findWronglyPaused(h.service.deps, h.stripeSdk);
    expect(found.sort((a, b) => (a.reference < b.reference ? -1 : 1))).toEqual(
      [
        {
          donationId: charging.slice(5),
          reference: (await rowOf(charging)).reference,
          scheduleId: (await rowOf(charging)).stripe_schedule_id,
          charging: true,
          chargesOn: "2026-04-15",
        },
        {
          donationId: notStarted.slice(5),
          reference: (await rowOf(notStarted)).reference,
          scheduleId: (await rowOf(notStarted)).stripe_schedule_id,
          charging: false,
          chargesOn: "2026-04-16",
        },
      ].sort((a, b) => (a.reference < b.reference ? -1 : 1)),
    );
  });

  it("are paused at Stripe as the account pauses, with a coded warning each; a second run changes nothing", async () => {
    const repaired = await repairWronglyPaused(h.service.deps, h.stripeSdk, logger);
    expect(repaired).toHaveLength(2);
    const late = await rowOf(notStarted);
    expect(warnings).toContain(
      `[API_PLAN_PAUSED_NOT_STARTED] Instalment plan ${late.reference} (donation ${late.id}) was shown paused although its Stripe schedule ${late.stripe_schedule_id} had not started and would have charged it on 16 April 2026; the schedule is now cancelled as the account's pause, so nothing is charged until the donor resumes it. An older version of the service recorded this pause without telling Stripe. Nothing more needs doing at Stripe: the plan is paused there now, as the account showed. If Stripe charged it while it was shown paused, tell the donor (the reference names the plan; those payments are in their history) and refund any they did not want.`,
    );
    expect(warnings.find((w) => w.includes(charging.slice(5)))).toMatch(
      /was shown paused while Stripe charged it through its schedule sub_sched_\w+, next on 15 April 2026;/,
    );
    for (const id of [charging, notStarted]) {
      const schedule = await h.stripeSdk.subscriptionSchedules.retrieve((await rowOf(id)).stripe_schedule_id!);
      expect(schedule.status).toBe("canceled");
      expect(schedule.metadata).toMatchObject({ nzf_paused_by_account: `${id.slice(5)}/repair-pause/${schedule.id}` });
    }
    await h.service.stripe.settled();
    // As the donor asked: still paused (the cancellations are the account's pause, not the plan's end).
    for (const id of [charging, notStarted, pausedWell, monthly])
      expect(await shown(id)).toMatchObject({ status: "PAUSED" });

    const posts = h.service.stripe.requests().filter((r) => r.method === "POST").length;
    expect(await repairWronglyPaused(h.service.deps, h.stripeSdk, logger)).toEqual([]);
    expect(warnings).toHaveLength(2);
    expect(h.service.stripe.requests().filter((r) => r.method === "POST")).toHaveLength(posts);
  });

  it("Stripe charges nothing more until the donor resumes; then on the dates the account shows", async () => {
    const before = await chargedDays();
    await clock.moveTo("2026-04-20");
    expect(await chargedDays()).toEqual(before);
    const resumed = (
      await h.gql(
        "mutation($id: ID!) { resumeRegularGift(id: $id) { gift { status nextChargeDate } } }",
        { id: notStarted },
        donor.access,
      )
    ).json.data.resumeRegularGift.gift;
    expect(resumed).toEqual({ status: "ACTIVE", nextChargeDate: "2026-05-16" });
    await clock.moveTo("2026-05-16");
    expect(await chargedDays()).toEqual([...before, "2026-05-16"].sort());
  });

  it("runs when the service starts", async () => {
    const again = await giveInstalments(h, donor);
    await pauseAsBefore(again);
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
      const schedule = await h.stripeSdk.subscriptionSchedules.retrieve((await rowOf(again)).stripe_schedule_id!);
      expect(schedule.status).toBe("canceled");
      expect(await shown(again)).toMatchObject({ status: "PAUSED" });
    } finally {
      await second.stop();
    }
  });
});
