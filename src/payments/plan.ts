/**
 * What a gift charges and when: the fee and the schedule together. The page (before the donor
 * pays) and the backend (which charges) both call planGift with the same inputs, so they agree.
 * Monthly instalments split the whole gift first and cover the fee on each payment.
 */
import { stripeBillingDate } from "./billing-dates.js";
import { chargeFor, type FeeBreakdown } from "./fees.js";
import { computeSchedule, splitInstalments, type Schedule, type ScheduleResult } from "./schedules.js";
import type { Frequency, InstalmentPlan, IsoDate, Season } from "./types.js";

export interface GiftPlanInput {
  frequency: Frequency;
  today: IsoDate;
  /** The gift before fees: per charge, or for instalments the whole gift. */
  giftCents: number;
  coverFees: boolean;
  season?: Season;
  /** `monthly-instalments`: how many payments. */
  instalmentCount?: number;
  /**
   * A monthly card gift: the moment its Stripe subscription is made (now). Its dates are then the
   * days Stripe bills from that anchor (billing-dates.ts), not the calendar's: one made before 10 or
   * 11 am in Sydney is anchored on the day before in UTC, and from the 29th to the 1st Stripe's day
   * can differ (made at 9 am on 31 January: 1 March, not 28 February). Stripe has no anchor that
   * keeps the Sydney day then and charges the first payment in full at checkout, so the page shows
   * Stripe's days (docs/payments-api.md, "Recurring schedules").
   */
  cardAnchor?: Date;
}

export interface GiftPlan {
  /** Per charge (instalments: the first, regular payment). */
  charge: FeeBreakdown;
  schedule: Schedule;
  instalments?: InstalmentPlan;
}

export type GiftPlanResult = { ok: true; plan: GiftPlan } | Extract<ScheduleResult, { ok: false }>;

export function planGift(input: GiftPlanInput): GiftPlanResult {
  const { frequency, today, giftCents, coverFees, season } = input;
  if (frequency === "monthly-instalments") {
    const count = input.instalmentCount ?? 0;
    const charges =
      Number.isInteger(count) && count > 0
        ? splitInstalments(giftCents, count).map((g) => chargeFor(g, coverFees))
        : [];
    const result = computeSchedule({
      frequency,
      today,
      chargeCents: charges[0]?.totalCents ?? 0,
      instalmentCharges: charges.map((c) => c.totalCents),
    });
    if (!result.ok) return result;
    const endDate = result.schedule.charges.at(-1)!.date;
    return {
      ok: true,
      plan: { charge: charges[0]!, schedule: result.schedule, instalments: { count, giftCents, endDate } },
    };
  }
  const charge = chargeFor(giftCents, coverFees);
  const result = computeSchedule({ frequency, today, chargeCents: charge.totalCents, season });
  if (!result.ok) return result;
  const anchor = input.cardAnchor;
  if (frequency !== "monthly" || !anchor) return { ok: true, plan: { charge, schedule: result.schedule } };
  const charges = result.schedule.charges.map((c, k) => ({ ...c, date: stripeBillingDate(anchor, k) }));
  return { ok: true, plan: { charge, schedule: { ...result.schedule, charges } } };
}
