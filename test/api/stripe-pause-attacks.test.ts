/**
 * The attacker's and the unlucky donor's side of pausing card instalments (plan-provider.ts): four
 * plans on one clock, each its own donor (so Stripe's charges are read per customer). A: paused
 * and resumed on a billing day, paused again with a new amount, resumed, paused and resumed on the
 * resumed schedule; B: resumed after its plan's original end; C: paused then cancelled; D: a
 * payment skipped, then paused and resumed before the skipped date; E: a skip and a pause at once;
 * F: the account's own writes of changes made at once; G: paused and resumed on a billing day
 * before that day's charge. Stripe's own charges must be
 * the number pledged, at the dates and amounts the account showed; another donor's token on every
 * change answers GIFT_NOT_FOUND with no Stripe request; a late or replayed webhook of an old
 * schedule changes nothing. Instalments of $100 from 15 March 2026, noon in Sydney; dates by hand.
 */
import { randomUUID } from "node:crypto";
import Stripe from "stripe";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDbRecords } from "../../src/account-api/db-records.js";
import type { PlanProvider } from "../../src/account-api/plan-provider.js";
import { createStoreOver } from "../../src/account-api/store.js";
import { todayIn } from "../../src/payments/schedules.js";
import type { Account, Harness } from "../support/account-api-harness.js";
import { TEST_WEBHOOK_SECRET } from "../support/payments-service.js";
import { startHarnessOnClock, type TestClock } from "../support/stripe-test-clock.js";

let h: Harness;
let clock: TestClock;
const donors: Record<"a" | "b" | "c" | "d" | "e" | "f" | "g", Account> = {} as never;
const gifts: Record<"a" | "b" | "c" | "d" | "e" | "f" | "g", string> = {} as never;
type Key = keyof typeof gifts;
/** Whether E's skip, made at once with its pause, was made. */
let eSkipped = false;

const FIELDS = "changed gift { status nextChargeDate endDate paidCount amountCents }";
async function change(k: Key, mutation: string, args = "", vars: Record<string, unknown> = {}, token?: string) {
  const params = Object.keys(vars)
    .map(
      (v) => `, $${v}: ${typeof vars[v] === "number" ? "Int!" : typeof vars[v] === "boolean" ? "Boolean!" : "String!"}`,
    )
    .join("");
  const res = await h.gql(
    `mutation($id: ID!${params}) { ${mutation}(id: $id${args}) { ${mutation === "changeRegularGiftCard" ? "message" : FIELDS} } }`,
    { id: gifts[k], ...vars },
    token ?? donors[k].access,
  );
  return res.json;
}
const pause = (k: Key) => change(k, "pauseRegularGift");
const resume = (k: Key) => change(k, "resumeRegularGift");
/** A minute later on the services' clock (Stripe's test clock stays): a second change is its own. */
const aMinuteOn = () => clock.set(new Date(clock.now().getTime() + 60_000));

async function shown(k: Key) {
  const gifts_ = (
    await h.gql("{ regularGifts { id status nextChargeDate endDate paidCount amountCents } }", {}, donors[k].access)
  ).json.data.regularGifts as {
    id: string;
    status: string;
    nextChargeDate: string | null;
    endDate: string;
    paidCount: number;
  }[];
  return gifts_.find((g) => g.id === gifts[k])!;
}
const rowOf = (k: Key) =>
  h.service.db.selectFrom("donations").selectAll().where("id", "=", gifts[k].slice(5)).executeTakeFirstOrThrow();
