/**
 * The receipts' tables as Kysely sees them (migration 0002-receipts makes them). The service's
 * database is `Kysely<ApiDatabase>`; receipt code widens it with `db.withTables<ReceiptTables>()`.
 */
import type { ColumnType, Generated, Insertable, Selectable } from "kysely";
import type { Receipt } from "../../receipts/receipt.js";

type Timestamp = ColumnType<Date, Date | string, Date | string>;
type Json<T> = ColumnType<T, string | T, string | T>;

/** One row per financial year: the last receipt number given in it. */
export interface ReceiptCountersTable {
  financial_year: string;
  last_number: number;
}

export type EmailStatus = "pending" | "sending" | "sent" | "failed" | "not_sent";

export interface ReceiptsTable {
  /** What made it, so it is made once: `receipt:<charge>`, `void:<number>`, `correction:<refund>`. */
  key: string;
  /** The receipt's number; a void notice carries the number it voids. */
  number: string;
  kind: "receipt" | "void" | "correction";
  donation_id: string;
  /** The provider's payment: a Stripe PaymentIntent or invoice, a PayPal capture or sale. */
  charge_id: string;
  amount_cents: number;
  issued_at: Timestamp;
  /** The receipt exactly as issued and e-mailed; never changed. */
  body: Json<Receipt>;
  /** Set on a receipt or correction once a refund or dispute voids it. */
  voided_at: Timestamp | null;
  void_reason: string | null;
  email_status: EmailStatus;
  email_attempts: Generated<number>;
  email_next_attempt_at: Timestamp | null;
  email_claimed_at: Timestamp | null;
  email_error: string | null;
  email_message_id: string | null;
}

export type ReceiptTables = {
  receipt_counters: ReceiptCountersTable;
  receipts: ReceiptsTable;
};

export type ReceiptRow = Selectable<ReceiptsTable>;
export type NewReceipt = Insertable<ReceiptsTable>;
