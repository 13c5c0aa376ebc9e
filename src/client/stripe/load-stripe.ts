/**
 * Loads Stripe.js only when the donor proceeds to pay: `@stripe/stripe-js/pure` is imported
 * dynamically (its own chunk, not part of the form's first load) and injects the script from
 * js.stripe.com only when `loadStripe` is called. Failures become a `StripeLoadError` with
 * Stripe's own messages, 'Failed to load Stripe.js' (network, blocked, chunk missing) and
 * 'Stripe.js not available' (the script ran but defined no `Stripe`), and are always retryable:
 * the library forgets a failed load, so calling again injects the script again.
 */
import type { Stripe } from "@stripe/stripe-js";

export const FAILED_TO_LOAD = "Failed to load Stripe.js";
export const NOT_AVAILABLE = "Stripe.js not available";

export class StripeLoadError extends Error {
  readonly retryable = true;
  /** What the donor reads: Stripe's message, what it means, and what to do. */
  readonly donorMessage: string;
  constructor(message: typeof FAILED_TO_LOAD | typeof NOT_AVAILABLE, cause?: unknown) {
    super(message, { cause });
    this.name = "StripeLoadError";
    this.donorMessage =
      message === FAILED_TO_LOAD
        ? `${FAILED_TO_LOAD}. Our card form comes from Stripe and did not load: check your connection (or an ad or script blocker) and try again. Nothing was charged.`
        : `${NOT_AVAILABLE}. The card form from Stripe did not start. Please try again; if it keeps happening, reload the page. Nothing was charged.`;
  }
}

type LoadStripe = (publishableKey: string) => Promise<Stripe | null>;
type PureModule = { loadStripe?: LoadStripe; default?: { loadStripe?: LoadStripe } };

export async function loadStripeJs(publishableKey: string): Promise<Stripe> {
  let loadStripe: LoadStripe | undefined;
  try {
    const mod: PureModule = await import("@stripe/stripe-js/pure");
    // The package's `pure` entry is CommonJS to bundlers (no exports map): the function may sit on `default`.
    loadStripe = mod.loadStripe ?? mod.default?.loadStripe;
  } catch (error) {
    throw new StripeLoadError(FAILED_TO_LOAD, error);
  }
  if (typeof loadStripe !== "function")
    throw new StripeLoadError(FAILED_TO_LOAD, new TypeError("@stripe/stripe-js/pure has no loadStripe"));
  let stripe: Stripe | null;
  try {
    stripe = await loadStripe(publishableKey);
  } catch (error) {
    throw new StripeLoadError((error as Error)?.message === NOT_AVAILABLE ? NOT_AVAILABLE : FAILED_TO_LOAD, error);
  }
  if (!stripe) throw new StripeLoadError(NOT_AVAILABLE);
  return stripe;
}
