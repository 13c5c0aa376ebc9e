/**
 * The donation island on /pay/ and every /pay/<fund>/ page. The form lives in
 * src/client/donation/; Stripe.js is loaded only when the donor proceeds (src/client/stripe/).
 * The page's sticky "Give now" starts watching as soon as this code runs, before any hydration.
 */
import { watchStickyGiveNow } from "../donation/sticky-give-now.js";

if (typeof document !== "undefined") watchStickyGiveNow();

export { default, hydrateNow } from "../donation/donation-form.js";
export type { DonationIslandProps } from "../donation/config.js";