/** What Stripe charged the donor's card, oldest first: [day in Sydney, cents]. */
async function stripeCharges(k: Key) {
  const customer = (await rowOf(k)).stripe_customer_id!;
  return (await h.stripeSdk.charges.list({ customer, limit: 100 })).data
    .filter((c) => c.status === "succeeded")
    .map((c) => [todayIn("Australia/Sydney", new Date(c.created * 1000)), c.amount] as const)
    .sort((a, b) => (a[0] < b[0] ? -1 : 1));
}
/** Each date the plans show next, the clock moved to the earliest, until none shows one. */
async function followToEnd(keys: Key[]): Promise<Record<string, string[]>> {
  const dates: Record<string, string[]> = Object.fromEntries(keys.map((k) => [k, []]));
  for (;;) {
    const next = await Promise.all(keys.map(async (k) => [k, (await shown(k)).nextChargeDate] as const));
    for (const [k, date] of next) if (date && dates[k]!.at(-1) !== date) dates[k]!.push(date);
    const due = next.map(([, d]) => d).filter((d): d is string => d !== null);
    if (due.length === 0) return dates;
    await clock.moveTo(due.sort()[0]!);
  }
}
/** A first delivery, late, of an event Stripe sent before: a new id, signed as Stripe signs. */
async function deliverLate(event: { id: string; type: string; data: unknown }): Promise<number> {
  const payload = JSON.stringify({ ...event, id: `evt_late_${randomUUID().replaceAll("-", "")}` });
  const header = Stripe.webhooks.generateTestHeaderString({ payload, secret: TEST_WEBHOOK_SECRET });
  const res = await fetch(`${h.service.url}/stripe/webhook`, {
    method: "POST",
    headers: { "content-type": "application/json", "stripe-signature": header },
    body: payload,
  });
  await h.service.stripe.settled();
  return res.status;
}

beforeAll(async () => {
  ({ h, clock } = await startHarnessOnClock("2026-03-15T01:00:00Z"));
  for (const k of ["a", "b", "c", "d", "e", "f", "g"] as const) donors[k] = await h.signUp(`pause-${k}@example.com`);
  // Each gift in its own donor's name, so each has its own Stripe customer.
  const give = async (k: Key, count: number) =>
    `gift_${await h.donate(
      {
        fund: "zakat",
        amountCents: count * 10_000,
        frequency: "monthly-instalments",
        instalments: { count },
        donor: { firstName: "Test", lastName: k, email: donors[k].email, phone: "0412 345 678" },
      },
      "succeeded",
      donors[k].access,
    )}`;
  gifts.a = await give("a", 12);
  gifts.b = await give("b", 3);
  gifts.c = await give("c", 6);
  gifts.d = await give("d", 12);
  gifts.e = await give("e", 12);
  gifts.f = await give("f", 12);
  gifts.g = await give("g", 12);
  const customers = await Promise.all(
    (["a", "b", "c", "d", "e", "f", "g"] as const).map(async (k) => (await rowOf(k)).stripe_customer_id),
  );
  expect(new Set(customers).size).toBe(7);
  await clock.moveTo("2026-04-16");
}, 180_000);

afterAll(async () => {
  await h?.stop();
});

