/**
 * The scheduled charges job's record (issue 39): one row per (donation, date), claimed before
 * Stripe is asked, so running the job twice, or again after a crash half way, charges each date once.
 */
import { type Kysely, sql } from "kysely";

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("scheduled_charges")
    .addColumn("donation_id", "text", (c) => c.notNull().references("donations.id"))
    .addColumn("charge_date", "text", (c) => c.notNull())
    .addColumn("amount_cents", "integer", (c) => c.notNull().check(sql`amount_cents > 0`))
    // claimed → succeeded | processing | failed
    .addColumn("status", "text", (c) => c.notNull())
    .addColumn("payment_intent_id", "text")
    .addColumn("error", "text")
    .addColumn("created_at", "timestamptz", (c) => c.notNull())
    .addColumn("updated_at", "timestamptz", (c) => c.notNull())
    .addPrimaryKeyConstraint("scheduled_charges_pk", ["donation_id", "charge_date"])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable("scheduled_charges").execute();
}
