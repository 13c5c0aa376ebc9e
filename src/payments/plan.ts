/**
 * What a gift charges and when: the fee and the schedule together. The page (before the donor
 * pays) and the backend (which charges) both call planGift with the same inputs, so they agree.
 * Monthly instalments split the whole gift first and cover the fee on each payment.
 */
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
  return { ok: true, plan: { charge, schedule: result.schedule } };
}
