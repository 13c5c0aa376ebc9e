/**
 * The first schema: donations, the idempotency records of POST calls, the Stripe events seen, and
 * the charges a donation has made (one row per paid invoice or intent). Money in integer cents;
 * times as timestamptz. Never edit a released migration: add the next file.
 */
import { type Kysely, sql } from "kysely";

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("donations")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("reference", "text", (c) => c.notNull().unique())
    // The Idempotency-Key that created it; a change of the gift keeps the donation and adds a key.
    .addColumn("idempotency_key", "text", (c) => c.notNull())
    .addColumn("revision", "integer", (c) => c.notNull().defaultTo(1))
    .addColumn("fund", "text", (c) => c.notNull())
    .addColumn("frequency", "text", (c) => c.notNull())
    .addColumn("payment_method", "text", (c) => c.notNull().defaultTo("card"))
    .addColumn("intent_type", "text", (c) => c.notNull())
    .addColumn("currency", "text", (c) => c.notNull().defaultTo("AUD"))
    .addColumn("amount_cents", "integer", (c) => c.notNull())
    .addColumn("fee_cents", "integer", (c) => c.notNull())
    .addColumn("total_cents", "integer", (c) => c.notNull())
    .addColumn("schedule_total_cents", "integer")
    .addColumn("open_ended", "boolean", (c) => c.notNull())
    .addColumn("schedule", "jsonb", (c) => c.notNull())
    .addColumn("instalments", "jsonb")
    .addColumn("quantity", "jsonb")
    .addColumn("season", "jsonb")
    .addColumn("status", "text", (c) => c.notNull())
    .addColumn("donor_first_name", "text", (c) => c.notNull())
    .addColumn("donor_last_name", "text", (c) => c.notNull())
    .addColumn("donor_email", "text", (c) => c.notNull())
    .addColumn("donor_phone", "text", (c) => c.notNull())
    .addColumn("donor_address", "jsonb")
    .addColumn("anonymous", "boolean", (c) => c.notNull().defaultTo(false))
    .addColumn("dedication", "text")
    .addColumn("cover_fees", "boolean", (c) => c.notNull())
    .addColumn("client_secret", "text", (c) => c.notNull())
    .addColumn("stripe_customer_id", "text")
    .addColumn("stripe_intent_id", "text")
    .addColumn("stripe_subscription_id", "text")
    .addColumn("stripe_schedule_id", "text")
    .addColumn("stripe_payment_method_id", "text")
    .addColumn("paypal_id", "text")
    // The first successful PayPal capture's answer: every later capture call gets it byte for byte.
    .addColumn("paypal_capture_response", "text")
    // The signed-in donor (the user pool token's verified `sub`), so the account shows the gift.
    .addColumn("user_sub", "text")
    .addColumn("created_at", "timestamptz", (c) => c.notNull())
    .addColumn("updated_at", "timestamptz", (c) => c.notNull())
    // Never-paid donations expire (their intents cancelled); null once paid.
    .addColumn("expires_at", "timestamptz")
    .execute();
  await db.schema.createIndex("donations_intent").on("donations").column("stripe_intent_id").execute();
  await db.schema.createIndex("donations_subscription").on("donations").column("stripe_subscription_id").execute();
  await db.schema.createIndex("donations_user_sub").on("donations").column("user_sub").execute();
  await db.schema.createIndex("donations_expires").on("donations").column("expires_at").execute();

  await db.schema
    .createTable("idempotency_keys")
    .addColumn("key", "text", (c) => c.notNull())
    // What the key was used for ("POST /donations", "POST /donations/{id}/paypal/order", ...).
    .addColumn("scope", "text", (c) => c.notNull())
    .addColumn("body_hash", "text", (c) => c.notNull())
    .addColumn("status", "integer", (c) => c.notNull())
    .addColumn("response", "text", (c) => c.notNull())
    .addColumn("donation_id", "text")
    .addColumn("created_at", "timestamptz", (c) => c.notNull())
    .addPrimaryKeyConstraint("idempotency_keys_pk", ["scope", "key"])
    .execute();

  await db.schema
    .createTable("stripe_events")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("type", "text", (c) => c.notNull())
    .addColumn("donation_id", "text")
    .addColumn("processed_at", "timestamptz", (c) => c.notNull())
    .execute();

  await db.schema
    .createTable("charges")
    // The Stripe object that took the money: a PaymentIntent or an invoice.
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("donation_id", "text", (c) => c.notNull().references("donations.id"))
    .addColumn("amount_cents", "integer", (c) => c.notNull())
    .addColumn("status", "text", (c) => c.notNull())
    .addColumn("charged_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema.createIndex("charges_donation").on("charges").column("donation_id").execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of ["charges", "stripe_events", "idempotency_keys", "donations"]) {
    await db.schema.dropTable(table).execute();
  }
}
