/**
 * The account API's plan changes acted on at Stripe (src/account-api/plan-provider.ts), for the
 * plans Stripe bills: a monthly gift's Subscription, and the SubscriptionSchedule of monthly
 * instalments. Pause and resume set the subscription's `pause_collection` (invoices voided while
 * paused: nothing is charged; instalments' pause cancels their schedule, marked as the pause's,
 * and their resume lays a new one for the instalments that remain from the next billing day, keyed
 * by the resume, so they keep their number of payments); a new amount
 * replaces the item's price from the next invoice, without proration (instalments: the schedule's
 * phases from the current one at the new price);
 * a skip voids the next renewal's invoice (`pause_collection` until a day after it), and for
 * instalments moves the schedule's phases a month later so no payment is lost; cancel cancels the
 * subscription (the schedule, for instalments). Plans the service charges itself (every Friday,
 * the seasons: src/api/jobs/) need no call: the job reads the donor's choice in `account_plans`.
 * A new card starts as a SetupIntent (card-change.ts). Every call is keyed by the donation, the action and the
 * plan's last change, so a retry of one request never acts twice and a later change is new.
 * A Stripe failure throws: the account API then changes nothing and says so.
 */
import type { Kysely } from "kysely";
import type Stripe from "stripe";
import type { PlanProvider } from "../../account-api/plan-provider.js";
import type { GiftView } from "../../account-api/facts.js";
import type { ApiDeps } from "../deps.js";
import { skippedBeforeStart, stripeBillingInstant } from "../../payments/billing-dates.js";
import { todayIn } from "../../payments/schedules.js";
import * as clock from "../../core/clock.js";
import { startCardChange } from "./card-change.js";
import { ensureFundProduct, layInstalmentSchedule } from "./intents.js";

const DAY = 86_400;
/** The schedule's metadata: the key of the last change made to its phases, and its start before it. */
const CHANGE_KEY = "nzf_last_change";
const START_BEFORE = "nzf_start_before_change";
/**
 * An instalment schedule's metadata, set before the service cancels it for the account's pause (the
 * key of that pause): its `subscription_schedule.canceled` is then no cancellation of the plan
 * (apply-event.ts), and the resume lays a new schedule for the instalments that remain.
 */
export const PAUSED_BY_ACCOUNT = "nzf_paused_by_account";

/** Whole months from one Unix time to another, counted in UTC as Stripe lays out a schedule's phases. */
function monthsBetween(from: number, to: number): number {
  const a = new Date(from * 1000);
  const b = new Date(to * 1000);
  return (b.getUTCFullYear() - a.getUTCFullYear()) * 12 + b.getUTCMonth() - a.getUTCMonth();
}

interface StripePlan {
  donationId: string;
  subscriptionId: string | null;
  scheduleId: string | null;
  version: string;
  /** A new amount the donor set in the account (null: as given). */
  accountAmountCents: number | null;
}

/** A schedule the service cancelled (or is cancelling) for the account's pause. */
function isPausedByAccount(schedule: Stripe.SubscriptionSchedule): boolean {
  return isMarkedPaused(schedule) && schedule.status === "canceled";
}
/** Marked for the account's pause (cancelled since, or not yet if the service stopped in between). */
function isMarkedPaused(schedule: Stripe.SubscriptionSchedule): boolean {
  return Boolean(schedule.metadata?.[PAUSED_BY_ACCOUNT]);
}

