/**
 * The site's Stripe publishable key (STRIPE_PUBLISHABLE_KEY, the build's payments settings) for the
 * account page's card form; null when the build has none (the card cannot be changed here then).
 */
import { createContext } from "react";

export const StripeKey = createContext<string | null>(null);
