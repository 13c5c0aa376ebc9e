/**
 * What the form needs only once the donor chooses to pay: the payments API client, its errors, the
 * idempotency keys, the Stripe.js loader, the card step and its entry in the browser's history. Imported on "Continue to payment" (a deferred chunk),
 * so none of it weighs on a page where the donor only reads or types.
 */
// React renders its step: see src/client/framework.ts.
import "../framework.js";
export { createPaymentsClient } from "../../payments/client.js";
export { PaymentsApiError, PaymentsError } from "../../payments/errors.js";
export { createAttemptKeys } from "../../payments/idempotency.js";
export { loadStripeJs, StripeLoadError } from "../stripe/load-stripe.js";
export { failureKindOf } from "./failure-kind.js";
export { PAYPAL_MESSAGES } from "../../payments/paypal.js";
export { PaymentStep } from "./payment-step.js";
export { enterStepInHistory } from "./step-history.js";
export { changeOrCreate } from "./change-gift.js";
export { donorAccessToken } from "./donor-token.js";
export { signUpOnce, type SignUpMemory, type UpdatesNote } from "./updates-sign-up.js";
