/**
 * Which failure a payments client or Stripe loader error is, so the form can say it in the page's
 * language (words/*.ts `failures`). In the deferred pay kit: only needed once something went wrong.
 */
import { DONOR_MESSAGES, PaymentsApiError, PaymentsNetworkError, PaymentsTimeoutError } from "../../payments/errors.js";
import { StripeLoadError } from "../stripe/load-stripe.js";
import type { FailureKind } from "./words/en.js";

export function failureKindOf(error: unknown): FailureKind | undefined {
  if (error instanceof StripeLoadError)
    return error.message.startsWith("Failed to load") ? "stripeFailedToLoad" : "stripeNotAvailable";
  if (error instanceof PaymentsNetworkError) return "network";
  if (error instanceof PaymentsTimeoutError) return "timeout";
  if (error instanceof PaymentsApiError) {
    if (error.status === 429) return "rateLimited";
    if (error.status === 503) return "unavailable";
    if (error.status >= 500) return "server";
    if (error.message === DONOR_MESSAGES.badResponse) return "badResponse";
  }
  return undefined;
}
