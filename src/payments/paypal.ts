/**
 * PayPal as a second way to pay (docs/payments-api.md, "PayPal"): which schedules it takes, the
 * bodies of its three calls, and the codes and messages of what can go wrong. Shared by the browser
 * (the form and its PayPal step) and the backend (the local payments API), like the rest of this
 * folder. Browser-safe.
 */
import type { DonationState } from "./types.js";

import { PAYPAL_CARDS_ONLY } from "./paypal-schedules.js";

export { PAYPAL_CARDS_ONLY, PAYPAL_FREQUENCIES, paypalFits } from "./paypal-schedules.js";

/** How the donor pays; `POST /donations` takes it as `paymentMethod` (default "card"). */
export type PaymentMethod = "card" | "paypal";

/** `POST /donations/{id}/paypal/order` 201. */
export interface PayPalOrderCreated {
  orderId: string;
}

/** `POST /donations/{id}/paypal/subscription` 201. */
export interface PayPalSubscriptionCreated {
  subscriptionId: string;
}

/** `POST /donations/{id}/paypal/capture` body: what PayPal's onApprove reported. */
export type PayPalCaptureRequest = { orderId: string } | { subscriptionId: string };

/** `POST /donations/{id}/paypal/capture` 200: the donation as `GET /donations/{id}` reports it. */
export type PayPalCaptured = DonationState;

/**
 * The PayPal error codes: the API's (in `error.code`, docs/payments-api.md "Errors") and the
 * browser's own (the SDK's callbacks), each with what happened and what to do.
 */
export const PAYPAL_MESSAGES = {
  /** 400 validation_failed, field paymentMethod. */
  cardsOnly: PAYPAL_CARDS_ONLY,
  /** 402: PayPal refused the funding source the donor chose. */
  paypal_declined:
    "PayPal declined this payment. Nothing was charged. Choose another card or bank in PayPal and try again, or pay by card.",
  /** 409: an order or subscription that is not this donation's. */
  paypal_mismatch:
    "This PayPal payment belongs to another gift. Nothing was charged. Please reload the page and try again.",
  /** 422: captured before the donor approved it in PayPal's window. */
  paypal_not_approved:
    "PayPal has not confirmed your approval yet. Nothing was charged. Choose PayPal again and finish in its window.",
  /** 422: the donation is a card gift, or its schedule is cards only. */
  paypal_not_allowed: "This gift cannot be paid with PayPal. Nothing was charged. Please pay by card.",
  /** Browser: the donor closed PayPal's window. */
  paypal_cancelled:
    "You closed PayPal before finishing, so nothing was paid. Everything you entered is still here: choose PayPal again, or pay by card.",
  /** Browser: the browser blocked PayPal's window. */
  paypal_popup_blocked:
    "Your browser blocked PayPal's window. Nothing was charged. Allow pop-ups for this site and choose PayPal again, or pay by card.",
  /** Browser: the SDK script did not load (network, blocker) or did not start. */
  paypal_script_failed:
    "PayPal's buttons did not load: check your connection (or an ad or script blocker) and try again, or pay by card. Nothing was charged.",
  /** Browser: any other error the SDK reports. */
  paypal_failed: "PayPal could not complete the payment. Nothing was charged. Please try again, or pay by card.",
} as const;

export type PayPalErrorCode = Exclude<keyof typeof PAYPAL_MESSAGES, "cardsOnly">;
