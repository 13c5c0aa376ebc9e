/**
 * Plans are first-class and the history is truthful, over HTTP: 12 monthly zakat instalments show
 * as one plan ("1 of 12", the next date, the end date), each later charge joins the history paid
 * or failed, a checkout never paid shows nowhere, and every change goes to Stripe first (the
 * production plan provider, through the official SDK, at the Stripe stand-in): when Stripe cannot
 * be reached nothing changes, and an answer lost on the way back is retried without acting twice.
 * The network's faults are put between the service and the stand-in (stripe-fault-proxy.ts); what
 * Stripe did is read from Stripe's side. Dates worked out by hand from 15 March 2026.
 */
import type Stripe from "stripe";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Account, type Harness, startAccountHarness } from "../support/account-api-harness.js";

let h: Harness;
let donor: Account;
/** 15 March 2026, noon in Sydney. */
const clock = new Date("2026-03-15T01:00:00Z");
/** Stripe as the test reads it: straight at the stand-in, never through the faults. */
let stripe: Stripe;
const PLAN_FIELDS =
  "id reference fund schedule openEnded amountCents totalCents status paidCount chargeCount nextChargeDate endDate startDate scheduleTotalCents";
let planId: string;
let donationId: string;

const plans = async () => (await h.gql(`{ regularGifts { ${PLAN_FIELDS} } }`, {}, donor.access)).json.data.regularGifts;
const history = async () =>
  (
    await h.gql(
      "{ donations { id fund schedule totalCents date status chargeNumber chargeCount receipt { number } } }",
      {},
      donor.access,
    )
  ).json.data.donations;

beforeAll(async () => {
  h = await startAccountHarness({ now: () => clock, stripeFaults: true });
  stripe = h.stripeSdk;
  donor = await h.signUp("hafsa@example.com");
  // $1,200 of zakat in 12 monthly instalments of $100, the first today.
  donationId = await h.donate(
    { fund: "zakat", amountCents: 120_000, frequency: "monthly-instalments", instalments: { count: 12 } },
    "succeeded",
    donor.access,
  );
  // Abandoned checkouts: a one-off and a monthly gift whose card step was never finished.
  await h.donate({ fund: "sadaqah", amountCents: 5_000 }, "requires_payment_method", donor.access);
  await h.donate(
    { fund: "sadaqah", amountCents: 2_500, frequency: "monthly" },
    "requires_payment_method",
    donor.access,
  );
  await h.donate({ fund: "sadaqah", amountCents: 2_500 }, "requires_payment_method");
}, 60_000);

afterAll(async () => {
  await h?.stop();
});

