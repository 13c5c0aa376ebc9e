/**
 * An instalment plan's Stripe schedule cancelled or released outside the account (Stripe's
 * dashboard), told by Stripe's signed `subscription_schedule.canceled` / `.released`: a cancelled
 * schedule, or a released one that had not started (nothing more will be charged), makes the plan
 * read CANCELLED, and Stripe then charges nothing; a released schedule that bills leaves its
 * subscription billing with no end, so the plan is left as it is and a coded warning says what to
 * do. The attacker's side: a replayed event changes nothing more, a forged one is refused, and a
 * schedule naming a plan it does not bill (its metadata) changes nothing of that plan.
 * 12 zakat instalments of $100 from 15 March 2026, noon in Sydney; dates by hand.
 */
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Account, Harness } from "../support/account-api-harness.js";
import { giveInstalments, startHarnessOnClock, type TestClock } from "../support/stripe-test-clock.js";

let h: Harness;
let clock: TestClock;
let donor: Account;
/** Cancelled in Stripe's dashboard before it starts. */
let cancelled: string;
/** Released before it starts. */
let releasedEarly: string;
/** Named by another schedule's metadata, then released once it bills. */
let billing: string;

const shown = async (id: string) =>
  (
    (await h.gql("{ regularGifts { id status nextChargeDate paidCount } }", {}, donor.access)).json.data
      .regularGifts as { id: string; status: string; nextChargeDate: string | null; paidCount: number }[]
  ).find((g) => g.id === id)!;
const rowOf = (id: string) =>
  h.service.db.selectFrom("donations").selectAll().where("id", "=", id.slice(5)).executeTakeFirstOrThrow();
const planRow = async (id: string) =>
  (
    await sql<{ cancelled: boolean; updated_at: Date }>`select cancelled, updated_at from account_plans
      where donation_id = ${id.slice(5)}`.execute(h.service.db)
  ).rows[0];
/** The signed event Stripe sent about this schedule. */
const eventOf = (type: string, scheduleId: string) =>
  h.service.stripe.events().find((e) => e.type === type && (e.data.object as { id: string }).id === scheduleId)!;
/** What the plan's schedule billed, paid: days in Sydney. */
async function billedDays(id: string): Promise<number> {
  const schedule = await h.stripeSdk.subscriptionSchedules.retrieve((await rowOf(id)).stripe_schedule_id!);
  const subscription = schedule.subscription ?? schedule.released_subscription;
  if (!subscription) return 0;
  const invoices = await h.stripeSdk.invoices.list({
    subscription: typeof subscription === "string" ? subscription : subscription.id,
  });
  return invoices.data.filter((i) => i.status === "paid").length;
}

beforeAll(async () => {
  ({ h, clock } = await startHarnessOnClock("2026-03-15T02:00:00Z"));
  donor = await h.signUp("khadija@example.com");
  cancelled = await giveInstalments(h, donor);
  billing = await giveInstalments(h, donor);
}, 120_000);

afterAll(async () => {
  await h?.stop();
});

describe("an instalment schedule cancelled or released in Stripe", () => {
  it("cancelled before it starts: the plan reads cancelled, and Stripe charges nothing more", async () => {
    await clock.moveTo("2026-03-20");
    const scheduleId = (await rowOf(cancelled)).stripe_schedule_id!;
    await h.stripeSdk.subscriptionSchedules.cancel(scheduleId);
    await h.service.stripe.settled();
    expect(await shown(cancelled)).toMatchObject({ status: "CANCELLED", nextChargeDate: null, paidCount: 1 });
    await clock.moveTo("2026-04-16");
    expect(await billedDays(cancelled)).toBe(0);
    expect(await shown(cancelled)).toMatchObject({ status: "CANCELLED", paidCount: 1 });
  });

  it("the same event again changes nothing more; a forged one is refused", async () => {
    const event = eventOf("subscription_schedule.canceled", (await rowOf(cancelled)).stripe_schedule_id!);
    const before = await planRow(cancelled);
    expect(await h.service.stripe.redeliver(event.id)).toBe(200);
    expect(await planRow(cancelled)).toEqual(before);
    expect(await h.service.stripe.redeliver(event.id, { signatureSecret: "whsec_not_the_service_s" })).toBe(400);
    expect(await planRow(cancelled)).toEqual(before);
  });

  it("released before it starts: nothing will be charged, so the plan reads cancelled", async () => {
    releasedEarly = await giveInstalments(h, donor);
    await h.stripeSdk.subscriptionSchedules.release((await rowOf(releasedEarly)).stripe_schedule_id!);
    await h.service.stripe.settled();
    expect(await shown(releasedEarly)).toMatchObject({ status: "CANCELLED", nextChargeDate: null });
    await clock.moveTo("2026-05-17");
    expect(await billedDays(releasedEarly)).toBe(0);
  });

  it("a schedule that names a plan it does not bill changes nothing of that plan", async () => {
    const row = await rowOf(billing);
    const other = await h.stripeSdk.subscriptionSchedules.create({
      customer: row.stripe_customer_id!,
      start_date: Math.floor(Date.parse("2026-06-01T00:00:00Z") / 1000),
      end_behavior: "cancel",
      phases: [
        {
          items: [
            {
              price_data: {
                currency: "aud",
                product: "nzf_fund_zakat",
                unit_amount: 100,
                recurring: { interval: "month" },
              },
            },
          ],
          duration: { interval: "month", interval_count: 1 },
        },
      ],
      metadata: { donation_id: row.id },
    });
    await h.stripeSdk.subscriptionSchedules.cancel(other.id);
    await h.service.stripe.settled();
    expect(
      h.service.stripe
        .deliveries()
        .filter((d) => d.type === "subscription_schedule.canceled")
        .at(-1),
    ).toMatchObject({
      status: 200,
    });
    expect(await shown(billing)).toMatchObject({ status: "ACTIVE", paidCount: 3, nextChargeDate: "2026-06-15" });
  });

  it("released once it bills: the plan is left as it is, with a coded warning saying what to do", async () => {
    const scheduleId = (await rowOf(billing)).stripe_schedule_id!;
    const released = await h.stripeSdk.subscriptionSchedules.release(scheduleId);
    await h.service.stripe.settled();
    expect(h.logged).toContain(
      `warn [API_SCHEDULE_RELEASED] The Stripe schedule ${scheduleId} of instalment plan ${(await rowOf(billing)).reference} (donation ${billing.slice(5)}) was released: its subscription ${released.released_subscription} now bills every month with no end. The plan is left as it was: cancel that subscription in Stripe after the plan's last payment (the donor's account shows its end date), or cancel the plan in the donor's account; the service will not guess.`,
    );
    expect(await shown(billing)).toMatchObject({ status: "ACTIVE", nextChargeDate: "2026-06-15" });
  });
});
