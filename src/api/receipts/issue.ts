/**
 * Issuing receipts in the service's database, from the signed webhooks (never the browser). A
 * payment gets one receipt, however often its event arrives; its number comes from the financial
 * year's counter in the same transaction, so numbers run without gaps and are never reused. A
 * refund or dispute voids the payment's current receipt (a void notice quoting it) and, when part
 * of the money was kept, issues a correction with a new number for what was kept.
 */
import { type Kysely, sql, type Transaction } from "kysely";
import { financialYearOf, formatReceiptNumber } from "../../receipts/financial-year.js";
import { checkReceipt, type PaymentMethodShown, type Receipt, type ReceiptIssuer } from "../../receipts/receipt.js";
import type { ApiDatabase } from "../db/schema.js";
import type { NewReceipt, ReceiptRow, ReceiptTables } from "./tables.js";

type Db = Kysely<ApiDatabase & ReceiptTables>;
type Trx = Transaction<ApiDatabase & ReceiptTables>;
export type { ReceiptRow };

export interface ReceiptIssuing {
  issuer: ReceiptIssuer;
  /** Whether gifts to the fund are tax-deductible: the one per-fund setting. */
  taxDeductible(fund: string): boolean;
  /** Whether receipts are e-mailed; when not, they are kept with email_status "not_sent". */
  mailing: boolean;
}

export interface PaidCharge {
  donationId: string;
  /** The provider's payment id (PaymentIntent, invoice, PayPal capture or sale). */
  chargeId: string;
  amountCents: number;
  paidAt: Date;
  paymentMethod: PaymentMethodShown;
}

export const withReceipts = (db: Kysely<ApiDatabase>): Db => db.withTables<ReceiptTables>();

/** Thrown inside a transaction to roll back a counter bump when another process issued the receipt first. */
class AlreadyIssued extends Error {}

async function nextNumber(trx: Trx, paidAt: Date): Promise<string> {
  const year = financialYearOf(paidAt);
  const { last_number } = await trx
    .insertInto("receipt_counters")
    .values({ financial_year: year.label, last_number: 1 })
    .onConflict((oc) => oc.column("financial_year").doUpdateSet({ last_number: sql`receipt_counters.last_number + 1` }))
    .returning("last_number")
    .executeTakeFirstOrThrow();
  return formatReceiptNumber(year, last_number);
}

async function insertOnce(
  db: Db,
  key: string,
  make: (trx: Trx) => Promise<NewReceipt | null>,
): Promise<ReceiptRow | null> {
  try {
    await db.transaction().execute(async (trx) => {
      if (await trx.selectFrom("receipts").select("key").where("key", "=", key).executeTakeFirst())
        throw new AlreadyIssued();
      const row = await make(trx);
      if (!row) return;
      const inserted = await trx
        .insertInto("receipts")
        .values(row)
        .onConflict((oc) => oc.column("key").doNothing())
        .returning("key")
        .executeTakeFirst();
      if (!inserted) throw new AlreadyIssued();
    });
  } catch (error) {
    if (!(error instanceof AlreadyIssued) && !isUniqueViolation(error)) throw error;
  }
  return (await db.selectFrom("receipts").selectAll().where("key", "=", key).executeTakeFirst()) ?? null;
}

function isUniqueViolation(error: unknown): boolean {
  return (error as { code?: string })?.code === "23505";
}

/** The receipt of a paid charge: made once, numbered in the financial year of the payment. */
export async function issueReceipt(
  db: Kysely<ApiDatabase>,
  charge: PaidCharge,
  issuing: ReceiptIssuing,
): Promise<ReceiptRow> {
  const rdb = withReceipts(db);
  const key = `receipt:${charge.chargeId}`;
  const row = await insertOnce(rdb, key, async (trx) => {
    const donation = await trx
      .selectFrom("donations")
      .selectAll()
      .where("id", "=", charge.donationId)
      .executeTakeFirst();
    if (!donation) throw new Error(`No donation ${charge.donationId} for the charge ${charge.chargeId}.`);
    const earlier = await trx
      .selectFrom("receipts")
      .select(sql<number>`count(*)::int`.as("n"))
      .where("donation_id", "=", donation.id)
      .where("kind", "=", "receipt")
      .executeTakeFirstOrThrow();
    const instalments = donation.instalments as { count: number } | null;
    const number = await nextNumber(trx, charge.paidAt);
    const receipt = checkReceipt({
      kind: "receipt",
      number,
      issuedAt: charge.paidAt.toISOString(),
      issuer: issuing.issuer,
      donor: { name: `${donation.donor_first_name} ${donation.donor_last_name}`.trim(), email: donation.donor_email },
      amountCents: charge.amountCents,
      // The covered fee is known for a charge of the donation's usual total; others show none.
      feeCents: charge.amountCents === donation.total_cents ? donation.fee_cents : 0,
      fund: donation.fund,
      taxDeductible: issuing.taxDeductible(donation.fund),
      paymentMethod: charge.paymentMethod,
      donationReference: donation.reference,
      ...(instalments && instalments.count >= 2
        ? { instalment: { index: Math.min(earlier.n + 1, instalments.count), count: instalments.count } }
        : {}),
    } satisfies Receipt);
    return rowOf(key, receipt, charge.donationId, charge.chargeId, issuing.mailing);
  });
  if (!row) throw new Error(`The receipt ${key} could not be read back.`);
  return row;
}

