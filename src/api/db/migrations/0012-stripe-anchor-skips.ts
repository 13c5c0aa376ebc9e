/**
 * An instalment plan skipped before its schedule started moves the schedule's start a month on,
 * and Stripe then bills from that new start (a start on 31 January moved to 29 February bills the
 * 29th after): the service keeps the new start as the plan's anchor (migration 0010) and here how
 * many of the donor's skips it already holds, so the account counts only the skips after it.
 */
import type { Kysely } from "kysely";

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable("donations")
    .addColumn("stripe_anchor_skips", "integer", (c) => c.notNull().defaultTo(0))
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable("donations").dropColumn("stripe_anchor_skips").execute();
}
