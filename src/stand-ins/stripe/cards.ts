/**
 * Stripe's test cards, by test PaymentMethod id (`pm_card_visa`) and by number (what Stripe.js
 * sends in `payment_method_data[card][number]`), with what each does: succeed, decline when
 * saved and charged, or save fine and decline when charged later (the off-session failure).
 * From Stripe's testing documentation; only the ones a donations backend meets.
 */
import { invalidRequest, StripeApiError } from "./errors.js";
import { newId } from "./ids.js";
import type { Obj, Store } from "./store.js";

export interface TestCard {
  brand: "visa" | "mastercard" | "amex";
  last4: string;
  funding: "credit" | "debit";
  /** What a charge does: null succeeds, else the decline. */
  chargeDecline: Decline | null;
  /** Whether saving the card (SetupIntent, attach) is declined too. */
  declinesOnSetup: boolean;
  /**
   * 3-D Secure: "none"; "until_setup" (asks on a payment unless the card was saved with a
   * SetupIntent, which asks once); "always" (asks on every payment and setup; off session it
   * declines with authentication_required).
   */
  authentication?: "none" | "until_setup" | "always";
}

export interface Decline {
  code: string;
  decline_code?: string;
  message: string;
}

const GENERIC: Decline = { code: "card_declined", decline_code: "generic_decline", message: "Your card was declined." };
const FUNDS: Decline = {
  code: "card_declined",
  decline_code: "insufficient_funds",
  message: "Your card has insufficient funds.",
};
const EXPIRED: Decline = { code: "expired_card", decline_code: "expired_card", message: "Your card has expired." };
const CVC: Decline = {
  code: "incorrect_cvc",
  decline_code: "incorrect_cvc",
  message: "Your card's security code is incorrect.",
};

const ok = (brand: TestCard["brand"], last4: string, funding: TestCard["funding"] = "credit"): TestCard => ({
  brand,
  last4,
  funding,
  chargeDecline: null,
  declinesOnSetup: false,
});
const declined = (last4: string, decline: Decline, declinesOnSetup = true): TestCard => ({
  brand: "visa",
  last4,
  funding: "credit",
  chargeDecline: decline,
  declinesOnSetup,
});

const threeDs = (
  last4: string,
  authentication: "until_setup" | "always",
  decline: Decline | null = null,
): TestCard => ({
  brand: "visa",
  last4,
  funding: "credit",
  chargeDecline: decline,
  declinesOnSetup: false,
  authentication,
});

export const TEST_PAYMENT_METHODS: Record<string, TestCard> = {
  pm_card_visa: ok("visa", "4242"),
  pm_card_visa_debit: ok("visa", "5556", "debit"),
  pm_card_mastercard: ok("mastercard", "4444"),
  pm_card_amex: ok("amex", "8431"),
  pm_card_au: ok("visa", "0036"),
  pm_card_chargeDeclined: declined("0002", GENERIC),
  pm_card_visa_chargeDeclined: declined("0002", GENERIC),
  pm_card_chargeDeclinedInsufficientFunds: declined("9995", FUNDS),
  pm_card_chargeDeclinedExpiredCard: declined("0069", EXPIRED),
  pm_card_chargeDeclinedIncorrectCvc: declined("0127", CVC),
  // Saves fine, declines when charged: a saved card that fails on a later instalment.
  pm_card_chargeCustomerFail: declined("0341", GENERIC, false),
  pm_card_authenticationRequiredOnSetup: threeDs("3155", "until_setup"),
  pm_card_authenticationRequired: threeDs("3184", "always"),
  pm_card_authenticationRequiredChargeDeclinedInsufficientFunds: threeDs("3178", "always", FUNDS),
};

export const TEST_CARD_NUMBERS: Record<string, TestCard> = {
  "4242424242424242": ok("visa", "4242"),
  "4000056655665556": ok("visa", "5556", "debit"),
  "5555555555554444": ok("mastercard", "4444"),
  "378282246310005": ok("amex", "0005"),
  "4000000360000006": ok("visa", "0006"),
  "4000000000000002": declined("0002", GENERIC),
  "4000000000009995": declined("9995", FUNDS),
  "4000000000000069": declined("0069", EXPIRED),
  "4000000000000127": declined("0127", CVC),
  "4000000000000341": declined("0341", GENERIC, false),
  "4000002500003155": threeDs("3155", "until_setup"),
  "4000002760003184": threeDs("3184", "always"),
  "4000008260003178": threeDs("3178", "always", FUNDS),
};

export function cardOf(pm: Obj): TestCard {
  return pm._card as TestCard;
}

/** A new PaymentMethod object for a test card, stored. */
export function createCardPaymentMethod(store: Store, card: TestCard, billing: Obj = {}, metadata = {}): Obj {
  const year = new Date(store.now() * 1000).getUTCFullYear();
  return store.put({
    id: newId("pm"),
    object: "payment_method",
    allow_redisplay: "unspecified",
    billing_details: {
      address: { city: null, country: null, line1: null, line2: null, postal_code: null, state: null },
      email: billing.email ?? null,
      name: billing.name ?? null,
      phone: billing.phone ?? null,
      tax_id: null,
    },
    card: {
      brand: card.brand,
      checks: { address_line1_check: null, address_postal_code_check: null, cvc_check: "pass" },
      country: card.last4 === "0036" || card.last4 === "0006" ? "AU" : "US",
      display_brand: card.brand === "amex" ? "american_express" : card.brand,
      exp_month: 12,
      exp_year: year + 4,
      fingerprint: newId("fp").slice(3, 19),
      funding: card.funding,
      generated_from: null,
      last4: card.last4,
      networks: { available: [card.brand], preferred: null },
      regulated_status: "unregulated",
      three_d_secure_usage: { supported: true },
      wallet: null,
    },
    created: store.now(),
    customer: null,
    customer_account: null,
    livemode: false,
    metadata,
    type: "card",
    _card: card,
  });
}

/**
 * The PaymentMethod a `payment_method` parameter names: a stored `pm_...`, or a test id such as
 * `pm_card_visa`, which (as at Stripe) makes a new PaymentMethod each time it is used.
 */
export function resolvePaymentMethod(store: Store, id: string, param = "payment_method"): Obj {
  const test = TEST_PAYMENT_METHODS[id];
  if (test) return createCardPaymentMethod(store, test);
  return store.require(id, "payment_method", param, "PaymentMethod");
}

/** `payment_method_data[type]=card&payment_method_data[card][number]=...` as Stripe.js sends it. */
export function paymentMethodFromData(store: Store, data: Obj, param = "payment_method_data"): Obj {
  if (data.type !== "card")
    throw invalidRequest(`Invalid ${param}[type]: only card is supported here`, `${param}[type]`);
  const cardData = data.card;
  if (!cardData || typeof cardData !== "object")
    throw invalidRequest(`Missing required param: ${param}[card].`, `${param}[card]`);
  const number = String(cardData.number ?? "").replace(/\s+/g, "");
  const card = TEST_CARD_NUMBERS[number];
  if (!card)
    throw new StripeApiError(
      402,
      "card_error",
      "Your card number is incorrect. In test mode only Stripe's test card numbers work (for example 4242 4242 4242 4242).",
      { code: "incorrect_number", param: `${param}[card][number]` },
    );
  const billing = typeof data.billing_details === "object" && data.billing_details ? data.billing_details : {};
  return createCardPaymentMethod(store, card, billing);
}
