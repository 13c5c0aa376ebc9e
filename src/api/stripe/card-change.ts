/**
 * A regular gift's new card (the account page's "Change card"): a SetupIntent for the donor's
 * Stripe customer, marked `purpose: card_change` with the donation, which the page confirms with
 * Stripe's Payment Element. Only Stripe's signed `setup_intent.succeeded` makes the card the
 * gift's (`applyCardChange`): the subscription's `default_payment_method` (a schedule's too, for
 * its later phases) and the card the service charges itself (`stripe_payment_method_id`). The
 * intent must belong to the donation's own customer; anything else changes nothing.
 */
import type Stripe from "stripe";
import type { DonationRow } from "../db/schema.js";
import type { ApiDeps } from "../deps.js";
import { rememberCard } from "./card-details.js";

export const CARD_CHANGE = "card_change";

/** The SetupIntent for a new card; the same one for a repeat until a new card is saved (the key names the card in use). */
export async function startCardChange(
  deps: Pick<ApiDeps, "db">,
  stripe: Stripe,
  donationId: string,
): Promise<{ clientSecret: string } | null> {
  const row = await deps.db
    .selectFrom("donations")
    .select(["id", "reference", "stripe_customer_id", "stripe_payment_method_id"])
    .where("id", "=", donationId)
    .executeTakeFirstOrThrow();
  if (!row.stripe_customer_id) return null;
  const intent = await stripe.setupIntents.create(
    {
      customer: row.stripe_customer_id,
      usage: "off_session",
      automatic_payment_methods: { enabled: true },
      metadata: { donation_id: row.id, purpose: CARD_CHANGE, reference: row.reference },
    },
    { idempotencyKey: `${row.id}/card-change/${row.stripe_payment_method_id ?? "none"}` },
  );
  return { clientSecret: intent.client_secret! };
}

const idOf = (value: string | { id: string } | null | undefined) =>
  typeof value === "string" ? value : (value?.id ?? null);

/** Stripe's signed `setup_intent.succeeded` of a card change: the new card becomes the gift's. */
export async function applyCardChange(deps: ApiDeps, row: DonationRow, intent: Stripe.SetupIntent): Promise<boolean> {
  const card = idOf(intent.payment_method);
  if (!card || !row.stripe_customer_id || idOf(intent.customer) !== row.stripe_customer_id) {
    deps.logger?.warn("api", `card change ${intent.id} ignored: not the customer of ${row.id}`);
    return false;
  }
  const stripe = deps.stripe;
  if (stripe) {
    const key = (what: string) => `${row.id}/card-change/${intent.id}/${what}`;
    let subscription = row.stripe_subscription_id;
    if (row.stripe_schedule_id) {
      const schedule = await stripe.subscriptionSchedules.retrieve(row.stripe_schedule_id);
      if (schedule.status === "active" || schedule.status === "not_started")
        await stripe.subscriptionSchedules.update(
          row.stripe_schedule_id,
          { default_settings: { default_payment_method: card } },
          { idempotencyKey: key("schedule") },
        );
      subscription ??= idOf(schedule.subscription);
    }
    if (subscription)
      await stripe.subscriptions.update(
        subscription,
        { default_payment_method: card },
        { idempotencyKey: key("subscription") },
      );
  }
  await deps.db
    .updateTable("donations")
    .set({ stripe_payment_method_id: card, updated_at: new Date() })
    .where("id", "=", row.id)
    .execute();
  // What the account shows of it: brand, last digits, expiry, from Stripe.
  await rememberCard(deps, stripe, row.id, card);
  return true;
}
