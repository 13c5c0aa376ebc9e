/**
 * Which payment of an instalment plan its Stripe billing anchor (migration 0010) is the date of:
 * the schedule's first. The schedule made after the first payment starts on the second (2, every
 * plan so far); one laid again when a paused plan is resumed starts on the next payment still to
 * come, so the account counts the plan's later dates from there.
 */
import type { Kysely } from "kysely";

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable("donations")
    .addColumn("stripe_anchor_charge", "integer", (c) => c.notNull().defaultTo(2))
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable("donations").dropColumn("stripe_anchor_charge").execute();
}