export interface VoidCause {
  chargeId: string;
  /** The refund's or dispute's id: one correction per refund. */
  causeId: string;
  /** What the foundation keeps of the payment after this refund (a dispute: 0). */
  keptCents: number;
  /** In the donor's words: "$30.00 was refunded to your card on 2 December 2026." */
  reason: string;
  at: Date;
}

/**
 * Voids the charge's current receipt and, when money was kept, issues its correction. Returns what
 * was issued (the void notice, and the correction if any), or [] when there was no receipt to void
 * (the payment's own event has not come yet) or this cause was applied already.
 */
export async function voidForRefund(
  db: Kysely<ApiDatabase>,
  cause: VoidCause,
  issuing: ReceiptIssuing,
): Promise<ReceiptRow[]> {
  const rdb = withReceipts(db);
  const current = await rdb
    .selectFrom("receipts")
    .selectAll()
    .where("charge_id", "=", cause.chargeId)
    .where("kind", "<>", "void")
    .where("voided_at", "is", null)
    .orderBy("issued_at", "desc")
    .executeTakeFirst();
  if (!current) return [];
  const kept = Math.max(0, Math.min(current.amount_cents, cause.keptCents));
  // Nothing changed for the donor (a refund event repeated with the same total): nothing to void.
  if (kept === current.amount_cents) return [];
  const voidKey = `void:${current.number}`;
  const correctionKey = `correction:${cause.causeId}`;
  try {
    await rdb.transaction().execute(async (trx) => {
      const marked = await trx
        .updateTable("receipts")
        .set({ voided_at: cause.at, void_reason: cause.reason })
        .where("key", "=", current.key)
        .where("voided_at", "is", null)
        .executeTakeFirst();
      if (Number(marked.numUpdatedRows) === 0) throw new AlreadyIssued();
      const original = current.body;
      const notice = checkReceipt({
        ...original,
        kind: "void",
        issuedAt: cause.at.toISOString(),
        issuer: issuing.issuer,
        reason: cause.reason,
        voids: { number: current.number, amountCents: current.amount_cents },
        instalment: undefined,
      });
      await trx
        .insertInto("receipts")
        .values(rowOf(voidKey, notice, current.donation_id, cause.chargeId, issuing.mailing))
        .execute();
      if (kept > 0) {
        const correction = checkReceipt({
          ...original,
          kind: "correction",
          number: await nextNumber(trx, cause.at),
          issuedAt: cause.at.toISOString(),
          issuer: issuing.issuer,
          amountCents: kept,
          feeCents: Math.min(original.feeCents, kept),
          reason: cause.reason,
          voids: { number: current.number, amountCents: current.amount_cents },
        });
        await trx
          .insertInto("receipts")
          .values(rowOf(correctionKey, correction, current.donation_id, cause.chargeId, issuing.mailing))
          .execute();
      }
    });
  } catch (error) {
    if (!(error instanceof AlreadyIssued) && !isUniqueViolation(error)) throw error;
    return [];
  }
  return await rdb
    .selectFrom("receipts")
    .selectAll()
    .where("key", "in", [voidKey, correctionKey])
    .orderBy("issued_at")
    .execute();
}

function rowOf(key: string, receipt: Receipt, donationId: string, chargeId: string, mailing: boolean): NewReceipt {
  return {
    key,
    number: receipt.number,
    kind: receipt.kind,
    donation_id: donationId,
    charge_id: chargeId,
    amount_cents: receipt.kind === "void" ? 0 : receipt.amountCents,
    issued_at: new Date(receipt.issuedAt),
    body: JSON.stringify(receipt),
    voided_at: null,
    void_reason: null,
    email_status: mailing ? "pending" : "not_sent",
    email_next_attempt_at: null,
    email_claimed_at: null,
    email_error: null,
    email_message_id: null,
  };
}

/** A donation's receipts, oldest first: what the account shows and prints. */
export async function receiptsOf(db: Kysely<ApiDatabase>, donationId: string): Promise<ReceiptRow[]> {
  return await withReceipts(db)
    .selectFrom("receipts")
    .selectAll()
    .where("donation_id", "=", donationId)
    .orderBy("issued_at")
    .orderBy("number")
    .execute();
}
