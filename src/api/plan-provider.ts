/**
 * The account API's plan provider in the payments service: each plan's changes go to whoever bills
 * it, read from the donation: PayPal for a PayPal subscription (src/api/paypal/plan-provider.ts),
 * Stripe for a card's subscription or schedule (src/api/stripe/plan-provider.ts). Plans the
 * service charges itself (every Friday, the seasons) need no provider's call: the job reads the
 * donor's choice (`account_plans`), and a skipped date is recorded where the job claims its
 * dates (jobs/skips.ts). The SDKs are read from `deps` at each call, so a provider configured later is used.
 * A plan whose provider is not configured here refuses the change (the account then changes nothing).
 */
import type { GiftView } from "../account-api/facts.js";
import { JOB_CHARGED } from "../account-api/facts.js";
import type { PlanProvider } from "../account-api/plan-provider.js";
import type { ApiDeps } from "./deps.js";
import { skipScheduledCharge } from "./jobs/skips.js";
import { paypalPlanProvider } from "./paypal/plan-provider.js";
import { stripePlanProvider } from "./stripe/plan-provider.js";

export function servicePlanProvider(deps: ApiDeps): PlanProvider {
  async function providerOf(gift: GiftView): Promise<PlanProvider | null> {
    const row = await deps.db
      .selectFrom("donations")
      .select(["payment_method", "paypal_id", "stripe_subscription_id", "stripe_schedule_id"])
      .where("id", "=", gift.donationId)
      .executeTakeFirstOrThrow();
    if (row.payment_method === "paypal") {
      if (deps.paypalApi) return paypalPlanProvider(deps, deps.paypalApi);
      // Watch mode's in-memory PayPal (no SDK) moves no money: the donor's choice is only recorded.
      if (deps.paypal) return null;
      throw new Error("PayPal is not configured on this service.");
    }
    if (deps.stripe) return stripePlanProvider(deps, deps.stripe);
    if (row.stripe_subscription_id || row.stripe_schedule_id)
      throw new Error("Stripe is not configured on this service.");
    return null;
  }
  return {
    async pause(gift) {
      await (await providerOf(gift))?.pause(gift);
    },
    async resume(gift) {
      await (await providerOf(gift))?.resume(gift);
    },
    async changeAmount(gift, next) {
      return (await providerOf(gift))?.changeAmount(gift, next);
    },
    async cancel(gift) {
      await (await providerOf(gift))?.cancel(gift);
    },
    async skipNext(gift, date) {
      // The service's own job charges it: the date is taken from it, and Stripe has nothing to do.
      if (JOB_CHARGED.has(gift.schedule) && gift.paymentMethod === "card")
        return skipScheduledCharge(deps, gift.donationId, date, gift.totalCents);
      await (await providerOf(gift))?.skipNext(gift, date);
      // Kept where the account reads skipped dates, so a repeat is known as one (the job charges
      // only its own schedules: this row is never a charge).
      await skipScheduledCharge(deps, gift.donationId, date, gift.totalCents);
    },
    async cardChange(gift) {
      return (await (await providerOf(gift))?.cardChange(gift)) ?? null;
    },
  };
}
