/**
 * The account API's own table (issue 38): what the donor chose about a plan on the account page
 * (paused, cancelled, a new amount per charge), kept after the payment provider took the change.
 * Ownership stays `donations.user_sub`; a guest gift claimed by its donor gets its `user_sub` then.
 */
import type { Kysely } from "kysely";

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("account_plans")
    .addColumn("donation_id", "text", (c) => c.primaryKey().references("donations.id"))
    // The gift per charge before fees; null: as given.
    .addColumn("amount_cents", "integer")
    .addColumn("paused", "boolean", (c) => c.notNull().defaultTo(false))
    .addColumn("cancelled", "boolean", (c) => c.notNull().defaultTo(false))
    .addColumn("updated_at", "timestamptz", (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable("account_plans").execute();
}
