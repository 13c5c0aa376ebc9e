/**
 * The outbox of the service's notices (everything but receipts, which keep their own: see
 * src/api/receipts/deliver.ts): a notice is written once under its key (`queueNotice`, in the same
 * step as what caused it), then sent by the claim-and-send loop it shares with the receipts
 * (send-due.ts): a failed send is tried again later with growing pauses, and two senders never
 * send one notice at once (each claims it first; a claim older than CLAIM_MS is
 * taken over). A notice whose key exists is not written again, so a job run twice e-mails once.
 */
import type { Kysely } from "kysely";
import type { Mailer } from "../../receipts/mailer.js";
import { type Notice, noticeMessage } from "../../receipts/notice.js";
import type { RetryOptions } from "../../receipts/send-with-retry.js";
import { type MailQueue, type SendReport, sendDue } from "./send-due.js";

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

export { CLAIM_MS, MAX_ROUNDS } from "./send-due.js";

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
  retry?: RetryOptions;
  /** Only these notices (the ones just queued); otherwise every one due. */
  keys?: string[];
}

export type OutboxReport = SendReport;

/** Sends the notices due through the shared claim-and-send loop (send-due.ts). */
export function deliverNotices(db: AnyDb, options: OutboxOptions): Promise<OutboxReport> {
  const queue: MailQueue<OutboxTables["outbox_emails"]> = {
    table: "outbox_emails",
    status: "status",
    attempts: "attempts",
    nextAttemptAt: "next_attempt_at",
    claimedAt: "claimed_at",
    messageId: "message_id",
    error: "error",
    orderBy: "created_at",
    sentAt: "sent_at",
    message: (row) =>
      noticeMessage((typeof row.body === "string" ? JSON.parse(row.body) : row.body) as Notice, {
        from: options.from,
        ...(options.replyTo ? { replyTo: options.replyTo } : {}),
      }),
  };
  return sendDue(db, queue, options);
}