export function stripePlanProvider(deps: Pick<ApiDeps, "db">, stripe: Stripe): PlanProvider {
  async function planOf(gift: GiftView): Promise<StripePlan> {
    const row = await deps.db
      .selectFrom("donations")
      .select(["id", "stripe_subscription_id", "stripe_schedule_id"])
      .where("id", "=", gift.donationId)
      .executeTakeFirstOrThrow();
    const choice = await (
      deps.db as unknown as Kysely<{
        account_plans: { donation_id: string; updated_at: Date; amount_cents: number | null };
      }>
    )
      .selectFrom("account_plans")
      .select(["updated_at", "amount_cents"])
      .where("donation_id", "=", gift.donationId)
      .executeTakeFirst();
    return {
      donationId: row.id,
      subscriptionId: row.stripe_subscription_id,
      scheduleId: row.stripe_schedule_id,
      version: choice ? new Date(choice.updated_at).toISOString() : "0",
      accountAmountCents: choice?.amount_cents ?? null,
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

  /**
   * Nothing is charged at the subscription's next renewal: collection paused (its invoice voided)
   * until a day after it, then resumed by Stripe itself.
   */
  async function voidNextInvoice(subscriptionId: string, idempotencyKey: string): Promise<void> {
    const subscription = await stripe.subscriptions.retrieve(subscriptionId);
    const renews = subscription.items.data[0]?.current_period_end;
    if (!renews) throw new Error(`Subscription ${subscriptionId} has no period to skip.`);
    await stripe.subscriptions.update(
      subscriptionId,
      { pause_collection: { behavior: "void", resumes_at: renews + DAY } },
      { idempotencyKey },
    );
  }

  /**
   * The instalment schedule's phases from the current one (all, before it starts), sent again with
   * a new price per payment and/or `months` later (a schedule not started moves its start; one
   * billing keeps its current phase's start and ends it later). Returns the subscription a started
   * schedule bills by (null before it starts) and the schedule's start as it was.
   */
  async function relaySchedule(
    gift: GiftView,
    plan: StripePlan,
    change: { cents?: number; months?: number },
    idempotencyKey: string,
  ): Promise<{ subscription: string | null; startBefore: number }> {
    const schedule = await stripe.subscriptionSchedules.retrieve(plan.scheduleId!);
    if (schedule.status !== "active" && schedule.status !== "not_started")
      throw new Error(`Schedule ${schedule.id} is ${schedule.status}: nothing to change.`);
    const started = schedule.status === "active";
    const subscription = !started
      ? null
      : typeof schedule.subscription === "string"
        ? schedule.subscription
        : (schedule.subscription?.id ?? null);
    // A retry of a change Stripe already made (the service stopped, or its write failed, before
    // recording it): the schedule carries the change's key, so it is not moved again (a second
    // month would lose a payment from the dates the donor was shown, and the same key with other
    // phases is refused by Stripe for a day). Its start before the change is kept beside the key.
    if (schedule.metadata?.[CHANGE_KEY] === idempotencyKey)
      return { subscription, startBefore: Number(schedule.metadata[START_BEFORE]) };
    const from = started ? schedule.phases.findIndex((p) => p.start_date === schedule.current_phase?.start_date) : 0;
    if (from < 0) throw new Error(`Schedule ${schedule.id} has no current phase.`);
    const later = (t: number) => (change.months ? stripeBillingInstant(t, change.months) : t);
    // Moved before it starts, Stripe bills from the new start's day (31 August moved to 30
    // September bills the 30th), so each phase ends as many months after the new start as it did
    // after the old one: an end a month after the old end (31 August) would leave a renewal (30
    // August) inside the schedule, a payment more than the plan's.
    const first = schedule.phases[0]!.start_date;
    const end = (t: number) =>
      started || !change.months ? later(t) : stripeBillingInstant(later(first), monthsBetween(first, t));
    const product = change.cents === undefined ? null : await ensureFundProduct(stripe, gift.fund);
    const phases = schedule.phases.slice(from).map((p, i) => {
      const item = p.items[0]!;
      const price = typeof item.price === "string" ? item.price : item.price.id;
      return {
        ...(i === 0 ? { start_date: started ? p.start_date : later(p.start_date) } : {}),
        end_date: end(p.end_date),
        items: [
          product
            ? {
                price_data: {
                  currency: "aud",
                  product,
                  unit_amount: change.cents!,
                  recurring: { interval: "month" as const },
                },
              }
            : { price },
        ],
        ...(p.metadata ? { metadata: p.metadata } : {}),
      };
    });
    const startBefore = schedule.phases[0]!.start_date;
    await stripe.subscriptionSchedules.update(
      schedule.id,
      {
        phases,
        proration_behavior: "none",
        metadata: { [CHANGE_KEY]: idempotencyKey, [START_BEFORE]: String(startBefore) },
      },
      { idempotencyKey },
    );
    return { subscription, startBefore };
  }

  async function pausedByAccount(plan: StripePlan): Promise<boolean> {
    return isPausedByAccount(await stripe.subscriptionSchedules.retrieve(plan.scheduleId!));
  }

  /**
   * The resume of instalments the account paused (their schedule cancelled): a new schedule for
   * the instalments that remain, at their amounts (or the account's new one), from the plan's next
   * billing day after today (its anchor's day of the month), keyed by this resume so a repeat or a
   * second request at once lays one. The donation then names it, its start the anchor of the dates
   * the account shows, as the date of the next payment (`stripe_anchor_charge`).
   */
  async function resumeInstalments(gift: GiftView, plan: StripePlan): Promise<void> {
    const row = await deps.db
      .selectFrom("donations")
      .selectAll()
      .where("id", "=", plan.donationId)
      .executeTakeFirstOrThrow();
    if (!row.stripe_customer_id || !row.stripe_billing_anchor)
      throw new Error(`Donation ${row.id} has no customer or billing anchor to resume at Stripe.`);
    // Those made or tried are behind it: a declined one the cancel ended is not asked again.
    const remaining = row.schedule.slice(gift.madeCount);
    if (remaining.length === 0) return;
    const amounts = remaining.map((c) => (plan.accountAmountCents === null ? c.amountCents : gift.totalCents));
    const today = todayIn("Australia/Sydney", clock.now());
    // The first billing day after today, and not before the date the account shows next: a payment
    // the donor skipped before pausing (a date still to come) stays skipped.
    const anchor = row.stripe_billing_anchor;
    const dayOf = (months: number) =>
      todayIn("Australia/Sydney", new Date(stripeBillingInstant(anchor, months) * 1000));
    let months = 0;
    while (dayOf(months) <= today || (gift.nextChargeDate !== null && dayOf(months) < gift.nextChargeDate)) months++;
    const start = stripeBillingInstant(anchor, months);
    const scheduleId = await layInstalmentSchedule(stripe, row, {
      customerId: row.stripe_customer_id,
      paymentMethodId: row.stripe_payment_method_id,
      amounts,
      start,
      idempotencyKey: `${key(plan, "resume")}/schedule`,
    });
    await deps.db
      .updateTable("donations")
      .set({
        stripe_schedule_id: scheduleId,
        stripe_billing_anchor: new Date(start * 1000),
        stripe_anchor_skips: gift.skippedCount,
        stripe_anchor_charge: gift.madeCount + 1,
      })
      .where("id", "=", row.id)
      .execute();
  }

  return {
    async pause(gift) {
      const plan = await planOf(gift);
      // Instalments: their schedule is cancelled (its subscription with it, once it bills), marked
      // first as this pause's so its webhook is no cancellation of the plan; the resume lays a new
      // one for the instalments that remain (resumeInstalments). Collection paused instead would
      // void the paused months' invoices while the schedule still ended on its date: payments lost.
      if (!plan.subscriptionId && plan.scheduleId) {
        const schedule = await stripe.subscriptionSchedules.retrieve(plan.scheduleId);
        if (schedule.status === "not_started" || schedule.status === "active" || isPausedByAccount(schedule)) {
          const pause = key(plan, "pause");
          if (!isMarkedPaused(schedule)) {
            await stripe.subscriptionSchedules.update(
              schedule.id,
              { metadata: { [PAUSED_BY_ACCOUNT]: pause } },
              { idempotencyKey: `${pause}/mark` },
            );
          }
          if (schedule.status === "not_started" || schedule.status === "active")
            await stripe.subscriptionSchedules.cancel(
              schedule.id,
              { invoice_now: false, prorate: false },
              { idempotencyKey: `${pause}/cancel` },
            );
          return;
        }
      }
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
      if (!plan.subscriptionId && plan.scheduleId) {
        const schedule = await stripe.subscriptionSchedules.retrieve(plan.scheduleId);
        if (isPausedByAccount(schedule)) return resumeInstalments(gift, plan);
      }
      const subscription = await subscriptionOf(plan);
      if (!subscription) return;
      // A payment skipped while paused stays skipped: its renewal is voided, then billing resumes.
      const sub = await stripe.subscriptions.retrieve(subscription);
      const renews = sub.items.data[0]?.current_period_end;
      const skipped =
        gift.skippedCount > 0 &&
        gift.nextChargeDate !== null &&
        renews !== undefined &&
        todayIn("Australia/Sydney", new Date(renews * 1000)) < gift.nextChargeDate;
      await stripe.subscriptions.update(
        subscription,
        { pause_collection: skipped ? { behavior: "void", resumes_at: renews + DAY } : "" },
        { idempotencyKey: key(plan, "resume") },
      );
    },
    async changeAmount(gift, next) {
      const plan = await planOf(gift);
      // Instalments: every payment still to come at the new amount (the schedule's phases re-laid);
      // paused before the start, nothing is at Stripe until the resume lays them at the new amount.
      if (plan.scheduleId && (await pausedByAccount(plan))) return;
      if (plan.scheduleId) {
        await relaySchedule(gift, plan, { cents: next.totalCents }, key(plan, `amount-${next.totalCents}`));
        return;
      }
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
    async skipNext(gift, date) {
      const plan = await planOf(gift);
      const skip = key(plan, `skip-${date}`);
      if (plan.scheduleId) {
        // Every phase from the current one a month later; a schedule already billing voids the
        // skipped month's invoice too (its current phase is a month longer, so no payment is lost).
        const relaid = await relaySchedule(gift, plan, { months: 1 }, `${skip}/schedule`);
        if (relaid.subscription) await voidNextInvoice(relaid.subscription, `${skip}/pause`);
        // Not started: Stripe bills from the new start, its day of the month (the last day of a
        // shorter month stays), so that is the plan's anchor now, holding this skip and those before
        // (the rule the account previews the skip with: skippedBeforeStart).
        else {
          const moved = skippedBeforeStart(relaid.startBefore, gift.skippedCount);
          await deps.db
            .updateTable("donations")
            .set({ stripe_billing_anchor: new Date(moved.anchor * 1000), stripe_anchor_skips: moved.skips })
            .where("id", "=", plan.donationId)
            .execute();
        }
        return;
      }
      if (!plan.subscriptionId) throw new Error(`Donation ${plan.donationId} has nothing at Stripe to skip.`);
      await voidNextInvoice(plan.subscriptionId, skip);
    },
    async cancel(gift) {
      const plan = await planOf(gift);
      // Paused before the start: its schedule is cancelled already, nothing is left to charge.
      if (plan.scheduleId && (await pausedByAccount(plan))) return;
      if (plan.scheduleId)
        await stripe.subscriptionSchedules.cancel(plan.scheduleId, {}, { idempotencyKey: key(plan, "cancel") });
      else if (plan.subscriptionId)
        await stripe.subscriptions.cancel(plan.subscriptionId, {}, { idempotencyKey: key(plan, "cancel") });
    },
    cardChange: (gift) => startCardChange(deps, stripe, gift.donationId),
  };
}
