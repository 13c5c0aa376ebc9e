/**
 * A data check for card instalments an older version paused wrongly: before such a pause cancelled
 * the schedule (plan-provider.ts), and before the stop-gap that refused it (PAUSE_NOT_STARTED), it
 * recorded a pause of a plan whose Stripe SubscriptionSchedule had not started, asking Stripe
 * nothing, so the account reads PAUSED while Stripe will charge on the schedule's start. Each one
 * found is set active again in `account_plans` (what Stripe will do: the charge comes on the date
 * the account then shows) and reported with what to tell the donor. The write sets a state, only
 * where the plan still reads paused and the schedule still has not started, so running it again, or
 * two services at once, changes nothing more. Run at the start of `nzf-build api` and once per
 * Lambda container by the scheduled jobs (lambda.runJobs).
 */
import { sql } from "kysely";
import type Stripe from "stripe";
import * as clock from "../../core/clock.js";
import { NzfError } from "../../core/errors.js";
import type { Logger } from "../../core/logger.js";
import { longDate } from "../../account-api/facts.js";
import { todayIn } from "../../payments/schedules.js";
import type { ApiDeps } from "../deps.js";

export interface PausedNotStarted {
  donationId: string;
  reference: string;
  scheduleId: string;
  /** The schedule's start, the day Stripe charges (YYYY-MM-DD in Sydney). */
  chargesOn: string;
}

/** The plans the account shows paused whose Stripe schedule has not started. */
export async function findPausedNotStarted(deps: Pick<ApiDeps, "db">, stripe: Stripe): Promise<PausedNotStarted[]> {
  // Instalments bill through their schedule (no subscription of their own); cancelled plans are over.
  const paused = await sql<{ id: string; reference: string; stripe_schedule_id: string }>`
    select d.id, d.reference, d.stripe_schedule_id
    from donations d join account_plans p on p.donation_id = d.id
    where p.paused and not p.cancelled and d.stripe_schedule_id is not null and d.stripe_subscription_id is null
    order by d.id`.execute(deps.db);
  const found: PausedNotStarted[] = [];
  for (const row of paused.rows) {
    const schedule = await stripe.subscriptionSchedules.retrieve(row.stripe_schedule_id);
    if (schedule.status !== "not_started") continue;
    const start = schedule.phases[0]?.start_date;
    found.push({
      donationId: row.id,
      reference: row.reference,
      scheduleId: schedule.id,
      chargesOn: start ? todayIn("Australia/Sydney", new Date(start * 1000)) : "",
    });
  }
  return found;
}

/** What an operator reads of one plan set right: what happened, and what to tell the donor. */
export function pausedNotStartedReport(plan: PausedNotStarted): NzfError {
  return new NzfError(
    "API_PLAN_PAUSED_NOT_STARTED",
    `Instalment plan ${plan.reference} (donation ${plan.donationId}) was shown paused although its Stripe schedule ${plan.scheduleId} had not started, so Stripe charges it on ${plan.chargesOn ? longDate(plan.chargesOn) : "the schedule's start"}; the account now shows it active, with that payment next.`,
    { subject: plan.donationId },
  );
}

/**
 * Finds the wrongly paused plans, sets each active again (only while it still reads paused) and
 * logs each with what to do. Returns what it set right.
 */
export async function repairPausedNotStarted(
  deps: Pick<ApiDeps, "db">,
  stripe: Stripe,
  logger?: Logger,
): Promise<PausedNotStarted[]> {
  const repaired: PausedNotStarted[] = [];
  for (const plan of await findPausedNotStarted(deps, stripe)) {
    const set = await sql`
      update account_plans set paused = false, updated_at = ${clock.now()}
      where donation_id = ${plan.donationId} and paused`.execute(deps.db);
    if (Number(set.numAffectedRows ?? 0) === 0) continue;
    repaired.push(plan);
    const report = pausedNotStartedReport(plan);
    logger?.warn("api", `[${report.code}] ${report.message} ${report.hint}`);
  }
  return repaired;
}
