/** PayPal's webhook events seen (issue 39): each event id is applied once, as stripe_events does for Stripe. */
import type { Kysely } from "kysely";

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("paypal_events")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("type", "text", (c) => c.notNull())
    .addColumn("donation_id", "text")
    .addColumn("processed_at", "timestamptz", (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable("paypal_events").execute();
}