describe("plans and history", () => {
  it("shows 12 monthly instalments as one plan, 1 of 12, with the next and the last date", async () => {
    const [plan, ...others] = await plans();
    expect(others).toEqual([]);
    planId = plan.id;
    expect(plan).toMatchObject({
      fund: "zakat",
      schedule: "monthly-instalments",
      openEnded: false,
      amountCents: 10_000,
      status: "ACTIVE",
      paidCount: 1,
      chargeCount: 12,
      startDate: "2026-03-15",
      nextChargeDate: "2026-04-15",
      endDate: "2027-02-15",
      scheduleTotalCents: 120_000,
    });
    expect(plan.reference).toMatch(/^NZF-/);
  });

  it("lists each charge that happened, never a checkout that was not paid", async () => {
    expect(await history()).toEqual([
      expect.objectContaining({
        fund: "zakat",
        date: "2026-03-15",
        status: "SUCCEEDED",
        chargeNumber: 1,
        chargeCount: 12,
      }),
    ]);
    // The guest's abandoned checkout is not offered to anyone either.
    expect((await h.gql("{ claimableGuestGifts }", {}, donor.access)).json.data.claimableGuestGifts).toBe(0);

    // The provider reports the second instalment paid, the third failed.
    await h.recordCharge(donationId, { id: "in_2", date: "2026-04-15", status: "succeeded" });
    await h.recordCharge(donationId, { id: "in_3", date: "2026-05-15", status: "failed" });
    const rows = await history();
    expect(
      rows.map((r: { chargeNumber: number; status: string; date: string }) => [r.chargeNumber, r.status, r.date]),
    ).toEqual([
      [3, "FAILED", "2026-05-15"],
      [2, "SUCCEEDED", "2026-04-15"],
      [1, "SUCCEEDED", "2026-03-15"],
    ]);
    // Each paid charge has its own receipt; a failed one has none.
    expect(rows.map((r: { receipt: { number: string } | null }) => r.receipt?.number ?? null)).toEqual([
      null,
      `${rows[2].receipt.number}-02`,
      expect.stringMatching(/^NZF-[0-9A-Z]{4}-[0-9A-Z]{4}$/),
    ]);
    const [plan] = await plans();
    // Two paid of twelve; the next is the fourth's date (a retry of the third is the provider's,
    // and replaces the failed row when it succeeds).
    expect(plan).toMatchObject({ paidCount: 2, chargeCount: 12, nextChargeDate: "2026-06-15" });
  });

  it("changes the plan at Stripe first; Stripe out of reach changes nothing, a lost answer acts once", async () => {
    const faults = h.service.stripeFaults!;
    const run = (m: string, vars: Record<string, unknown> = {}) =>
      h.gql(`mutation($id: ID!) { ${m} }`, { id: planId, ...vars }, donor.access);
    const { stripe_schedule_id: scheduleId } = await h.service.db
      .selectFrom("donations")
      .select("stripe_schedule_id")
      .where("id", "=", donationId)
      .executeTakeFirstOrThrow();
    // The first instalment was paid at once; Stripe's schedule bills the other eleven from 15 April.
    expect((await stripe.subscriptionSchedules.retrieve(scheduleId!)).status).toBe("not_started");
    /** What each phase of the schedule charges, read from Stripe. */
    const phaseAmounts = async () => {
      const schedule = await stripe.subscriptionSchedules.retrieve(scheduleId!);
      return Promise.all(
        schedule.phases.map(async (phase) => {
          const price = phase.items[0]!.price;
          return (await stripe.prices.retrieve(typeof price === "string" ? price : price.id)).unit_amount;
        }),
      );
    };
    const before = await phaseAmounts();
    expect(new Set(before)).toEqual(new Set([10_000]));
    /** The service's changes to the schedule, as Stripe received them. */
    const changesAtStripe = () =>
      h.service.stripe
        .requests()
        .filter((r) => r.method === "POST" && r.path === `/v1/subscription_schedules/${scheduleId}`);
    const change = "changeRegularGiftAmount(id: $id, amountCents: 15000) { changed gift { amountCents } }";

    // Stripe cannot be reached: the SDK's first call and its two retries are all cut on the way.
    faults.inject({ kind: "unreachable", match: "POST /v1/subscription_schedules/", times: 3 });
    const down = await run(change);
    expect(down.json.errors[0].extensions.code).toBe("PROVIDER_UNAVAILABLE");
    // Not "nothing was changed": a lost answer after Stripe acted looks the same to the service.
    expect(down.json.errors[0].message).toBe(
      "We could not get an answer from our payment provider, so your gift is shown as it was. Please try again in a few minutes: asking again never makes a change twice.",
    );
    expect(faults.met).toEqual(Array(3).fill(`unreachable POST /v1/subscription_schedules/${scheduleId}`));
    expect((await plans())[0].amountCents).toBe(10_000);
    expect(changesAtStripe()).toEqual([]);
    expect(await phaseAmounts()).toEqual(before);

    // Stripe makes the change but its answer is lost: the SDK asks again with the same key, Stripe
    // replays its first answer, and the schedule is changed once.
    faults.inject({ kind: "answer-lost", match: "POST /v1/subscription_schedules/" });
    const changed = await run(change);
    expect(changed.json.data.changeRegularGiftAmount).toEqual({ changed: true, gift: { amountCents: 15_000 } });
    expect(faults.met.at(-1)).toBe(`answer-lost POST /v1/subscription_schedules/${scheduleId}`);
    const [first, again, ...more] = changesAtStripe();
    expect(more).toEqual([]);
    expect(first).toMatchObject({ status: 200, replayed: false });
    expect(again).toMatchObject({ status: 200, replayed: true, idempotencyKey: first!.idempotencyKey });
    expect(await phaseAmounts()).toEqual(before.map(() => 15_000));
    await h.service.stripe.settled();
    expect(
      h.service.stripe
        .events()
        .filter((e) => e.type === "subscription_schedule.updated" && e.data.object.id === scheduleId),
    ).toHaveLength(1);

    // The schedule has not started: the pause cancels it (marked as the pause's first, so its
    // webhook is no cancellation), and the resume lays a new one for the payments that remain, at
    // the account's new amount.
    const paused = await run("pauseRegularGift(id: $id) { changed gift { status } }");
    expect(paused.json.data.pauseRegularGift).toEqual({ changed: true, gift: { status: "PAUSED" } });
    expect((await stripe.subscriptionSchedules.retrieve(scheduleId!)).status).toBe("canceled");
    await h.service.stripe.settled();
    expect((await plans())[0]).toMatchObject({ status: "PAUSED", amountCents: 15_000 });
    const resumed = await run("resumeRegularGift(id: $id) { changed gift { status amountCents } }");
    expect(resumed.json.data.resumeRegularGift).toEqual({
      changed: true,
      gift: { status: "ACTIVE", amountCents: 15_000 },
    });
    const { stripe_schedule_id: relaid } = await h.service.db
      .selectFrom("donations")
      .select("stripe_schedule_id")
      .where("id", "=", donationId)
      .executeTakeFirstOrThrow();
    expect(relaid).not.toBe(scheduleId);
    const laid = await stripe.subscriptionSchedules.retrieve(relaid!);
    expect(laid.status).toBe("not_started");
    // 3 of 12 made (2 paid, 1 declined, which the cancel ended): the other 9 at $150.
    const prices = await Promise.all(
      laid.phases.map(async (phase) => {
        const price = phase.items[0]!.price;
        return (await stripe.prices.retrieve(typeof price === "string" ? price : price.id)).unit_amount;
      }),
    );
    expect(new Set(prices)).toEqual(new Set([15_000]));
    const months = laid.phases.reduce((n, p) => n + Math.round((p.end_date - p.start_date) / (30.44 * 86_400)), 0);
    expect(months).toBe(9);
    // A new card starts as Stripe's SetupIntent for the donor's customer; nothing changes until it is saved.
    const card = await run("changeRegularGiftCard(id: $id) { clientSecret }");
    expect(card.json.data.changeRegularGiftCard.clientSecret).toMatch(/^seti_\w+_secret_\w+$/);
    expect(faults.met).toHaveLength(4);
  });

  it("a finished schedule is complete and cannot be changed", async () => {
    for (let n = 3; n <= 12; n++) {
      const month = String(((3 + n - 2) % 12) + 1).padStart(2, "0");
      await h.recordCharge(donationId, {
        id: `in_${n}`,
        date: `${n <= 10 ? 2026 : 2027}-${month}-15`,
        status: "succeeded",
      });
    }
    const [plan] = await plans();
    expect(plan).toMatchObject({ status: "COMPLETED", paidCount: 12, nextChargeDate: null });
    const pause = await h.gql(
      `mutation($id: ID!) { pauseRegularGift(id: $id) { changed } }`,
      { id: planId },
      donor.access,
    );
    expect(pause.json.errors[0].extensions.code).toBe("GIFT_CANCELLED");
    expect(pause.json.errors[0].message).toMatch(/is complete/);
    expect((await history()).filter((r: { status: string }) => r.status === "SUCCEEDED")).toHaveLength(12);
  });
});