describe("attacking the pause of card instalments", () => {
  it("another donor's token on every change of a plan: GIFT_NOT_FOUND, nothing asked of Stripe", async () => {
    const other = await h.signUp("pause-intruder@example.com");
    const requests = h.service.stripe.requests().length;
    const attempts: [string, string, Record<string, unknown>][] = [
      ["pauseRegularGift", "", {}],
      ["resumeRegularGift", "", {}],
      ["changeRegularGiftAmount", ", amountCents: $amountCents", { amountCents: 5_000 }],
      ["skipRegularGiftCharge", ", date: $date", { date: "2026-05-15" }],
      ["cancelRegularGift", ", confirm: $confirm", { confirm: true }],
      ["changeRegularGiftCard", "", {}],
    ];
    for (const [mutation, args, vars] of attempts) {
      const res = await change("a", mutation, args, vars, other.access);
      expect(res.errors?.[0]?.extensions?.code, mutation).toBe("GIFT_NOT_FOUND");
    }
    expect(h.service.stripe.requests()).toHaveLength(requests);
    expect(await shown("a")).toMatchObject({ status: "ACTIVE", paidCount: 2, nextChargeDate: "2026-05-15" });
  });

  it("two pauses at once: one pause at Stripe, both answer paused", async () => {
    const schedule = (await rowOf("b")).stripe_schedule_id!;
    const [one, two] = await Promise.all([pause("b"), pause("b")]);
    for (const res of [one, two]) expect(res.data.pauseRegularGift.gift).toMatchObject({ status: "PAUSED" });
    const after = await h.stripeSdk.subscriptionSchedules.retrieve(schedule);
    expect(after.status).toBe("canceled");
    expect(after.metadata).toMatchObject({ nzf_paused_by_account: expect.stringMatching(/\/plan\/pause\//) });
    expect(await shown("b")).toMatchObject({ status: "PAUSED", paidCount: 2 });
  });

  it("a skip and a pause at once: the account keeps both, so the resume keeps the skip", async () => {
    const [skipped, paused] = await Promise.all([
      change("e", "skipRegularGiftCharge", ", date: $date", { date: "2026-05-15" }),
      pause("e"),
    ]);
    expect(paused.data.pauseRegularGift.gift).toMatchObject({ status: "PAUSED" });
    // The skip may find the schedule cancelled already (Stripe refuses: nothing kept); if it was
    // made, it is kept beside the pause (each wrote back the other's field as it read it before).
    const made = skipped.data !== null;
    if (!made) expect(skipped.errors[0].extensions.code).toBe("PROVIDER_UNAVAILABLE");
    const plan = await h.service.db
      .selectFrom("account_plans" as never)
      .selectAll()
      .where("donation_id" as never, "=", gifts.e.slice(5) as never)
      .executeTakeFirstOrThrow();
    expect(plan).toMatchObject({ paused: true, skips: made ? 1 : 0 });
    aMinuteOn();
    expect((await resume("e")).data.resumeRegularGift.gift).toMatchObject({
      status: "ACTIVE",
      nextChargeDate: made ? "2026-06-15" : "2026-05-15",
    });
    eSkipped = made;
  });

  it("a skip and a new amount kept while a pause waits for its provider: the account keeps all three", async () => {
    // The account's store on the service's database with a provider that holds the pause, so the
    // other two are read, made and kept between the pause's read and its write (F's choice only).
    let release = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    let pausing = false;
    const provider: PlanProvider = {
      pause: async () => {
        pausing = true;
        await held;
      },
      resume: async () => {},
      changeAmount: async () => {},
      cancel: async () => {},
      skipNext: async () => {},
      cardChange: async () => null,
    };
    const store = createStoreOver(createDbRecords(h.service.db as never), { provider });
    const who = { sub: donors.f.sub };
    const paused = store.pause(who, gifts.f);
    while (!pausing) await new Promise((resolve) => setTimeout(resolve, 5));
    await store.skipNext(who, gifts.f, "2026-05-15");
    await store.changeAmount(who, gifts.f, 15_000);
    release();
    await paused;
    const plan = await h.service.db
      .selectFrom("account_plans" as never)
      .selectAll()
      .where("donation_id" as never, "=", gifts.f.slice(5) as never)
      .executeTakeFirstOrThrow();
    expect(plan).toMatchObject({ paused: true, skips: 1, amount_cents: 15_000, cancelled: false });
  });

  it("paused then cancelled: nothing more is charged, the plan reads cancelled", async () => {
    expect((await pause("c")).data.pauseRegularGift.gift).toMatchObject({ status: "PAUSED" });
    aMinuteOn();
    const res = await change("c", "cancelRegularGift", ", confirm: $confirm", { confirm: true });
    expect(res.data.cancelRegularGift.gift).toMatchObject({ status: "CANCELLED", nextChargeDate: null });
    aMinuteOn();
    // A resume after the cancel is refused: no schedule laid again.
    expect((await resume("c")).errors?.[0]?.extensions?.code).toBe("GIFT_CANCELLED");
  });

  it("a payment skipped, then paused and resumed before it: still skipped, at Stripe as shown", async () => {
    const skipped = await change("d", "skipRegularGiftCharge", ", date: $date", { date: "2026-05-15" });
    expect(skipped.data.skipRegularGiftCharge.gift).toMatchObject({ nextChargeDate: "2026-06-15" });
    await clock.moveTo("2026-04-20");
    expect((await pause("d")).data.pauseRegularGift.gift).toMatchObject({ status: "PAUSED" });
    aMinuteOn();
    const resumed = (await resume("d")).data.resumeRegularGift.gift;
    expect(resumed).toMatchObject({ status: "ACTIVE", nextChargeDate: "2026-06-15", endDate: "2027-03-15" });
  });

  it("G paused and resumed on a billing day before its charge: that payment a month on, none lost", async () => {
    // 9:30 am in Sydney on 15 May: Stripe bills the day's payment later that day.
    const morning = new Date("2026-05-14T23:30:00Z");
    await h.service.stripe.advanceTo(morning);
    await h.service.stripe.settled();
    clock.set(morning);
    expect(await shown("g")).toMatchObject({ status: "ACTIVE", paidCount: 2 });
    expect(await stripeCharges("g")).toHaveLength(2);
    expect((await pause("g")).data.pauseRegularGift.gift).toMatchObject({ status: "PAUSED", paidCount: 2 });
    aMinuteOn();
    expect((await resume("g")).data.resumeRegularGift.gift).toMatchObject({
      status: "ACTIVE",
      nextChargeDate: "2026-06-15",
      endDate: "2027-03-15",
      paidCount: 2,
    });
  });

  it("A paused and resumed on a billing day (after its charge): the next a month on, as before", async () => {
    await clock.moveTo("2026-05-15");
    expect(await shown("a")).toMatchObject({ paidCount: 3, nextChargeDate: "2026-06-15" });
    expect((await pause("a")).data.pauseRegularGift.gift).toMatchObject({ status: "PAUSED", paidCount: 3 });
    aMinuteOn();
    expect((await resume("a")).data.resumeRegularGift.gift).toMatchObject({
      status: "ACTIVE",
      nextChargeDate: "2026-06-15",
      endDate: "2027-02-15",
    });
  });

  it("a late first delivery of the old schedule's cancellation or invoice changes nothing", async () => {
    const events = h.service.stripe.events();
    const old = events.find(
      (e) =>
        e.type === "subscription_schedule.canceled" &&
        (e.data.object as { metadata?: Record<string, string> }).metadata?.donation_id === gifts.a.slice(5),
    )!;
    expect(old).toBeDefined();
    const customer = (await rowOf("a")).stripe_customer_id;
    const paid = events.filter(
      (e) => e.type === "invoice.paid" && (e.data.object as { customer?: string }).customer === customer,
    );
    // Its first payment was an intent's; April's and May's were the schedule's invoices.
    expect(paid.length).toBe(2);
    const charges = () =>
      h.service.db.selectFrom("charges").select(["id"]).where("donation_id", "=", gifts.a.slice(5)).execute();
    const before = (await charges()).length;
    expect(await deliverLate(old)).toBe(200);
    for (const e of paid) expect(await deliverLate(e)).toBe(200);
    // Replayed as they were, too; and forged: refused.
    expect(await h.service.stripe.redeliver(paid.at(-1)!.id)).toBe(200);
    expect(await h.service.stripe.redeliver(old.id, { signatureSecret: "whsec_someone_else" })).toBe(400);
    const unsigned = await fetch(`${h.service.url}/stripe/webhook`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ ...old, id: "evt_unsigned" }),
    });
    expect(unsigned.status).toBe(400);
    expect((await charges()).length).toBe(before);
    expect(await shown("a")).toMatchObject({ status: "ACTIVE", paidCount: 3, nextChargeDate: "2026-06-15" });
  });

  it("A paused with a new amount, resumed; paused and resumed again on the resumed schedule", async () => {
    await clock.moveTo("2026-06-20");
    expect(await shown("a")).toMatchObject({ paidCount: 4 });
    await pause("a");
    aMinuteOn();
    const amount = await change("a", "changeRegularGiftAmount", ", amountCents: $amountCents", { amountCents: 15_000 });
    expect(amount.data.changeRegularGiftAmount.gift).toMatchObject({ status: "PAUSED", amountCents: 15_000 });
    await clock.moveTo("2026-07-01");
    expect((await resume("b")).data.resumeRegularGift.gift).toMatchObject({
      status: "ACTIVE",
      nextChargeDate: "2026-07-15",
      endDate: "2026-07-15",
    });
    await clock.moveTo("2026-08-20");
    expect((await resume("a")).data.resumeRegularGift.gift).toMatchObject({
      status: "ACTIVE",
      nextChargeDate: "2026-09-15",
      endDate: "2027-04-15",
      paidCount: 4,
    });
    await clock.moveTo("2026-09-16");
    await pause("a");
    aMinuteOn();
    expect((await resume("a")).data.resumeRegularGift.gift).toMatchObject({
      status: "ACTIVE",
      nextChargeDate: "2026-10-15",
      endDate: "2027-04-15",
      paidCount: 5,
    });
  });

  it("Stripe charged each plan exactly what it pledged, on the dates the account showed", async () => {
    const followed = await followToEnd(["a", "d", "e", "g"]);
    const shownA = followed.a!;
    const shownD = followed.d!;
    await clock.moveTo("2027-06-01");
    expect(shownA).toEqual([
      "2026-10-15",
      "2026-11-15",
      "2026-12-15",
      "2027-01-15",
      "2027-02-15",
      "2027-03-15",
      "2027-04-15",
    ]);
    expect(await stripeCharges("a")).toEqual([
      ...["2026-03-15", "2026-04-15", "2026-05-15", "2026-06-15"].map((d) => [d, 10_000] as const),
      ...["2026-09-15", ...shownA].map((d) => [d, 15_000] as const),
    ]);
    expect(await shown("a")).toMatchObject({ status: "COMPLETED", paidCount: 12 });
    expect(await stripeCharges("b")).toEqual(
      ["2026-03-15", "2026-04-15", "2026-07-15"].map((d) => [d, 10_000] as const),
    );
    expect(await shown("b")).toMatchObject({ status: "COMPLETED", paidCount: 3 });
    expect(await stripeCharges("c")).toEqual(["2026-03-15", "2026-04-15"].map((d) => [d, 10_000] as const));
    expect(await shown("c")).toMatchObject({ status: "CANCELLED", paidCount: 2 });
    // D's plan billed June to September while A's dates were followed; none on the skipped 15 May.
    const fromJune = [
      ...["2026-06-15", "2026-07-15", "2026-08-15", "2026-09-15", "2026-10-15", "2026-11-15", "2026-12-15"],
      ...["2027-01-15", "2027-02-15", "2027-03-15"],
    ];
    expect(shownD).toEqual(fromJune.slice(4));
    expect(await stripeCharges("d")).toEqual(
      ["2026-03-15", "2026-04-15", ...fromJune].map((d) => [d, 10_000] as const),
    );
    expect(await shown("d")).toMatchObject({ status: "COMPLETED", paidCount: 12 });
    const e = (await stripeCharges("e")).map(([d]) => d);
    expect(e).toHaveLength(12);
    expect(e.includes("2026-05-15")).toBe(!eSkipped);
    expect(e.slice(eSkipped ? 2 : 3)).toEqual(fromJune.slice(0, eSkipped ? 10 : 9));
    expect(await shown("e")).toMatchObject({ status: "COMPLETED", paidCount: 12 });
    expect(await stripeCharges("g")).toEqual(
      ["2026-03-15", "2026-04-15", ...fromJune].map((d) => [d, 10_000] as const),
    );
    expect(await shown("g")).toMatchObject({ status: "COMPLETED", paidCount: 12 });
  });
});
