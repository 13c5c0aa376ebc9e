/**
 * The card a gift is charged to, as the account shows it ("Visa ending 4242, expires 12/2034";
 * issue 38): read from Stripe's payment method with the secret key when Stripe's signed webhook
 * says the card was saved or used (src/api/stripe/card-details.ts), never from the browser. Kept
 * beside `stripe_payment_method_id`, the card it describes.
 */
import type { Kysely } from "kysely";

const COLUMNS = [
  ["card_payment_method_id", "text"],
  ["card_brand", "text"],
  ["card_last4", "text"],
  ["card_exp_month", "integer"],
  ["card_exp_year", "integer"],
] as const;

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const [name, type] of COLUMNS) await db.schema.alterTable("donations").addColumn(name, type).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const [name] of COLUMNS) await db.schema.alterTable("donations").dropColumn(name).execute();
}
