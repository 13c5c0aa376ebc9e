/**
 * What a card gift asks Stripe for, by schedule (docs/payments-api.md, "Stripe objects"):
 *
 * - first charge today, `once`: a PaymentIntent for the total;
 * - `monthly`: a Subscription (price_data, `default_incomplete`), whose first invoice's client
 *   secret the page confirms; the card is saved on the subscription;
 * - `monthly-instalments`, `weekly-friday` and the seasons when the first charge is today: a
 *   PaymentIntent with `setup_future_usage: off_session` (the card is saved); instalments then get a
 *   SubscriptionSchedule once the first payment's webhook arrives (`startInstalmentSchedule`);
 * - first charge later: a SetupIntent.
 *
 * Every call carries an idempotency key made from the donation id and its revision, so a retry (the
 * SDK's, the donor's, or ours after a crash) returns the same object and never charges twice.
 * Amounts in cents, currency aud, intents with automatic payment methods (wallets), and the fund,
 * fee and reference in the metadata.
 */
import type Stripe from "stripe";
import type { DonationRow } from "../db/schema.js";

export interface OpenedIntent {
  clientSecret: string;
  /** The PaymentIntent or SetupIntent the page confirms (a subscription's first invoice's intent). */
  intentId: string;
  subscriptionId?: string;
  /** The subscription's billing cycle anchor (Unix seconds): the day of the month Stripe bills on. */
  billingAnchor?: number;
}

type Gift = Pick<
  DonationRow,
  | "id"
  | "revision"
  | "reference"
  | "fund"
  | "frequency"
  | "intent_type"
  | "amount_cents"
  | "fee_cents"
  | "total_cents"
  | "schedule"
  | "instalments"
>;

export const keyOf = (gift: Pick<Gift, "id" | "revision">, what: string) => `${gift.id}/r${gift.revision}/${what}`;

export function metadataOf(gift: Gift): Stripe.MetadataParam {
  return {
    donation_id: gift.id,
    // Which version of the gift: an intent of an earlier one (changed since) never sets its status.
    revision: String(gift.revision),
    reference: gift.reference,
    fund: gift.fund,
    frequency: gift.frequency,
    amount_cents: String(gift.amount_cents),
    fee_cents: String(gift.fee_cents),
    total_cents: String(gift.total_cents),
    currency: "aud",
  };
}

const describe = (gift: Gift) => `NZF ${gift.fund} ${gift.reference}`;

/** The client secret names its intent: `pi_123_secret_abc` → `pi_123`. */
export const intentIdOf = (clientSecret: string) => clientSecret.split("_secret_")[0]!;

export async function openIntent(stripe: Stripe, gift: Gift, customerId: string): Promise<OpenedIntent> {
  const metadata = metadataOf(gift);
  // Keyed by the customer too: a retry for a new customer (the stored one gone) is a new request.
  const keyFor = (what: string) => keyOf(gift, `${what}/${customerId}`);
  if (gift.intent_type === "setup") {
    const setup = await stripe.setupIntents.create(
      { customer: customerId, usage: "off_session", automatic_payment_methods: { enabled: true }, metadata },
      { idempotencyKey: keyFor("setup_intent") },
    );
    return { clientSecret: setup.client_secret!, intentId: setup.id };
  }
  if (gift.frequency === "monthly") {
    const product = await ensureFundProduct(stripe, gift.fund);
    const subscription = await stripe.subscriptions.create(
      {
        customer: customerId,
        items: [
          {
            price_data: {
              currency: "aud",
              product,
              unit_amount: gift.total_cents,
              recurring: { interval: "month" },
            },
          },
        ],
        payment_behavior: "default_incomplete",
        payment_settings: { save_default_payment_method: "on_subscription" },
        description: describe(gift),
        metadata,
        expand: ["latest_invoice.confirmation_secret"],
      },
      { idempotencyKey: keyFor("subscription") },
    );
    const invoice = subscription.latest_invoice as Stripe.Invoice | null;
    const secret = invoice?.confirmation_secret?.client_secret;
    if (!secret) throw new Error(`Stripe made subscription ${subscription.id} without a first invoice to confirm.`);
    return {
      clientSecret: secret,
      intentId: intentIdOf(secret),
      subscriptionId: subscription.id,
      billingAnchor: subscription.billing_cycle_anchor,
    };
  }
  const recurring = gift.frequency !== "once";
  const intent = await stripe.paymentIntents.create(
    {
      amount: gift.schedule[0]?.amountCents ?? gift.total_cents,
      currency: "aud",
      customer: customerId,
      automatic_payment_methods: { enabled: true },
      ...(recurring ? { setup_future_usage: "off_session" as const } : {}),
      description: describe(gift),
      metadata,
    },
    { idempotencyKey: keyFor("payment_intent") },
  );
  return { clientSecret: intent.client_secret!, intentId: intent.id };
}

