/**
 * What the form needs only when the donor pays with PayPal: the PayPal session (SDK loader, buttons,
 * the API's PayPal calls). Imported on "Continue to payment" with PayPal chosen (a deferred chunk),
 * like the pay kit for cards. No React in here: see src/client/paypal/paypal-session.ts.
 */
export { startPayPal, type PayPalSessionOptions } from "../paypal/paypal-session.js";
