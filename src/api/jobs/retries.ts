/**
 * When a declined scheduled charge is tried again (pure). Stripe's own retries are for its
 * subscriptions (monthly gifts, instalments); the job's charges (every Friday, the seasons) follow
 * this stated schedule: the day after the decline, then 3 and 7 days after the charge's date. If
 * the third retry is declined too, the plan pauses (not cancels): nothing more is charged until the
 * donor resumes it. docs/payments-api.md states the same schedule.
 */
import { RETRY_AFTER_DAYS, retryDatesAfter } from "../../payments/retry-schedule.js";
import { addDays } from "./due-charges.js";

// The schedule itself is the contract's (the account page shows it too).
export { RETRY_AFTER_DAYS, retryDatesAfter };

/** Tries in all, the first included. */
export const MAX_ATTEMPTS = RETRY_AFTER_DAYS.length + 1;

/** The date of the try after try number `attempt` (1 is the charge itself); null after the last. */
export function nextAttemptOn(chargeDate: string, attempt: number): string | null {
  const days = RETRY_AFTER_DAYS[attempt - 1];
  return days === undefined ? null : addDays(chargeDate, days);
}

/** The dates of every try up to and including try number `attempt`. */
export function triedOn(chargeDate: string, attempt: number): string[] {
  return [chargeDate, ...RETRY_AFTER_DAYS.slice(0, attempt - 1).map((days) => addDays(chargeDate, days))];
}
