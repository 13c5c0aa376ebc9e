/**
 * Receipts in the service's database: one per payment however often its event comes, numbered per
 * financial year without gaps or reuse, voided and corrected by refunds, and e-mailed through an
 * outbox that keeps every receipt whatever the mail server does.
 */
import type { Kysely } from "kysely";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { ApiDatabase, NewDonation } from "../../../src/api/db/schema.js";
import { deliverReceipts } from "../../../src/api/receipts/deliver.js";
import { issueReceipt, type ReceiptIssuing, receiptsOf, voidForRefund } from "../../../src/api/receipts/issue.js";
import type { Mailer } from "../../../src/receipts/mailer.js";
import { createMailer } from "../../../src/receipts/mailer.js";
import { type SmtpCatcher, startSmtpCatcher } from "../../../src/stand-ins/smtp/catcher.js";
import type { ApiDb } from "../../../src/api/db/open.js";
import { openTestApiDb, resetApiDb } from "../../support/api-db.js";
import { setServiceClock, restoreRealClock } from "../../support/service-clock.js";

// The outbox's retries come due by the services' clock (test/support/service-clock.ts).

let db: Kysely<ApiDatabase>;
let catcher: SmtpCatcher;
const issuing: ReceiptIssuing = {
  issuer: { name: "National Zakat Foundation Australia", abn: "51 824 753 556" },
  taxDeductible: (fund) => fund !== "zakat" && fund !== "qurban",
  mailing: true,
};

let handle: ApiDb;
beforeAll(async () => {
  handle = await openTestApiDb();
  db = handle.db;
  catcher = await startSmtpCatcher();
}, 60_000);
afterAll(async () => {
  await handle?.close();
  await catcher?.stop();
});
beforeEach(async () => {
  await resetApiDb(db);
  catcher.clear();
});
afterEach(restoreRealClock);

async function donation(id: string, fund = "zakat", extra: Partial<NewDonation> = {}) {
  const now = new Date();
  await db
    .insertInto("donations")
    .values({
      id,
      reference: `NZF-${id}`,
      idempotency_key: id,
      fund,
      frequency: "once",
      intent_type: "payment",
      amount_cents: 10_000,
      fee_cents: 0,
      total_cents: 10_000,
      schedule_total_cents: 10_000,
      open_ended: false,
      schedule: "[]",
      status: "succeeded",
      donor_first_name: "Aisha",
      donor_last_name: "Rahman",
      donor_email: "aisha@example.org",
      donor_phone: "0400000000",
      cover_fees: false,
      client_secret: "",
      created_at: now,
      updated_at: now,
      ...extra,
    })
    .execute();
}

const visa = { brand: "Visa", last4: "4242" };
const paid = (donationId: string, chargeId: string, at: string, amountCents = 10_000) => ({
  donationId,
  chargeId,
  amountCents,
  paidAt: new Date(at),
  paymentMethod: visa,
});

describe("issuing receipts", () => {
  it("gives a payment one receipt however often its event arrives, even at once", async () => {
    await donation("don_a");
    const rows = await Promise.all(
      [1, 2, 3].map(() => issueReceipt(db, paid("don_a", "pi_1", "2026-11-27T03:00:00Z"), issuing)),
    );
    expect(new Set(rows.map((r) => r.number))).toEqual(new Set(["2026-27/000001"]));
    expect(await receiptsOf(db, "don_a")).toHaveLength(1);
    const next = await issueReceipt(db, paid("don_a", "pi_2", "2026-11-28T03:00:00Z"), issuing);
    expect(next.number).toBe("2026-27/000002");
  });

  it("numbers each financial year from 1, decided in Sydney time", async () => {
    await donation("don_b");
    expect((await issueReceipt(db, paid("don_b", "pi_june", "2027-06-30T13:59:00Z"), issuing)).number).toBe(
      "2026-27/000001",
    );
    expect((await issueReceipt(db, paid("don_b", "pi_july", "2027-06-30T14:00:00Z"), issuing)).number).toBe(
      "2027-28/000001",
    );
    expect((await issueReceipt(db, paid("don_b", "pi_june2", "2027-06-29T00:00:00Z"), issuing)).number).toBe(
      "2026-27/000002",
    );
  });

  it("carries the donation's donor, fund, reference, deductibility and instalment", async () => {
    await donation("don_c", "zakat", {
      frequency: "monthly-instalments",
      instalments: JSON.stringify({ count: 12, giftCents: 45_750, endDate: "2027-10-27" }),
    });
    await issueReceipt(db, paid("don_c", "in_1", "2026-11-27T03:00:00Z", 3_813), issuing);
    const second = await issueReceipt(db, paid("don_c", "in_2", "2026-12-27T03:00:00Z", 3_813), issuing);
    expect(second.body).toMatchObject({
      donor: { name: "Aisha Rahman", email: "aisha@example.org" },
      fund: "zakat",
      taxDeductible: false,
      donationReference: "NZF-don_c",
      instalment: { index: 2, count: 12 },
      amountCents: 3_813,
    });
    await donation("don_s", "sadaqah");
    expect((await issueReceipt(db, paid("don_s", "pi_s", "2026-11-27T03:00:00Z"), issuing)).body.taxDeductible).toBe(
      true,
    );
  });

  it("refuses a payment of a donation that does not exist, and uses no number for it", async () => {
    await expect(issueReceipt(db, paid("don_nope", "pi_x", "2026-11-27T03:00:00Z"), issuing)).rejects.toThrow(
      /No donation/,
    );
    await donation("don_d");
    expect((await issueReceipt(db, paid("don_d", "pi_d", "2026-11-27T03:00:00Z"), issuing)).number).toBe(
      "2026-27/000001",
    );
  });
});

