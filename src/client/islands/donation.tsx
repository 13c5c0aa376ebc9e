/**
 * The donation island on /pay/ and every /pay/<fund>/ page. The form lives in
 * src/client/donation/; Stripe.js is loaded only when the donor proceeds (src/client/stripe/).
 */
export { default, hydrateNow } from "../donation/donation-form.js";
export type { DonationIslandProps } from "../donation/config.js";
