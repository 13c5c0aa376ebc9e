/**
 * Stripe objects a changed donation left behind, to be cancelled (issue 37, the crash gap). Written
 * in the same transaction that changes the donation, before any new intent is opened, so a crash
 * between the two never leaves the old intent payable and forgotten: the next change, the retry or
 * the sweep cancels it (src/api/stripe/cancellations.ts).
 */
import type { Kysely } from "kysely";

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("intent_cancellations")
    // pi_…, seti_… or sub_…: each object is cancelled once.
    .addColumn("object_id", "text", (c) => c.primaryKey())
    .addColumn("donation_id", "text", (c) => c.notNull())
    // The donation's revision that made the object: the cancel's idempotency key is `<id>/r<revision>/cancel`.
    .addColumn("revision", "integer", (c) => c.notNull())
    .addColumn("created_at", "timestamptz", (c) => c.notNull())
    .addColumn("done_at", "timestamptz")
    .execute();
  await db.schema
    .createIndex("intent_cancellations_donation")
    .on("intent_cancellations")
    .column("donation_id")
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable("intent_cancellations").execute();
}
