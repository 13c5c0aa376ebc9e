/**
 * Stripe's monthly billing dates, worked out as Stripe does from a subscription's billing cycle
 * anchor (a moment, in UTC): each period ends on the anchor's day of the month at the anchor's time,
 * on the month's last day when the month is shorter, and back on the anchor's day in the months
 * after (an anchor on 31 January bills 28 or 29 February, then 31 March, 30 April, 31 May). The
 * account shows a card plan's next and last dates from this one function, so what it says is what
 * Stripe charges; skipping a payment voids one period and keeps the anchor. Browser-safe, pure.
 */
import { todayIn } from "./schedules.js";
import type { IsoDate } from "./types.js";

const TIME_ZONE = "Australia/Sydney";

/** Unix seconds of the end of the `months`-th period after the anchor (0: the anchor itself). */
export function stripeBillingInstant(anchor: Date | string | number, months: number): number {
  const at = typeof anchor === "number" ? new Date(anchor * 1000) : new Date(anchor);
  const y = at.getUTCFullYear();
  const m = at.getUTCMonth() + months;
  const lastDay = new Date(Date.UTC(y, m + 1, 0)).getUTCDate();
  const day = Math.min(at.getUTCDate(), lastDay);
  return Math.floor(
    Date.UTC(y, m, day, at.getUTCHours(), at.getUTCMinutes(), at.getUTCSeconds(), at.getUTCMilliseconds()) / 1000,
  );
}

/** The day in Sydney that Stripe bills the `months`-th period after the anchor. */
export function stripeBillingDate(anchor: Date | string | number, months: number): IsoDate {
  return todayIn(TIME_ZONE, new Date(stripeBillingInstant(anchor, months) * 1000));
}

/**
 * An instalment schedule that has not started, its first payment skipped: Stripe's schedule then
 * starts a month later, on its start's day (the month's last day when shorter), and bills from that
 * new start's day on (31 August moved to 30 September bills the 30th after). Returns the new start,
 * the plan's anchor now (Unix seconds), and the skips it holds. The service moves the schedule with
 * it (src/api/stripe/plan-provider.ts) and the account previews the skip with it (afterSkip), so
 * the dates the donor is shown before a skip are the ones the skip makes.
 */
export function skippedBeforeStart(
  start: Date | string | number,
  skipsHeld: number,
): { anchor: number; skips: number } {
  return { anchor: stripeBillingInstant(start, 1), skips: skipsHeld + 1 };
}
