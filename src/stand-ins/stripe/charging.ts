/**
 * Confirming a PaymentIntent: the card is charged (a Charge with its balance transaction), and the
 * intent moves as Stripe's status machine says: requires_payment_method / requires_confirmation →
 * succeeded, or back to requires_payment_method with `last_payment_error` on a decline (402
 * card_error, `charge.failed` and `payment_intent.payment_failed`). Cards settle at once, so
 * `processing` is not used. Shared by the PaymentIntents endpoints and by invoices.
 */
import { type Decline, cardOf } from "./cards.js";
import { invalidRequest, StripeApiError, unexpectedState } from "./errors.js";
import { newId, randomToken } from "./ids.js";
import { attachPaymentMethod } from "./resources/payment-methods.js";
import { type Obj, type Store, snapshot } from "./store.js";

const CONFIRMABLE = ["requires_payment_method", "requires_confirmation", "requires_action"];

/** Stripe's Australian card pricing for the balance transaction's fee: 1.7% + 30c. */
export const feeFor = (amount: number) => Math.round(amount * 0.017) + 30;

function balanceTransaction(store: Store, charge: Obj): Obj {
  const fee = feeFor(charge.amount);
  return store.put({
    id: newId("txn"),
    object: "balance_transaction",
    amount: charge.amount,
    available_on: store.now() + 2 * 86_400,
    balance_type: "payments",
    created: store.now(),
    currency: charge.currency,
    description: charge.description,
    exchange_rate: null,
    fee,
    fee_details: [
      {
        amount: fee,
        application: null,
        currency: charge.currency,
        description: "Stripe processing fees",
        type: "stripe_fee",
      },
    ],
    net: charge.amount - fee,
    reporting_category: "charge",
    source: charge.id,
    status: "pending",
    type: "charge",
  });
}

function createCharge(store: Store, pi: Obj, pm: Obj, decline: Decline | null): Obj {
  const card = pm.card;
  const charge = store.put({
    id: newId("ch"),
    object: "charge",
    amount: pi.amount,
    amount_captured: decline ? 0 : pi.amount,
    amount_refunded: 0,
    application: null,
    application_fee: null,
    application_fee_amount: null,
    balance_transaction: null,
    billing_details: pm.billing_details,
    calculated_statement_descriptor: "NZF AUSTRALIA",
    captured: !decline,
    created: store.now(),
    currency: pi.currency,
    customer: pi.customer,
    description: pi.description,
    disputed: false,
    failure_balance_transaction: null,
    failure_code: decline?.code ?? null,
    failure_message: decline?.message ?? null,
    fraud_details: {},
    livemode: false,
    metadata: { ...pi.metadata },
    on_behalf_of: null,
    outcome: decline
      ? {
          advice_code: "try_again_later",
          network_advice_code: null,
          network_decline_code: null,
          network_status: "declined_by_network",
          reason: decline.decline_code ?? decline.code,
          risk_level: "normal",
          risk_score: 20,
          seller_message: "The bank did not return any further details with this decline.",
          type: "issuer_declined",
        }
      : {
          advice_code: null,
          network_advice_code: null,
          network_decline_code: null,
          network_status: "approved_by_network",
          reason: null,
          risk_level: "normal",
          risk_score: 20,
          seller_message: "Payment complete.",
          type: "authorized",
        },
    paid: !decline,
    payment_intent: pi.id,
    payment_method: pm.id,
    payment_method_details: {
      card: {
        amount_authorized: decline ? null : pi.amount,
        authorization_code: decline ? null : String(100000 + Math.floor(Math.random() * 899999)),
        brand: card.brand,
        checks: card.checks,
        country: card.country,
        exp_month: card.exp_month,
        exp_year: card.exp_year,
        fingerprint: card.fingerprint,
        funding: card.funding,
        installments: null,
        last4: card.last4,
        mandate: null,
        network: card.brand,
        network_token: { used: false },
        three_d_secure: null,
        wallet: null,
      },
      type: "card",
    },
    radar_options: {},
    receipt_email: pi.receipt_email,
    receipt_number: null,
    receipt_url: `https://pay.stripe.com/receipts/payment/${randomToken(40)}`,
    refunded: false,
    review: null,
    shipping: null,
    source: null,
    source_transfer: null,
    statement_descriptor: null,
    statement_descriptor_suffix: pi.statement_descriptor_suffix ?? null,
    status: decline ? "failed" : "succeeded",
    transfer_data: null,
    transfer_group: null,
  });
  if (!decline) charge.balance_transaction = balanceTransaction(store, charge).id;
  return charge;
}

/**
 * Confirms `pi` with `pm` (or the one it has). Returns the intent, succeeded; on a decline updates
 * the intent and throws the 402 Stripe answers with.
 */
