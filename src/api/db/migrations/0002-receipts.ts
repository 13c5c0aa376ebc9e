/**
 * Receipts (issue 39): a counter per financial year, so numbers run 2026-27/000001, 000002, … and
 * are never reused, and every receipt, void notice and correction as issued, with its e-mail's
 * delivery state (the outbox: a failed send stays pending and printable in the account).
 */
import { type Kysely, sql } from "kysely";

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("receipt_counters")
    .addColumn("financial_year", "text", (c) => c.primaryKey())
    .addColumn("last_number", "integer", (c) => c.notNull().check(sql`last_number > 0`))
    .execute();
  await db.schema
    .createTable("receipts")
    .addColumn("key", "text", (c) => c.primaryKey())
    .addColumn("number", "text", (c) => c.notNull())
    .addColumn("kind", "text", (c) => c.notNull().check(sql`kind in ('receipt', 'void', 'correction')`))
    .addColumn("donation_id", "text", (c) => c.notNull().references("donations.id"))
    .addColumn("charge_id", "text", (c) => c.notNull())
    .addColumn("amount_cents", "integer", (c) => c.notNull().check(sql`amount_cents >= 0`))
    .addColumn("issued_at", "timestamptz", (c) => c.notNull())
    .addColumn("body", "jsonb", (c) => c.notNull())
    .addColumn("voided_at", "timestamptz")
    .addColumn("void_reason", "text")
    .addColumn("email_status", "text", (c) => c.notNull())
    .addColumn("email_attempts", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("email_next_attempt_at", "timestamptz")
    .addColumn("email_claimed_at", "timestamptz")
    .addColumn("email_error", "text")
    .addColumn("email_message_id", "text")
    .execute();
  // A number names one receipt or correction (void notices repeat the number they void).
  await db.schema
    .createIndex("receipts_number")
    .on("receipts")
    .column("number")
    .unique()
    .where(sql.ref("kind"), "<>", "void")
    .execute();
  await db.schema.createIndex("receipts_donation").on("receipts").column("donation_id").execute();
  await db.schema.createIndex("receipts_charge").on("receipts").column("charge_id").execute();
  await db.schema
    .createIndex("receipts_outbox")
    .on("receipts")
    .columns(["email_status", "email_next_attempt_at"])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable("receipts").execute();
  await db.schema.dropTable("receipt_counters").execute();
}