describe("refunds and disputes", () => {
  it("a partial refund voids the receipt and issues a correction for what was kept; the same refund again does nothing", async () => {
    await donation("don_r");
    const original = await issueReceipt(db, paid("don_r", "cap_1", "2026-11-27T03:00:00Z"), issuing);
    const cause = {
      chargeId: "cap_1",
      causeId: "re_1",
      keptCents: 7_000,
      reason: "$30.00 was refunded to your card.",
      at: new Date("2026-12-01T00:00:00Z"),
    };
    const issued = await voidForRefund(db, cause, issuing);
    expect(issued.map((r) => [r.kind, r.number, r.amount_cents])).toEqual([
      ["void", original.number, 0],
      ["correction", "2026-27/000002", 7_000],
    ]);
    expect(issued[1]!.body.voids).toEqual({ number: original.number, amountCents: 10_000 });
    expect(await voidForRefund(db, cause, issuing)).toEqual([]);
    const all = await receiptsOf(db, "don_r");
    expect(all.find((r) => r.key === original.key)!.void_reason).toBe("$30.00 was refunded to your card.");
    // A later dispute voids the correction, keeping nothing.
    const dispute = await voidForRefund(
      db,
      {
        chargeId: "cap_1",
        causeId: "dp_1",
        keptCents: 0,
        reason: "The payment was disputed.",
        at: new Date("2026-12-05T00:00:00Z"),
      },
      issuing,
    );
    expect(dispute.map((r) => [r.kind, r.number])).toEqual([["void", "2026-27/000002"]]);
  });

  it("a refund before the payment's receipt exists voids nothing", async () => {
    await donation("don_early");
    expect(
      await voidForRefund(
        db,
        { chargeId: "cap_none", causeId: "re_x", keptCents: 0, reason: "x", at: new Date() },
        issuing,
      ),
    ).toEqual([]);
  });
});

describe("the outbox", () => {
  it("e-mails each receipt once, to the donor, through SMTP", async () => {
    await donation("don_m");
    await issueReceipt(db, paid("don_m", "pi_m", "2026-11-27T03:00:00Z"), issuing);
    const mailer = createMailer({ kind: "smtp", url: catcher.smtpUrl });
    const [first, second] = await Promise.all([
      deliverReceipts(db, { mailer, from: "receipts@nzf.org.au" }),
      deliverReceipts(db, { mailer, from: "receipts@nzf.org.au" }),
    ]);
    mailer.close();
    expect([...first.sent, ...second.sent]).toEqual(["receipt:pi_m"]);
    const mail = await catcher.waitFor((m) => m.subject.includes("2026-27/000001"));
    expect(mail.envelope.to).toEqual(["aisha@example.org"]);
    expect(catcher.messages()).toHaveLength(1);
    const [row] = await receiptsOf(db, "don_m");
    expect(row).toMatchObject({ email_status: "sent", email_attempts: 1 });
  });

  it("keeps a receipt the mail server refused, and sends it on a later round", async () => {
    await donation("don_f");
    await issueReceipt(db, paid("don_f", "pi_f", "2026-11-27T03:00:00Z"), issuing);
    const down: Mailer = {
      send: () => Promise.reject(Object.assign(new Error("421 try later"), { responseCode: 421 })),
      close() {},
    };
    const t0 = new Date("2026-11-27T04:00:00Z");
    let clock = t0;
    await setServiceClock(() => clock);
    const failed = await deliverReceipts(db, {
      mailer: down,
      from: "receipts@nzf.org.au",
      // One try in this round: the next round is what is tested.
      retry: { attempts: 1 },
    });
    expect(failed.failed).toEqual(["receipt:pi_f"]);
    let [row] = await receiptsOf(db, "don_f");
    expect(row).toMatchObject({ email_status: "failed", email_attempts: 1 });
    expect(row!.email_next_attempt_at!.getTime()).toBe(t0.getTime() + 60_000);
    // Too soon: nothing is tried.
    const mailer = createMailer({ kind: "smtp", url: catcher.smtpUrl });
    clock = new Date(t0.getTime() + 30_000);
    expect((await deliverReceipts(db, { mailer, from: "receipts@nzf.org.au" })).sent).toEqual([]);
    clock = new Date(t0.getTime() + 61_000);
    expect((await deliverReceipts(db, { mailer, from: "receipts@nzf.org.au" })).sent).toEqual(["receipt:pi_f"]);
    mailer.close();
    [row] = await receiptsOf(db, "don_f");
    expect(row).toMatchObject({ email_status: "sent", email_attempts: 2 });
  });

  it("keeps receipts unsent, and printable, when no mail is configured", async () => {
    await donation("don_n");
    const row = await issueReceipt(db, paid("don_n", "pi_n", "2026-11-27T03:00:00Z"), { ...issuing, mailing: false });
    expect(row.email_status).toBe("not_sent");
    const mailer = createMailer({ kind: "smtp", url: catcher.smtpUrl });
    expect((await deliverReceipts(db, { mailer, from: "receipts@nzf.org.au" })).sent).toEqual([]);
    mailer.close();
  });
});
