/**
 * Claim, send, record: how the service's two mail queues (receipts in `receipts`, every other
 * notice in `outbox_emails`) send what is due, written once. A row is due when it is waiting or
 * failed with its next try reached and fewer than MAX_ROUNDS rounds spent, or claimed by a sender
 * that died (a claim older than CLAIM_MS). Each row is claimed first, by changing its state where it
 * still has the state it was read with, so two senders (a webhook and the job, two Lambdas) never
 * send one message at once. A failed send is tried again later with growing pauses (1 minute, 5,
 * 30, 2 hours, then every 12 hours for about a week); a permanent refusal is not tried again. The
 * row stays either way: nothing is lost.
 */
import * as clock from "../../core/clock.js";
import type { Kysely } from "kysely";
import type { Mailer } from "../../receipts/mailer.js";
import type { MailMessage } from "../../receipts/message.js";
import { type RetryOptions, sendWithRetry } from "../../receipts/send-with-retry.js";

export const CLAIM_MS = 10 * 60_000;
/** Pause before the next try after the nth failed round. */
const LATER_MS = [60_000, 5 * 60_000, 30 * 60_000, 2 * 3_600_000];
const LAST_MS = 12 * 3_600_000;
/** About a week of rounds, then the message is left failed (it stays, for donor care to resend). */
export const MAX_ROUNDS = 18;
/** How many messages one call sends at most: a job run or a webhook's sending stays short; the rest wait for the next. */
const BATCH = 50;

/** The queue's table and the names of its columns (the receipts' carry an `email_` prefix). */
export interface MailQueue<Row> {
  table: string;
  status: string;
  attempts: string;
  nextAttemptAt: string;
  claimedAt: string;
  messageId: string;
  error: string;
  /** Oldest first. */
  orderBy: string;
  /** When it was sent, if the queue records it. */
  sentAt?: string;
  /** The message of a row; a throw is a permanent failure (the row cannot be made into mail). */
  message(row: Row): MailMessage;
}

export interface SendDueOptions {
  mailer: Mailer;
  /** Tries within one round (sendWithRetry's). */
  retry?: RetryOptions;
  /** Only these rows (the ones just written); otherwise every one due. */
  keys?: string[];
}

export interface SendReport {
  sent: string[];
  failed: string[];
}

// biome-ignore lint/suspicious/noExplicitAny: the queue's table is named at run time
type AnyDb = Kysely<any>;
type Row = Record<string, unknown> & { key: string };

export async function sendDue<R>(db: AnyDb, queue: MailQueue<R>, options: SendDueOptions): Promise<SendReport> {
  const q = queue;
  const now = clock.now();
  const report: SendReport = { sent: [], failed: [] };
  if (options.keys?.length === 0) return report;
  const staleClaim = new Date(now.getTime() - CLAIM_MS);
  let query = db
    .selectFrom(q.table)
    .selectAll()
    .where((eb) =>
      eb.or([
        eb.and([
          eb(q.status, "in", ["pending", "failed"]),
          eb.or([eb(q.nextAttemptAt, "is", null), eb(q.nextAttemptAt, "<=", now)]),
          eb(q.attempts, "<", MAX_ROUNDS),
        ]),
        eb.and([eb(q.status, "=", "sending"), eb(q.claimedAt, "<", staleClaim)]),
      ]),
    )
    .orderBy(q.orderBy)
    .limit(BATCH);
  if (options.keys) query = query.where("key", "in", options.keys);
  for (const row of (await query.execute()) as Row[]) {
    const claimed = await db
      .updateTable(q.table)
      .set({ [q.status]: "sending", [q.claimedAt]: now })
      .where("key", "=", row.key)
      .where(q.status, "=", row[q.status])
      .where((eb) => (row[q.claimedAt] === null ? eb(q.claimedAt, "is", null) : eb(q.claimedAt, "=", row[q.claimedAt])))
      .executeTakeFirst();
    if (Number(claimed.numUpdatedRows) === 0) continue;
    const outcome = await send(queue, row as unknown as R, options);
    const rounds = (row[q.attempts] as number) + 1;
    if (outcome.sent) {
      await db
        .updateTable(q.table)
        .set({
          [q.status]: "sent",
          [q.messageId]: outcome.messageId,
          [q.error]: null,
          [q.nextAttemptAt]: null,
          [q.attempts]: rounds,
          ...(q.sentAt ? { [q.sentAt]: now } : {}),
        })
        .where("key", "=", row.key)
        .execute();
      report.sent.push(row.key);
    } else {
      await db
        .updateTable(q.table)
        .set({
          [q.status]: "failed",
          [q.attempts]: outcome.retryable ? rounds : MAX_ROUNDS,
          [q.error]: outcome.error.slice(0, 500),
          [q.nextAttemptAt]: outcome.retryable ? new Date(now.getTime() + (LATER_MS[rounds - 1] ?? LAST_MS)) : null,
        })
        .where("key", "=", row.key)
        .execute();
      report.failed.push(row.key);
    }
  }
  return report;
}

function send<R>(queue: MailQueue<R>, row: R, options: SendDueOptions) {
  try {
    return sendWithRetry(options.mailer, queue.message(row), { attempts: 2, ...options.retry });
  } catch (error) {
    return Promise.resolve({ sent: false as const, attempts: 0, error: String(error), retryable: false });
  }
}
