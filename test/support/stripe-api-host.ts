/**
 * Stripe.js's calls to Stripe's API, for pages under the site's CSP (connect-src allows
 * https://api.stripe.com only, as in production): the Stripe.js stand-in calls api.stripe.com and
 * this carries each call, as it is, to the Stripe API stand-in at the network layer.
 */
import type { BrowserContext } from "playwright-core";
import { installStripeStandIn } from "./stripe-stand-in.js";

export async function stripeThroughApiHost(context: BrowserContext, standInUrl: string): Promise<void> {
  await installStripeStandIn(context, { stripeApiUrl: "https://api.stripe.com" });
  await context.route(/^https:\/\/api\.stripe\.com\//, async (route) => {
    const url = new URL(route.request().url());
    const answer = await route.fetch({ url: `${standInUrl}${url.pathname}${url.search}` });
    await route.fulfill({ response: answer, headers: { ...answer.headers(), "access-control-allow-origin": "*" } });
  });
}
