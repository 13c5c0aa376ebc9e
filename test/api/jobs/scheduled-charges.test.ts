/**
 * The scheduled charges job, from the donor's side: "every Friday" $10 chosen on a Thursday, the
 * service's clock moved day by day over three Fridays, the job run twice each day: exactly three
 * charges at the Stripe stand-in, three receipts in the SMTP catcher, and the charges the account
 * reads. A run that died between its claim and Stripe's answer charges that date once on the next.
 */
import { randomUUID } from "node:crypto";
import { sql } from "kysely";
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { addDays, dueCharges } from "../../../src/api/jobs/due-charges.js";
import { runScheduledCharges } from "../../../src/api/jobs/scheduled-charges.js";
import { startApiServer } from "../../../src/api/node-server.js";
import { receiptsOf } from "../../../src/api/receipts/issue.js";
import type { SmtpCatcher } from "../../../src/stand-ins/smtp/catcher.js";
import { donationRequest } from "../../support/donation-request.js";
import {
  TEST_PUBLISHABLE_KEY,
  TEST_SECRET_KEY,
  TEST_WEBHOOK_SECRET,
  type TestPaymentsService,
} from "../../support/payments-service.js";
import { type MailingService, startMailingService, TEST_MAIL_SETTINGS } from "../../support/mailing-service.js";

// The service's job timer, made short for the one test of it (the services started before keep production's).
const timers = vi.hoisted(() => ({}) as { jobsEveryMs: number });
vi.mock("../../../src/api/service-timers.js", async (importOriginal) => {
  const actual = await importOriginal<typeof import("../../../src/api/service-timers.js")>();
  return { SERVICE_TIMERS: Object.assign(timers, actual.SERVICE_TIMERS) };
});

// Thursday 3 December 2026, noon in Sydney.
const THURSDAY = new Date("2026-12-03T01:00:00Z");
let clock = THURSDAY;
let service: TestPaymentsService;
let catcher: SmtpCatcher;
let mailing: MailingService;

beforeAll(async () => {
  mailing = await startMailingService({
    start: clock,
    now: () => clock,
    settings: { NZF_RECEIPT_CONTACT_EMAIL: undefined, NZF_DONOR_CARE_EMAIL: undefined, SITE_URL: undefined },
  });
  ({ service, catcher } = mailing);
});
afterAll(async () => {
  await mailing?.stop();
});
beforeEach(async () => {
  clock = THURSDAY;
  await service.reset();
  catcher.clear();
});

/** The donor chooses every Friday on Thursday and saves the card (a SetupIntent, confirmed as Stripe.js does). */
async function everyFriday(amountCents: number): Promise<string> {
  const res = await fetch(`${service.url}/donations`, {
    method: "POST",
    headers: { "Content-Type": "application/json", "Idempotency-Key": randomUUID() },
    body: JSON.stringify(donationRequest({ fund: "jumuah-giving", amountCents, frequency: "weekly-friday" })),
  });
  expect(res.status).toBe(201);
  const created = (await res.json()) as {
    donationId: string;
    clientSecret: string;
    intentType: string;
    schedule: { date: string }[];
  };
  expect(created.intentType).toBe("setup");
  expect(created.schedule[0]!.date).toBe("2026-12-04");
  const id = created.clientSecret.split("_secret_")[0]!;
  const confirmed = await fetch(`${service.stripe.url}/v1/setup_intents/${id}/confirm`, {
    method: "POST",
    headers: { "Content-Type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({
      key: TEST_PUBLISHABLE_KEY,
      client_secret: created.clientSecret,
      payment_method: "pm_card_visa",
    }),
  });
  expect(confirmed.status).toBe(200);
  await service.stripe.settled();
  return created.donationId;
}

const chargesAtStripe = async (donationId: string) =>
  (await service.deps.stripe!.paymentIntents.search({ query: `metadata['donation_id']:'${donationId}'` })).data.filter(
    (pi) => pi.status === "succeeded",
  );

