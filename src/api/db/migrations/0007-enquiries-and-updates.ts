/**
 * The enquiries and updates API (issue 39, item 5): enquiries from the contact page, and
 * e-mail updates with consent recorded (when, where, the words agreed to), double opt-in and an
 * unsubscribe link in every update (Spam Act 2003); and the attempts the rate limits count.
 */
import { type Kysely, sql } from "kysely";

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("enquiries")
    .addColumn("id", "text", (c) => c.primaryKey())
    // The form's Idempotency-Key: a double submit is one enquiry.
    .addColumn("idempotency_key", "text", (c) => c.notNull().unique())
    .addColumn("name", "text", (c) => c.notNull())
    .addColumn("email", "text", (c) => c.notNull())
    .addColumn("topic", "text", (c) => c.notNull())
    .addColumn("message", "text", (c) => c.notNull())
    .addColumn("created_at", "timestamptz", (c) => c.notNull())
    .execute();
  await db.schema
    .createTable("update_subscribers")
    // Lower-cased; one row per address.
    .addColumn("email", "text", (c) => c.primaryKey())
    .addColumn("status", "text", (c) => c.notNull().check(sql`status in ('pending', 'confirmed', 'unsubscribed')`))
    // Consent as given: when, where (the footer, the donation form), the words the person agreed to.
    .addColumn("consent_at", "timestamptz", (c) => c.notNull())
    .addColumn("consent_source", "text", (c) => c.notNull())
    .addColumn("consent_text", "text", (c) => c.notNull())
    // SHA-256 of the confirmation link's token (the link itself is only in the e-mail).
    .addColumn("confirm_token_hash", "text")
    .addColumn("confirmed_at", "timestamptz")
    // In every update's unsubscribe link; it can only unsubscribe.
    .addColumn("unsubscribe_token", "text", (c) => c.notNull().unique())
    .addColumn("unsubscribed_at", "timestamptz")
    .execute();
  await db.schema
    .createTable("rate_events")
    // `enquiry:email:<address>`, `enquiry:ip:<address>`, `updates:email:…`, `updates:ip:…`.
    .addColumn("bucket", "text", (c) => c.notNull())
    .addColumn("at", "timestamptz", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("rate_events_bucket_at").on("rate_events").columns(["bucket", "at"]).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable("rate_events").execute();
  await db.schema.dropTable("update_subscribers").execute();
  await db.schema.dropTable("enquiries").execute();
}
