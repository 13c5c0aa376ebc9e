/**
 * What the account API asks the payment provider to do to a plan, before it records the change:
 * pause, resume, change the amount, cancel, and open the provider's page to change the card. The
 * payments service implements it with its own Stripe and PayPal calls (src/api/plan-provider.ts:
 * a Stripe subscription's pause_collection, a price change from the next period, cancel; a PayPal
 * subscription's suspend, activate, revise, cancel); the local one here moves no money.
 * A method that throws leaves the plan as it was: the store changes nothing and tells the donor
 * the provider could not be reached.
 */
import type { GiftView } from "./facts.js";

export interface PlanProvider {
  pause(plan: GiftView): Promise<void>;
  resume(plan: GiftView): Promise<void>;
  /**
   * From the next charge: the gift, the covered fee, what the card is charged. Done at once, or
   * (PayPal) waiting for the payer's consent on the provider's page: then `approveUrl`, and the
   * amount stays pending until the provider's signed event says it is billed.
   */
  changeAmount(
    plan: GiftView,
    next: { amountCents: number; feeCents: number; totalCents: number },
  ): Promise<void | { approveUrl: string }>;
  cancel(plan: GiftView): Promise<void>;
  /**
   * The provider's own page where the donor enters a new card for this plan (Stripe's hosted
   * setup page, PayPal's), coming back to the account page's regular gifts (the provider is
   * configured with the site's address: a return address never comes from the request); null
   * when the provider has none.
   */
  cardChangeUrl(plan: GiftView): Promise<string | null>;
}

/** Development and tests: every change is recorded in `calls`; no card page exists. */
export function localPlanProvider(): PlanProvider & { calls: string[] } {
  const calls: string[] = [];
  return {
    calls,
    async pause(plan) {
      calls.push(`pause ${plan.id}`);
    },
    async resume(plan) {
      calls.push(`resume ${plan.id}`);
    },
    async changeAmount(plan, next) {
      calls.push(`change ${plan.id} ${next.amountCents}`);
    },
    async cancel(plan) {
      calls.push(`cancel ${plan.id}`);
    },
    async cardChangeUrl(plan) {
      calls.push(`card ${plan.id}`);
      return null;
    },
  };
}
