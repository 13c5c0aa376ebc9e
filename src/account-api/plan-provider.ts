/**
 * What the account API asks the payment provider to do to a plan, before it records the change:
 * pause, resume, change the amount, cancel, and start a change of card. The
 * payments service implements it with its own Stripe and PayPal calls (src/api/plan-provider.ts:
 * a Stripe subscription's pause_collection, a price change from the next period, cancel; a PayPal
 * subscription's suspend, activate, revise, cancel); the local one here moves no money.
 * A method that throws leaves the plan as it was: the store changes nothing and tells the donor
 * the provider could not be reached.
 */
import type { GiftView } from "./facts.js";

export interface PlanProvider {
  pause(plan: GiftView): Promise<void>;
  /** `plan` as it will be once resumed: its next charge date (after any skip) is when to charge again. */
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
   * Skips the charge due on `date` (the plan's next): nothing is charged then, and every later
   * charge (and a finite plan's end) moves one period later, so a plan keeps its number of payments.
   */
  skipNext(plan: GiftView, date: string): Promise<void>;
  /**
   * Starts a change of the card a plan is charged to: Stripe's SetupIntent for the account page's
   * card form (its client secret; the new card becomes the plan's when Stripe's signed webhook
   * says it was saved), or null when the plan is not paid by card here (PayPal: the donor changes
   * how they pay in their PayPal account).
   */
  cardChange(plan: GiftView): Promise<CardChangeStart | null>;
}

/** What the account page needs to take a new card: Stripe's SetupIntent client secret. */
export interface CardChangeStart {
  clientSecret: string;
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
    async skipNext(plan, date) {
      calls.push(`skip ${plan.id} ${date}`);
    },
    async cardChange(plan) {
      calls.push(`card ${plan.id}`);
      return null;
    },
  };
}
