/**
 * The Stripe SDK, configured once: the secret key from the environment (or Secrets Manager in
 * Lambda), the API version pinned to the one this SDK release was written for, and optionally
 * another host (`STRIPE_API_BASE`, e.g. the local stand-in at http://127.0.0.1:12111) parsed into
 * the SDK's host, port and protocol (src/api/stripe/settings.ts checks both).
 */
import Stripe from "stripe";
import { checkStripeSettings, hostOptions, type StripeSettings } from "./settings.js";

export type { StripeSettings };

export function createStripeClient(settings: StripeSettings): Stripe {
  checkStripeSettings(settings);
  return new Stripe(settings.secretKey, {
    apiVersion: Stripe.API_VERSION as Stripe.LatestApiVersion,
    // Retries of a failed call, each with the same idempotency key.
    maxNetworkRetries: 2,
    timeout: 20_000,
    appInfo: { name: "nzf-build payments API" },
    telemetry: false,
    ...(settings.apiBase ? hostOptions(settings.apiBase) : {}),
  });
}

export { Stripe };
