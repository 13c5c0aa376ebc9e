/**
 * When a declined scheduled charge is tried again (pure, browser-safe): one schedule for the job
 * that retries (src/api/jobs/retries.ts), the e-mail that announces it and the account page that
 * shows it. The day after the decline, then 3 and 7 days after the charge's date; after the last,
 * the plan pauses. docs/payments-api.md states the same schedule.
 */
import { addDays } from "./schedules.js";

/** Days after the charge's date of each retry. */
export const RETRY_AFTER_DAYS = [1, 3, 7] as const;

/** Every retry date (YYYY-MM-DD, Sydney) still to come after try number `attempt` (1 is the charge itself). */
export function retryDatesAfter(chargeDate: string, attempt: number): string[] {
  return RETRY_AFTER_DAYS.slice(Math.max(0, attempt - 1)).map((days) => addDays(chargeDate, days));
}
