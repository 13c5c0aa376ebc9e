/**
 * Which charges of a scheduled gift are due by a day (pure). The schedule the donor was shown is
 * stored with the donation; "every Friday" stores its first Fridays and goes on every 7 days until
 * the donor cancels. The first charge of a gift whose first payment was taken at checkout (a
 * PaymentIntent) is not the job's. Monthly gifts and instalments are Stripe subscriptions, which
 * Stripe charges itself.
 */
import type { ScheduledCharge } from "../../payments/types.js";

export const JOB_FREQUENCIES = new Set([
  "once",
  "weekly-friday",
  "ramadan-nightly",
  "ramadan-last-ten",
  "dhul-hijjah-ten-days",
]);

export interface ScheduledGift {
  frequency: string;
  intent_type: "payment" | "setup";
  schedule: ScheduledCharge[];
  /** The per-charge total the donor agreed to (gift plus any covered fee). */
  total_cents: number;
}

const DAY_MS = 86_400_000;

/** YYYY-MM-DD plus `days`. */
export function addDays(date: string, days: number): string {
  return new Date(Date.parse(`${date}T00:00:00Z`) + days * DAY_MS).toISOString().slice(0, 10);
}

/** The charges due on or before `today` (YYYY-MM-DD, Sydney), oldest first. */
export function dueCharges(gift: ScheduledGift, today: string): ScheduledCharge[] {
  if (!JOB_FREQUENCIES.has(gift.frequency) || gift.schedule.length === 0) return [];
  const charges: ScheduledCharge[] = [...gift.schedule];
  if (gift.frequency === "weekly-friday") {
    // Open-ended: every 7 days after the stored ones, up to today.
    let last = charges.at(-1)!;
    while (addDays(last.date, 7) <= today) {
      last = { date: addDays(last.date, 7), amountCents: gift.total_cents };
      charges.push(last);
    }
  }
  const taken = gift.intent_type === "payment" ? charges.slice(1) : charges;
  return taken.filter((c) => c.date <= today);
}
