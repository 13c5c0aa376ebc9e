/**
 * $457.50 of zakat in 12 monthly instalments, from the donor's side: the first paid at checkout,
 * the other 11 charged by Stripe's schedule month by month (the Stripe stand-in's clock moved),
 * each with its receipt "n of 12"; after the 12th the plan has ended, and the 13th month (and
 * the scheduled charges job run each month) charges nothing.
 */
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runScheduledCharges } from "../../../src/api/jobs/scheduled-charges.js";
import { receiptsOf } from "../../../src/api/receipts/issue.js";
import { createDbRecords } from "../../../src/account-api/db-records.js";
import { createStoreOver } from "../../../src/account-api/store.js";
import type { SmtpCatcher } from "../../../src/stand-ins/smtp/catcher.js";
import { donationRequest } from "../../support/donation-request.js";
import { TEST_PUBLISHABLE_KEY, type TestPaymentsService } from "../../support/payments-service.js";
import { type MailingService, startMailingService } from "../../support/mailing-service.js";

const START = new Date("2026-12-03T01:00:00Z");
let clock = START;
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
  service.stripe.setNow(START);
});
afterAll(async () => {
  await mailing?.stop();
});

const monthsAfter = (date: Date, months: number) => {
  const d = new Date(date);
  d.setUTCMonth(d.getUTCMonth() + months);
  return d;
};

describe("zakat in 12 instalments", () => {
  it("$457.50: 12 payments with their receipts, then the plan ends and the 13th month charges nothing", async () => {
    const res = await fetch(`${service.url}/donations`, {
      method: "POST",
      headers: { "Content-Type": "application/json", "Idempotency-Key": randomUUID() },
      body: JSON.stringify(
        donationRequest({
          fund: "zakat",
          amountCents: 45_750,
          frequency: "monthly-instalments",
          instalments: { count: 12 },
        }),
      ),
    });
    expect(res.status).toBe(201);
    const created = (await res.json()) as { donationId: string; clientSecret: string };
    const intentId = created.clientSecret.split("_secret_")[0]!;
    const confirmed = await fetch(`${service.stripe.url}/v1/payment_intents/${intentId}/confirm`, {
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
    // Given signed in: filed under the donor's account, which reads the plan as the account page shows it.
    const sub = randomUUID();
    await service.db.updateTable("donations").set({ user_sub: sub }).where("id", "=", created.donationId).execute();
    const account = createStoreOver(createDbRecords(service.db as never));
    const plan = async () => {
      const [gift] = await account.regularGifts({ sub });
      return (
        gift && { status: gift.status, paid: `${gift.paidCount} of ${gift.chargeCount}`, next: gift.nextChargeDate }
      );
    };
    expect(await plan()).toMatchObject({ status: "ACTIVE", paid: "1 of 12", next: expect.any(String) });

    const charged: number[] = [];
    for (let month = 1; month <= 13; month++) {
      clock = monthsAfter(START, month);
      await service.stripe.advanceTo(new Date(clock.getTime() + 3_600_000));
      await service.stripe.settled();
      const job = await runScheduledCharges(service.deps);
      expect(job.charged, "the job does not charge instalments: Stripe's schedule does").toEqual([]);
      const charges = await service.db
        .selectFrom("charges")
        .select("amount_cents")
        .where("donation_id", "=", created.donationId)
        .execute();
      charged.push(charges.length);
      // "3 of 12" in the account as on the receipt.
      if (month === 2) expect(await plan()).toMatchObject({ status: "ACTIVE", paid: "3 of 12" });
    }
    expect(charged.slice(-2)).toEqual([12, 12]);
    // After the 12th the plan has ended: complete, nothing more to charge, at Stripe too.
    expect(await plan()).toEqual({ status: "COMPLETED", paid: "12 of 12", next: null });
    const row = await service.db
      .selectFrom("donations")
      .select(["stripe_schedule_id", "stripe_subscription_id"])
      .where("id", "=", created.donationId)
      .executeTakeFirstOrThrow();
    const schedule = await service.deps.stripe!.subscriptionSchedules.retrieve(row.stripe_schedule_id!);
    expect(schedule.status).toBe("completed");
    expect(schedule.end_behavior).toBe("cancel");
    const charges = await service.db
      .selectFrom("charges")
      .select("amount_cents")
      .where("donation_id", "=", created.donationId)
      .execute();
    expect(charges.reduce((sum, c) => sum + c.amount_cents, 0)).toBe(45_750);

    const receipts = await receiptsOf(service.db, created.donationId);
    expect(receipts.map((r) => r.body.instalment)).toEqual(
      Array.from({ length: 12 }, (_, i) => ({ index: i + 1, count: 12 })),
    );
    // 11 × $38.12 and the cents left over on the last: $38.18.
    expect(receipts.map((r) => r.amount_cents)).toEqual([...Array(11).fill(3_812), 3_818]);
    await catcher.waitFor(() => catcher.messages().length >= 12);
    expect(catcher.messages().filter((m) => /^Instalment: +12 of 12$/m.test(m.text))).toHaveLength(1);
    expect(catcher.messages().filter((m) => /^Instalment: +3 of 12$/m.test(m.text))).toHaveLength(1);
  }, 120_000);
});
