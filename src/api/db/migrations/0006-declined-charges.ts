/**
 * Declined scheduled charges (issue 39): a charge the bank declined is tried again on a stated
 * schedule (src/api/jobs/retries.ts), so each row counts its tries and says when the next is due.
 * And the service's other e-mails (a declined charge, a paused plan, moved dates, later enquiries
 * and updates) go through one outbox, `outbox_emails`: written in the same step as what caused
 * them, keyed so each is sent once, retried like receipts and never lost.
 */
import { type Kysely, sql } from "kysely";

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable("scheduled_charges")
    .addColumn("attempts", "integer", (c) => c.notNull().defaultTo(0))
    .execute();
  // YYYY-MM-DD (Sydney) of the next try of a declined charge; null when none is due.
  await db.schema.alterTable("scheduled_charges").addColumn("next_attempt_on", "text").execute();
  await db.schema.alterTable("scheduled_charges").addColumn("decline_code", "text").execute();
  await db.schema
    .createIndex("scheduled_charges_retrying")
    .on("scheduled_charges")
    .columns(["status", "next_attempt_on"])
    .execute();
  await db.schema
    .createTable("outbox_emails")
    .addColumn("key", "text", (c) => c.primaryKey())
    .addColumn("kind", "text", (c) => c.notNull())
    // The donation it is about, when it is about one (not a foreign key: enquiries have none).
    .addColumn("donation_id", "text")
    .addColumn("to_address", "text", (c) => c.notNull())
    // The notice as written (src/receipts/notice.ts), rendered when sent.
    .addColumn("body", "jsonb", (c) => c.notNull())
    .addColumn("status", "text", (c) => c.notNull().check(sql`status in ('pending', 'sending', 'sent', 'failed')`))
    .addColumn("attempts", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("next_attempt_at", "timestamptz")
    .addColumn("claimed_at", "timestamptz")
    .addColumn("error", "text")
    .addColumn("message_id", "text")
    .addColumn("created_at", "timestamptz", (c) => c.notNull())
    .addColumn("sent_at", "timestamptz")
    .execute();
  await db.schema.createIndex("outbox_emails_due").on("outbox_emails").columns(["status", "next_attempt_at"]).execute();
  await db.schema.createIndex("outbox_emails_donation").on("outbox_emails").column("donation_id").execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable("outbox_emails").execute();
  await db.schema.dropIndex("scheduled_charges_retrying").execute();
  for (const column of ["decline_code", "next_attempt_on", "attempts"])
    await db.schema.alterTable("scheduled_charges").dropColumn(column).execute();
}