export function confirmIntent(store: Store, pi: Obj, pm: Obj | null, opts: { offSession?: boolean } = {}): Obj {
  if (!CONFIRMABLE.includes(pi.status)) {
    if (pi.status === "succeeded")
      throw unexpectedState(
        "You cannot confirm this PaymentIntent because it has already succeeded after being previously confirmed.",
      );
    throw unexpectedState(
      `You cannot confirm this PaymentIntent because it has a status of ${pi.status}. Only a PaymentIntent with one of the following statuses may be confirmed: requires_confirmation, requires_action, requires_payment_method.`,
    );
  }
  const method = pm ?? (pi.payment_method ? store.get(pi.payment_method, "payment_method") : undefined);
  if (!method)
    throw invalidRequest(
      "You cannot confirm this PaymentIntent because it's missing a payment method. To confirm the PaymentIntent, specify a payment method (payment_method or payment_method_data).",
      "payment_method",
      "payment_intent_unexpected_state",
    );
  if (method.customer && method.customer !== pi.customer)
    throw invalidRequest(
      pi.customer
        ? "The provided PaymentMethod belongs to a different Customer than the one on this PaymentIntent."
        : "The provided PaymentMethod was previously attached to a Customer. To use it with this PaymentIntent, you must provide the same Customer ID in the customer parameter.",
      "payment_method",
    );
  if (!method.customer && method._used_without_customer)
    throw invalidRequest(
      "The provided PaymentMethod was previously used without being attached to a Customer or was detached from a Customer, and may not be used again.",
      "payment_method",
    );
  const card = cardOf(method);
  pi.payment_method = method.id;
  const auth = card.authentication ?? "none";
  const asks = auth === "always" || (auth === "until_setup" && !method._authenticated_setup);
  if (asks && !opts.offSession) {
    // The bank asks the cardholder (3-D Secure): Stripe.js shows the challenge.
    pi.status = "requires_action";
    pi.next_action = {
      type: "use_stripe_sdk",
      use_stripe_sdk: {
        type: "three_d_secure_redirect",
        stripe_js: `https://hooks.stripe.com/3d_secure_2/hosted?intent=${pi.id}`,
        source: newId("src"),
      },
    };
    pi._pending_method = method.id;
    store.emit("payment_intent.requires_action", pi);
    return pi;
  }
  const decline = asks ? AUTHENTICATION_REQUIRED : card.chargeDecline;
  return chargeCard(store, pi, method, decline);
}

const AUTHENTICATION_REQUIRED: Decline = {
  code: "authentication_required",
  decline_code: "authentication_required",
  message: "Your card was declined. This transaction requires authentication.",
};

/**
 * The cardholder's answer to 3-D Secure (what Stripe.js's challenge ends with): the intent is
 * charged, or goes back to requires_payment_method with payment_intent_authentication_failure.
 */
export function completeAuthentication(store: Store, pi: Obj, outcome: "succeed" | "fail"): Obj {
  if (pi.status !== "requires_action")
    throw unexpectedState(`This PaymentIntent has a status of ${pi.status}, not requires_action.`);
  const method = store.get(pi._pending_method, "payment_method")!;
  pi.next_action = null;
  if (outcome === "fail") {
    pi.status = "requires_payment_method";
    pi.payment_method = null;
    pi.last_payment_error = {
      code: "payment_intent_authentication_failure",
      doc_url: "https://stripe.com/docs/error-codes/payment-intent-authentication-failure",
      message:
        "We are unable to authenticate your payment method. Please choose a different payment method and try again.",
      payment_method: snapshot(method),
      type: "invalid_request_error",
    };
    store.emit("payment_intent.payment_failed", pi);
    store.fire("intent.failed", pi);
    return pi;
  }
  // A card authenticated while being saved for later needs no challenge off session.
  if (pi.setup_future_usage) method._authenticated_setup = true;
  try {
    return chargeCard(store, pi, method, cardOf(method).chargeDecline);
  } catch (error) {
    if (error instanceof StripeApiError && error.status === 402) return pi;
    throw error;
  }
}

function chargeCard(store: Store, pi: Obj, method: Obj, decline: Decline | null): Obj {
  pi.payment_method = method.id;
  const charge = createCharge(store, pi, method, decline);
  pi.latest_charge = charge.id;
  if (decline) {
    if (!method.customer) method._used_without_customer = true;
    const error = {
      charge: charge.id,
      code: decline.code,
      decline_code: decline.decline_code,
      doc_url: `https://stripe.com/docs/error-codes/${decline.code.replace(/_/g, "-")}`,
      message: decline.message,
      payment_method: snapshot(method),
      type: "card_error",
    };
    pi.status = "requires_payment_method";
    pi.last_payment_error = error;
    pi.payment_method = null;
    store.emit("charge.failed", charge);
    store.emit("payment_intent.payment_failed", pi);
    store.fire("intent.failed", pi);
    throw new StripeApiError(402, "card_error", decline.message, {
      code: decline.code,
      decline_code: decline.decline_code,
      extra: {
        charge: charge.id,
        payment_intent: snapshot(pi),
        payment_method: snapshot(method),
        request_log_url: null,
      },
    });
  }
  if (pi.setup_future_usage && pi.customer && !method.customer) attachPaymentMethod(store, method, pi.customer);
  else if (!method.customer) method._used_without_customer = true;
  pi.status = "succeeded";
  pi.amount_received = pi.amount;
  delete pi._pending_method;
  pi.last_payment_error = null;
  pi.next_action = null;
  store.emit("charge.succeeded", charge);
  store.emit("payment_intent.succeeded", pi);
  store.fire("intent.succeeded", pi);
  return pi;
}
