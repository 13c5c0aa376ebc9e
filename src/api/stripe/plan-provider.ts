/**
 * The account API's plan changes acted on at Stripe (src/account-api/plan-provider.ts), for the
 * plans Stripe bills: a monthly gift's Subscription, and the SubscriptionSchedule of monthly
 * instalments. Pause and resume set the subscription's `pause_collection` (invoices voided while
 * paused: nothing is charged); a new amount replaces the item's price from the next invoice,
 * without proration; cancel cancels the subscription (the schedule, for instalments). Plans the
 * service charges itself (every Friday, the seasons: src/api/jobs/) need no call: the job reads
 * the donor's choice in `account_plans`. A new card starts as a SetupIntent (card-change.ts). Every call is keyed by the donation, the action and the
 * plan's last change, so a retry of one request never acts twice and a later change is new.
 * A Stripe failure throws: the account API then changes nothing and says so.
 */
import type { Kysely } from "kysely";
import type Stripe from "stripe";
import type { PlanProvider } from "../../account-api/plan-provider.js";
import type { GiftView } from "../../account-api/facts.js";
import type { ApiDeps } from "../deps.js";
import { startCardChange } from "./card-change.js";
import { ensureFundProduct } from "./intents.js";

interface StripePlan {
  donationId: string;
  subscriptionId: string | null;
  scheduleId: string | null;
  version: string;
}

export function stripePlanProvider(deps: Pick<ApiDeps, "db">, stripe: Stripe): PlanProvider {
  async function planOf(gift: GiftView): Promise<StripePlan> {
    const row = await deps.db
      .selectFrom("donations")
      .select(["id", "stripe_subscription_id", "stripe_schedule_id"])
      .where("id", "=", gift.donationId)
      .executeTakeFirstOrThrow();
    const choice = await (deps.db as unknown as Kysely<{ account_plans: { donation_id: string; updated_at: Date } }>)
      .selectFrom("account_plans")
      .select("updated_at")
      .where("donation_id", "=", gift.donationId)
      .executeTakeFirst();
    return {
      donationId: row.id,
      subscriptionId: row.stripe_subscription_id,
      scheduleId: row.stripe_schedule_id,
      version: choice ? new Date(choice.updated_at).toISOString() : "0",
    };
  }
  const key = (plan: StripePlan, action: string) => `${plan.donationId}/plan/${action}/${plan.version}`;

  /** The subscription a plan is billed by: its own, or the one its schedule made. */
  async function subscriptionOf(plan: StripePlan): Promise<string | null> {
    if (plan.subscriptionId) return plan.subscriptionId;
    if (!plan.scheduleId) return null;
    const schedule = await stripe.subscriptionSchedules.retrieve(plan.scheduleId);
    return typeof schedule.subscription === "string" ? schedule.subscription : (schedule.subscription?.id ?? null);
  }

  return {
    async pause(gift) {
      const plan = await planOf(gift);
      const subscription = await subscriptionOf(plan);
      if (subscription)
        await stripe.subscriptions.update(
          subscription,
          { pause_collection: { behavior: "void" } },
          { idempotencyKey: key(plan, "pause") },
        );
    },
    async resume(gift) {
      const plan = await planOf(gift);
      const subscription = await subscriptionOf(plan);
      if (subscription)
        await stripe.subscriptions.update(
          subscription,
          { pause_collection: "" },
          { idempotencyKey: key(plan, "resume") },
        );
    },
    async changeAmount(gift, next) {
      const plan = await planOf(gift);
      // Instalments split a promised total: their amounts are the schedule's, not changed here.
      if (!plan.subscriptionId) return;
      const subscription = await stripe.subscriptions.retrieve(plan.subscriptionId);
      const item = subscription.items.data[0];
      if (!item) throw new Error(`Subscription ${plan.subscriptionId} has no item to change.`);
      const product = await ensureFundProduct(stripe, gift.fund);
      await stripe.subscriptions.update(
        plan.subscriptionId,
        {
          items: [
            {
              id: item.id,
              price_data: {
                currency: "aud",
                product,
                unit_amount: next.totalCents,
                recurring: { interval: "month" },
              },
            },
          ],
          proration_behavior: "none",
        },
        { idempotencyKey: key(plan, `amount-${next.totalCents}`) },
      );
    },
    async cancel(gift) {
      const plan = await planOf(gift);
      if (plan.scheduleId)
        await stripe.subscriptionSchedules.cancel(plan.scheduleId, {}, { idempotencyKey: key(plan, "cancel") });
      else if (plan.subscriptionId)
        await stripe.subscriptions.cancel(plan.subscriptionId, {}, { idempotencyKey: key(plan, "cancel") });
    },
    cardChange: (gift) => startCardChange(deps, stripe, gift.donationId),
  };
}
