/**
 * What the form needs only once the donor chooses to pay: the payments API client, its errors, the
 * idempotency keys and the Stripe.js loader. Imported on "Continue to payment" (a deferred chunk),
 * so none of it weighs on a page where the donor only reads or types.
 */
export { createPaymentsClient } from "../../payments/client.js";
export { PaymentsApiError, PaymentsError } from "../../payments/errors.js";
export { createAttemptKeys } from "../../payments/idempotency.js";
export { loadStripeJs, StripeLoadError } from "../stripe/load-stripe.js";
export { failureKindOf } from "./failure-kind.js";
export { PAYPAL_MESSAGES } from "../../payments/paypal.js";