describe("the scheduled charges job", () => {
  it('"every Friday" $10 from a Thursday: three Fridays, the job twice a day, three charges and three receipts', async () => {
    const donationId = await everyFriday(1_000);
    for (let day = 0; day <= 17; day++) {
      clock = new Date(THURSDAY.getTime() + day * 86_400_000);
      await runScheduledCharges(service.deps);
      await runScheduledCharges(service.deps);
      await service.stripe.settled();
    }
    const rows = await service.db
      .withTables<{ scheduled_charges: { donation_id: string; charge_date: string; status: string } }>()
      .selectFrom("scheduled_charges")
      .select(["charge_date", "status"])
      .where("donation_id", "=", donationId)
      .orderBy("charge_date")
      .execute();
    expect(rows).toEqual([
      { charge_date: "2026-12-04", status: "succeeded" },
      { charge_date: "2026-12-11", status: "succeeded" },
      { charge_date: "2026-12-18", status: "succeeded" },
    ]);
    expect((await chargesAtStripe(donationId)).map((pi) => pi.amount)).toEqual([1_000, 1_000, 1_000]);
    const charges = await service.db.selectFrom("charges").selectAll().where("donation_id", "=", donationId).execute();
    expect(charges).toHaveLength(3);
    const receipts = await receiptsOf(service.db, donationId);
    expect(receipts.map((r) => [r.number, r.amount_cents, r.email_status])).toEqual([
      ["2026-27/000001", 1_000, "sent"],
      ["2026-27/000002", 1_000, "sent"],
      ["2026-27/000003", 1_000, "sent"],
    ]);
    await catcher.waitFor(() => catcher.messages().length >= 3);
    expect(catcher.messages().map((m) => m.subject)).toEqual(
      [1, 2, 3].map((n) => `Your receipt 2026-27/00000${n} for your gift`),
    );
    expect(catcher.messages()[0]!.text).toMatch(/^Date: +4 December 2026$/m);
  });

  it("a run that died after claiming a date but before Stripe answered charges that date once on the next run", async () => {
    const donationId = await everyFriday(2_500);
    clock = new Date("2026-12-04T01:00:00Z");
    // The claim of a run that died before asking Stripe.
    await sql`insert into scheduled_charges (donation_id, charge_date, amount_cents, status, created_at, updated_at)
              values (${donationId}, '2026-12-04', 2500, 'claimed', now(), now())`.execute(service.db);
    const first = await runScheduledCharges(service.deps);
    const second = await runScheduledCharges(service.deps);
    await service.stripe.settled();
    expect(first.charged).toEqual([`${donationId}/2026-12-04`]);
    expect(second.charged).toEqual([]);
    expect(await chargesAtStripe(donationId)).toHaveLength(1);
  });

  it("in `nzf-build api` the service's own timer runs the job: a due Friday charged once, nobody calling it", async () => {
    const donationId = await everyFriday(1_500);
    clock = new Date("2026-12-04T01:00:00Z");
    // The service as `nzf-build api` starts it, on the same database, its job timer made short: runs
    // overlap (an interval does not wait for the last run), as two instances would.
    const production = timers.jobsEveryMs;
    timers.jobsEveryMs = 25;
    const timed = await startApiServer({
      port: 0,
      dataDir: service.dataDir,
      env: {
        STRIPE_SECRET_KEY: TEST_SECRET_KEY,
        STRIPE_WEBHOOK_SECRET: TEST_WEBHOOK_SECRET,
        STRIPE_API_BASE: service.stripe.url,
        // Its own receipts service, sending through the same catcher.
        ...TEST_MAIL_SETTINGS,
        NZF_SMTP_URL: catcher.smtpUrl,
      },
    }).finally(() => {
      timers.jobsEveryMs = production;
    });
    try {
      await expect.poll(() => receiptsOf(service.db, donationId).then((r) => r.length), { timeout: 20_000 }).toBe(1);
      // Many more runs find the date done.
      await new Promise((r) => setTimeout(r, 500));
    } finally {
      await timed.stop();
    }
    await service.stripe.settled();
    expect((await chargesAtStripe(donationId)).map((pi) => pi.amount)).toEqual([1_500]);
    expect((await receiptsOf(service.db, donationId)).map((r) => r.email_status)).toEqual(["sent"]);
    await catcher.waitFor(() => catcher.messages().length >= 1);
    expect(catcher.messages().map((m) => m.subject)).toEqual(["Your receipt 2026-27/000001 for your gift"]);
  });

  it("charges nothing for a cancelled or paused plan", async () => {
    const donationId = await everyFriday(1_000);
    await sql`insert into account_plans (donation_id, paused, cancelled, updated_at) values (${donationId}, true, false, now())`.execute(
      service.db,
    );
    clock = new Date("2026-12-11T01:00:00Z");
    expect((await runScheduledCharges(service.deps)).charged).toEqual([]);
    expect(await chargesAtStripe(donationId)).toHaveLength(0);
  });
});

describe("due charges (pure)", () => {
  const weekly = {
    frequency: "weekly-friday",
    intent_type: "setup" as const,
    total_cents: 1_000,
    schedule: [{ date: "2026-12-04", amountCents: 1_000 }],
  };
  it("goes on every 7 days for every Friday, and leaves the checkout's own first charge alone", () => {
    expect(dueCharges(weekly, "2026-12-03")).toEqual([]);
    expect(dueCharges(weekly, "2026-12-18").map((c) => c.date)).toEqual(["2026-12-04", "2026-12-11", "2026-12-18"]);
    expect(dueCharges({ ...weekly, intent_type: "payment" }, "2026-12-11").map((c) => c.date)).toEqual(["2026-12-11"]);
    expect(dueCharges({ ...weekly, frequency: "monthly-instalments" }, "2027-12-01")).toEqual([]);
    expect(addDays("2026-12-31", 1)).toBe("2027-01-01");
  });
});
