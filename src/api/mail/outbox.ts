/**
 * The outbox of the service's notices (everything but receipts, which keep their own: see
 * src/api/receipts/deliver.ts): a notice is written once under its key (`queueNotice`, in the same
 * step as what caused it), then sent; a failed send is tried again later with growing pauses, and
 * two senders never send one notice at once (each claims it first; a claim older than CLAIM_MS is
 * taken over). A notice whose key exists is not written again, so a job run twice e-mails once.
 */
import type { Kysely } from "kysely";
import type { Mailer } from "../../receipts/mailer.js";
import { type Notice, noticeMessage } from "../../receipts/notice.js";
import { type RetryOptions, sendWithRetry } from "../../receipts/send-with-retry.js";

type Timestamp = Date | string;

export interface OutboxTables {
  outbox_emails: {
    key: string;
    kind: string;
    donation_id: string | null;
    to_address: string;
    body: Notice | string;
    status: "pending" | "sending" | "sent" | "failed";
    attempts: number;
    next_attempt_at: Timestamp | null;
    claimed_at: Timestamp | null;
    error: string | null;
    message_id: string | null;
    created_at: Timestamp;
    sent_at: Timestamp | null;
  };
}

export const CLAIM_MS = 10 * 60_000;
const LATER_MS = [60_000, 5 * 60_000, 30 * 60_000, 2 * 3_600_000];
const LAST_MS = 12 * 3_600_000;
/** About a week of tries, then the notice is left failed (it stays in the table for donor care). */
export const MAX_ROUNDS = 18;

// biome-ignore lint/suspicious/noExplicitAny: any database that has the outbox's table
type AnyDb = Kysely<any>;
const outbox = (db: AnyDb) => db as unknown as Kysely<OutboxTables>;

/** Writes a notice to send; false when one with its key was written before (nothing changes). */
export async function queueNotice(
  db: AnyDb,
  notice: Notice,
  meta: { kind: string; donationId?: string | null; now: Date },
): Promise<boolean> {
  const inserted = await outbox(db)
    .insertInto("outbox_emails")
    .values({
      key: notice.key,
      kind: meta.kind,
      donation_id: meta.donationId ?? null,
      to_address: notice.to,
      body: JSON.stringify(notice),
      status: "pending",
      attempts: 0,
      next_attempt_at: null,
      claimed_at: null,
      error: null,
      message_id: null,
      created_at: meta.now,
      sent_at: null,
    })
    .onConflict((oc) => oc.column("key").doNothing())
    .returning("key")
    .executeTakeFirst();
  return inserted !== undefined;
}

export interface OutboxOptions {
  mailer: Mailer;
  from: string;
  replyTo?: string;
  now?: () => Date;
  limit?: number;
  retry?: RetryOptions;
  /** Only these notices (the ones just queued); otherwise every one due. */
  keys?: string[];
}

export interface OutboxReport {
  sent: string[];
  failed: string[];
}

export async function deliverNotices(db: AnyDb, options: OutboxOptions): Promise<OutboxReport> {
  const odb = outbox(db);
  const now = (options.now ?? (() => new Date()))();
  const report: OutboxReport = { sent: [], failed: [] };
  if (options.keys?.length === 0) return report;
  const staleClaim = new Date(now.getTime() - CLAIM_MS);
  let query = odb
    .selectFrom("outbox_emails")
    .selectAll()
    .where((eb) =>
      eb.or([
        eb.and([
          eb("status", "in", ["pending", "failed"]),
          eb.or([eb("next_attempt_at", "is", null), eb("next_attempt_at", "<=", now)]),
          eb("attempts", "<", MAX_ROUNDS),
        ]),
        eb.and([eb("status", "=", "sending"), eb("claimed_at", "<", staleClaim)]),
      ]),
    )
    .orderBy("created_at")
    .limit(options.limit ?? 50);
  if (options.keys) query = query.where("key", "in", options.keys);
  for (const row of await query.execute()) {
    const claimed = await odb
      .updateTable("outbox_emails")
      .set({ status: "sending", claimed_at: now })
      .where("key", "=", row.key)
      .where("status", "=", row.status)
      .where((eb) => (row.claimed_at === null ? eb("claimed_at", "is", null) : eb("claimed_at", "=", row.claimed_at)))
      .executeTakeFirst();
    if (Number(claimed.numUpdatedRows) === 0) continue;
    const notice = (typeof row.body === "string" ? JSON.parse(row.body) : row.body) as Notice;
    const outcome = await sendWithRetry(
      options.mailer,
      noticeMessage(notice, { from: options.from, ...(options.replyTo ? { replyTo: options.replyTo } : {}) }),
      { attempts: 2, ...options.retry },
    );
    if (outcome.sent) {
      await odb
        .updateTable("outbox_emails")
        .set({
          status: "sent",
          message_id: outcome.messageId,
          error: null,
          next_attempt_at: null,
          attempts: row.attempts + 1,
          sent_at: now,
        })
        .where("key", "=", row.key)
        .execute();
      report.sent.push(row.key);
    } else {
      const rounds = row.attempts + 1;
      await odb
        .updateTable("outbox_emails")
        .set({
          status: "failed",
          attempts: outcome.retryable ? rounds : MAX_ROUNDS,
          error: outcome.error.slice(0, 500),
          next_attempt_at: outcome.retryable ? new Date(now.getTime() + (LATER_MS[rounds - 1] ?? LAST_MS)) : null,
        })
        .where("key", "=", row.key)
        .execute();
      report.failed.push(row.key);
    }
  }
  return report;
}
