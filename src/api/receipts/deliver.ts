/**
 * The receipts' outbox: every receipt waiting for its e-mail is sent, a failed send is tried again
 * later with growing pauses (1 minute, 5, 30, 2 hours, then every 12 hours for a week), and a
 * receipt is never lost: it stays in the database, printable in the account, whatever the mail
 * server does. Two deliverers (a webhook and the job, two Lambdas) never send one receipt twice at
 * once: each claims a receipt by changing its state first; a claim older than CLAIM_MS (a process
 * that died mid-send) is taken over.
 */
import type { Kysely } from "kysely";
import type { Mailer } from "../../receipts/mailer.js";
import { receiptMessage } from "../../receipts/message.js";
import { type RetryOptions, sendWithRetry } from "../../receipts/send-with-retry.js";
import type { ApiDatabase } from "../db/schema.js";
import { withReceipts } from "./issue.js";
import type { ReceiptRow } from "./tables.js";

export const CLAIM_MS = 10 * 60_000;
/** Pause before the next try after the nth failed delivery round. */
const LATER_MS = [60_000, 5 * 60_000, 30 * 60_000, 2 * 3_600_000];
const LAST_MS = 12 * 3_600_000;
/** After this many rounds (about a week) a receipt is left failed, for donor care to resend. */
export const MAX_ROUNDS = 18;

export interface DeliverOptions {
  mailer: Mailer;
  from: string;
  replyTo?: string;
  now?: () => Date;
  /** How many receipts one call sends at most. */
  limit?: number;
  /** Tries within one round (sendWithRetry's). */
  retry?: RetryOptions;
  /** Only these receipts (the ones a webhook just issued); otherwise every one due. */
  keys?: string[];
}

export interface DeliverReport {
  sent: string[];
  failed: string[];
}

export async function deliverReceipts(db: Kysely<ApiDatabase>, options: DeliverOptions): Promise<DeliverReport> {
  const rdb = withReceipts(db);
  const now = (options.now ?? (() => new Date()))();
  const staleClaim = new Date(now.getTime() - CLAIM_MS);
  let query = rdb
    .selectFrom("receipts")
    .selectAll()
    .where((eb) =>
      eb.or([
        eb.and([
          eb("email_status", "in", ["pending", "failed"]),
          eb.or([eb("email_next_attempt_at", "is", null), eb("email_next_attempt_at", "<=", now)]),
          eb("email_attempts", "<", MAX_ROUNDS),
        ]),
        eb.and([eb("email_status", "=", "sending"), eb("email_claimed_at", "<", staleClaim)]),
      ]),
    )
    .orderBy("issued_at")
    .limit(options.limit ?? 50);
  if (options.keys) {
    if (options.keys.length === 0) return { sent: [], failed: [] };
    query = query.where("key", "in", options.keys);
  }
  const due = await query.execute();
  const report: DeliverReport = { sent: [], failed: [] };
  for (const row of due) {
    const claimed = await rdb
      .updateTable("receipts")
      .set({ email_status: "sending", email_claimed_at: now })
      .where("key", "=", row.key)
      .where("email_status", "=", row.email_status)
      .where((eb) =>
        row.email_claimed_at === null
          ? eb("email_claimed_at", "is", null)
          : eb("email_claimed_at", "=", row.email_claimed_at),
      )
      .executeTakeFirst();
    if (Number(claimed.numUpdatedRows) === 0) continue;
    const outcome = await send(row, options);
    if (outcome.sent) {
      await rdb
        .updateTable("receipts")
        .set({
          email_status: "sent",
          email_message_id: outcome.messageId,
          email_error: null,
          email_next_attempt_at: null,
          email_attempts: row.email_attempts + 1,
        })
        .where("key", "=", row.key)
        .execute();
      report.sent.push(row.key);
    } else {
      const rounds = row.email_attempts + 1;
      const pause = LATER_MS[rounds - 1] ?? LAST_MS;
      await rdb
        .updateTable("receipts")
        .set({
          email_status: "failed",
          email_attempts: outcome.retryable ? rounds : MAX_ROUNDS,
          email_error: outcome.error.slice(0, 500),
          email_next_attempt_at: outcome.retryable ? new Date(now.getTime() + pause) : null,
        })
        .where("key", "=", row.key)
        .execute();
      report.failed.push(row.key);
    }
  }
  return report;
}

function send(row: ReceiptRow, options: DeliverOptions) {
  try {
    const message = receiptMessage(row.body, {
      from: options.from,
      ...(options.replyTo ? { replyTo: options.replyTo } : {}),
    });
    return sendWithRetry(options.mailer, message, { attempts: 2, ...options.retry });
  } catch (error) {
    return Promise.resolve({ sent: false as const, attempts: 0, error: String(error), retryable: false });
  }
}
