/**
 * What the form needs only when the donor pays with PayPal: the PayPal step and its session (SDK
 * loader, buttons, the API's PayPal calls; no React in the session: see
 * src/client/paypal/paypal-session.ts). Imported on "Continue to payment" with PayPal chosen (a
 * deferred chunk), like the pay kit for cards.
 */
// React renders its step: see src/client/framework.ts.
import "../framework.js";
export { startPayPal, type PayPalSessionOptions } from "../paypal/paypal-session.js";
export { PayPalStep } from "./paypal-step.js";
