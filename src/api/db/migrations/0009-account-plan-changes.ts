/**
 * The account's plan changes that wait or move dates (issue 38): a new amount PayPal's payer has
 * not yet agreed to (`pending_amount_cents`, and `pending_total_cents`, what PayPal will bill for
 * it: the signed BILLING.SUBSCRIPTION.UPDATED settles it when PayPal bills that), and the charges
 * the donor skipped (`skips`: each skip moves every charge still to come one period later).
 */
import type { Kysely } from "kysely";

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable("account_plans").addColumn("pending_amount_cents", "integer").execute();
  await db.schema.alterTable("account_plans").addColumn("pending_total_cents", "integer").execute();
  await db.schema
    .alterTable("account_plans")
    .addColumn("skips", "integer", (c) => c.notNull().defaultTo(0))
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const column of ["skips", "pending_total_cents", "pending_amount_cents"])
    await db.schema.alterTable("account_plans").dropColumn(column).execute();
}
