/**
 * The moment Stripe's billing of a card plan is anchored on (issue 38): a monthly gift's
 * subscription's `billing_cycle_anchor`, or the start of an instalment plan's SubscriptionSchedule.
 * Stripe bills on that day of the month in UTC, on the last day of shorter months and back on the
 * day after (src/payments/billing-dates.ts), so the account's dates are worked out from it and are
 * the days Stripe charges. Null for plans made before it was kept (the account then uses the
 * moment the service would have anchored them on).
 */
import type { Kysely } from "kysely";

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable("donations").addColumn("stripe_billing_anchor", "timestamptz").execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable("donations").dropColumn("stripe_billing_anchor").execute();
}
