/**
 * The receipts' sending: every receipt waiting for its e-mail is sent through the shared
 * claim-and-send loop (src/api/mail/send-due.ts: claimed first, retried later with growing pauses,
 * never sent twice at once), and a receipt is never lost: it stays in the database, printable in
 * the account, whatever the mail server does.
 */
import type { Kysely } from "kysely";
import type { Mailer } from "../../receipts/mailer.js";
import { receiptMessage } from "../../receipts/message.js";
import type { RetryOptions } from "../../receipts/send-with-retry.js";
import type { ApiDatabase } from "../db/schema.js";
import { type MailQueue, type SendReport, sendDue } from "../mail/send-due.js";
import type { ReceiptRow } from "./tables.js";

export { CLAIM_MS, MAX_ROUNDS } from "../mail/send-due.js";

export interface DeliverOptions {
  mailer: Mailer;
  from: string;
  replyTo?: string;
  /** Tries within one round (sendWithRetry's). */
  retry?: RetryOptions;
  /** Only these receipts (the ones a webhook just issued); otherwise every one due. */
  keys?: string[];
}

export type DeliverReport = SendReport;

export function deliverReceipts(db: Kysely<ApiDatabase>, options: DeliverOptions): Promise<DeliverReport> {
  const queue: MailQueue<ReceiptRow> = {
    table: "receipts",
    status: "email_status",
    attempts: "email_attempts",
    nextAttemptAt: "email_next_attempt_at",
    claimedAt: "email_claimed_at",
    messageId: "email_message_id",
    error: "email_error",
    orderBy: "issued_at",
    message: (row) =>
      receiptMessage(row.body, { from: options.from, ...(options.replyTo ? { replyTo: options.replyTo } : {}) }),
  };
  return sendDue(db, queue, options);
}