/**
 * After the first instalment is paid: the rest as a SubscriptionSchedule that starts on the second
 * payment's date and ends by itself after the last (which may differ by the cents left over).
 * It starts at 00:00 UTC of that date (10 or 11 am in Sydney, the same day): Stripe counts months
 * in UTC from its start, so the day of the month it bills is the Sydney date the page showed (a
 * start at midnight in Sydney is the day before in UTC, and the 1st of a month then billed on the
 * 29th). Returns the schedule and that start, the anchor of its billing.
 */
export async function startInstalmentSchedule(
  stripe: Stripe,
  gift: Gift,
  customerId: string,
  paymentMethodId: string | null,
): Promise<{ scheduleId: string; anchor: number } | null> {
  const rest = gift.schedule.slice(1);
  if (rest.length === 0) return null;
  const start = Math.floor(Date.parse(`${rest[0]!.date}T00:00:00Z`) / 1000);
  const scheduleId = await layInstalmentSchedule(stripe, gift, {
    customerId,
    paymentMethodId,
    amounts: rest.map((c) => c.amountCents),
    start,
    idempotencyKey: keyOf(gift, "subscription_schedule"),
  });
  return { scheduleId, anchor: start };
}

/**
 * A SubscriptionSchedule billing `amounts` (cents, one a month) from `start` (Unix seconds) and
 * ending by itself after the last: one phase, and the last apart when it differs (the cents a
 * split leaves over). The first instalments' schedule, and a paused plan's remaining ones on resume.
 */
export async function layInstalmentSchedule(
  stripe: Stripe,
  gift: Gift,
  plan: {
    customerId: string;
    paymentMethodId: string | null;
    amounts: number[];
    start: number;
    idempotencyKey: string;
  },
): Promise<string> {
  const product = await ensureFundProduct(stripe, gift.fund);
  const phaseOf = (cents: number, months: number): Stripe.SubscriptionScheduleCreateParams.Phase => ({
    items: [{ price_data: { currency: "aud", product, unit_amount: cents, recurring: { interval: "month" } } }],
    duration: { interval: "month", interval_count: months },
    metadata: metadataOf(gift),
  });
  const { amounts } = plan;
  const regular = amounts[0]!;
  const last = amounts.at(-1)!;
  const phases =
    last === regular || amounts.length === 1
      ? [phaseOf(regular, amounts.length)]
      : [phaseOf(regular, amounts.length - 1), phaseOf(last, 1)];
  const schedule = await stripe.subscriptionSchedules.create(
    {
      customer: plan.customerId,
      start_date: plan.start,
      end_behavior: "cancel",
      default_settings: {
        collection_method: "charge_automatically",
        ...(plan.paymentMethodId ? { default_payment_method: plan.paymentMethodId } : {}),
        description: describe(gift),
      },
      phases,
      metadata: metadataOf(gift),
    },
    { idempotencyKey: plan.idempotencyKey },
  );
  return schedule.id;
}

/** One product per fund, with a fixed id: made once, found after (a second create says it exists). */
export async function ensureFundProduct(stripe: Stripe, fund: string): Promise<string> {
  const id = `nzf_fund_${fund.replace(/-/g, "_")}`;
  try {
    await stripe.products.create({ id, name: `NZF ${fund}` }, { idempotencyKey: `product/${id}` });
  } catch (error) {
    if ((error as { code?: string }).code !== "resource_already_exists") throw error;
  }
  return id;
}

/** Cancels what a pending donation opened (a change of gift, or its expiry); already-final intents are left. */
export async function cancelIntent(stripe: Stripe, row: DonationRow): Promise<void> {
  const ignoreFinal = (error: unknown) => {
    const code = (error as { code?: string }).code;
    if (
      code !== "payment_intent_unexpected_state" &&
      code !== "setup_intent_unexpected_state" &&
      code !== "resource_missing"
    )
      throw error;
  };
  if (row.stripe_subscription_id) {
    await stripe.subscriptions.cancel(row.stripe_subscription_id).catch(ignoreFinal);
    return;
  }
  if (!row.stripe_intent_id) return;
  if (row.stripe_intent_id.startsWith("seti_"))
    await stripe.setupIntents
      .cancel(row.stripe_intent_id, {}, { idempotencyKey: keyOf(row, "cancel") })
      .catch(ignoreFinal);
  else
    await stripe.paymentIntents
      .cancel(row.stripe_intent_id, {}, { idempotencyKey: keyOf(row, "cancel") })
      .catch(ignoreFinal);
}
