/**
 * A data check for card instalments an older version paused wrongly: before a pause cancelled the
 * schedule (plan-provider.ts), and before the stop-gap that refused it (PAUSE_NOT_STARTED), a pause
 * of instalments whose Stripe schedule had not started was recorded with nothing asked of Stripe, so
 * the account read PAUSED while Stripe charged from the schedule's start, and goes on charging.
 * Each plan found (paused in `account_plans`, its schedule `not_started`, or `active` with its
 * subscription's collection not paused) is paused as the account pauses today: its schedule marked
 * as the account's pause and cancelled, each keyed by the schedule, so a second run, or two services
 * at once, change nothing more. The plan stays paused, as the donor asked; their resume lays a new
 * schedule for what remains. Each is logged with what to tell the donor. Run at the start of
 * `nzf-build api` and once per Lambda container by the scheduled jobs (lambda.runJobs).
 */
import { sql } from "kysely";
import type Stripe from "stripe";
import { NzfError } from "../../core/errors.js";
import type { Logger } from "../../core/logger.js";
import { longDate } from "../../account-api/facts.js";
import { todayIn } from "../../payments/schedules.js";
import type { ApiDeps } from "../deps.js";
import { PAUSED_BY_ACCOUNT } from "./plan-provider.js";

export interface WronglyPaused {
  donationId: string;
  reference: string;
  scheduleId: string;
  /** Whether Stripe has started charging it (its schedule bills) while the account showed it paused. */
  charging: boolean;
  /** The next day Stripe would charge it (YYYY-MM-DD in Sydney): the schedule's start or its next renewal. */
  chargesOn: string;
}

const dayOf = (seconds: number | undefined) => (seconds ? todayIn("Australia/Sydney", new Date(seconds * 1000)) : "");

/** The instalment plans the account shows paused that Stripe will charge. */
export async function findWronglyPaused(deps: Pick<ApiDeps, "db">, stripe: Stripe): Promise<WronglyPaused[]> {
  // Instalments bill through their schedule (no subscription of their own); cancelled plans are over.
  const paused = await sql<{ id: string; reference: string; stripe_schedule_id: string }>`
    select d.id, d.reference, d.stripe_schedule_id
    from donations d join account_plans p on p.donation_id = d.id
    where p.paused and not p.cancelled and d.stripe_schedule_id is not null and d.stripe_subscription_id is null
    order by d.id`.execute(deps.db);
  const found: WronglyPaused[] = [];
  for (const row of paused.rows) {
    const schedule = await stripe.subscriptionSchedules.retrieve(row.stripe_schedule_id);
    const base = { donationId: row.id, reference: row.reference, scheduleId: schedule.id };
    if (schedule.status === "not_started") {
      found.push({ ...base, charging: false, chargesOn: dayOf(schedule.phases[0]?.start_date) });
      continue;
    }
    if (schedule.status !== "active") continue;
    // Paused the way an older version paused a billing schedule (its collection paused) is no harm.
    const subscriptionId =
      typeof schedule.subscription === "string" ? schedule.subscription : schedule.subscription?.id;
    if (!subscriptionId) continue;
    const subscription = await stripe.subscriptions.retrieve(subscriptionId);
    if (subscription.pause_collection) continue;
    found.push({ ...base, charging: true, chargesOn: dayOf(subscription.items.data[0]?.current_period_end) });
  }
  return found;
}

/** What an operator reads of one plan set right: what happened, and what to tell the donor. */
export function wronglyPausedReport(plan: WronglyPaused): NzfError {
  const when = plan.chargesOn ? longDate(plan.chargesOn) : "its next date";
  return new NzfError(
    "API_PLAN_PAUSED_NOT_STARTED",
    plan.charging
      ? `Instalment plan ${plan.reference} (donation ${plan.donationId}) was shown paused while Stripe charged it through its schedule ${plan.scheduleId}, next on ${when}; the schedule is now cancelled as the account's pause, so nothing more is charged until the donor resumes it.`
      : `Instalment plan ${plan.reference} (donation ${plan.donationId}) was shown paused although its Stripe schedule ${plan.scheduleId} had not started and would have charged it on ${when}; the schedule is now cancelled as the account's pause, so nothing is charged until the donor resumes it.`,
    { subject: plan.donationId },
  );
}

/**
 * Pauses each wrongly paused plan at Stripe as the account pauses today, keyed by its schedule
 * (the plan already reads paused), and logs each with what to do. Returns what it set right.
 */
export async function repairWronglyPaused(
  deps: Pick<ApiDeps, "db">,
  stripe: Stripe,
  logger?: Logger,
): Promise<WronglyPaused[]> {
  const repaired: WronglyPaused[] = [];
  for (const plan of await findWronglyPaused(deps, stripe)) {
    const key = `${plan.donationId}/repair-pause/${plan.scheduleId}`;
    await stripe.subscriptionSchedules.update(
      plan.scheduleId,
      { metadata: { [PAUSED_BY_ACCOUNT]: key } },
      { idempotencyKey: `${key}/mark` },
    );
    await stripe.subscriptionSchedules.cancel(
      plan.scheduleId,
      { invoice_now: false, prorate: false },
      { idempotencyKey: `${key}/cancel` },
    );
    repaired.push(plan);
    const report = wronglyPausedReport(plan);
    logger?.warn("api", `[${report.code}] ${report.message} ${report.hint}`);
  }
  return repaired;
}
