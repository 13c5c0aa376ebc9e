/**
 * What the thank-you page says for each fund and schedule. Words agree with the fund: tainted
 * wealth is purification, so it is thanked without any mention of reward or sadaqah.
 */
import { formatDollarsAndCents } from "../../payments/money.js";
import type { DonationState, Fund } from "../../payments/types.js";
import { formatShortDate, instalmentSentence } from "../donation/summary.js";

export const FUND_NAMES: Record<Fund, string> = {
  zakat: "Zakat",
  fitr: "Zakat al-Fitr",
  fidyah: "Fidyah",
  sadaqah: "Sadaqah",
  qurban: "Qurban",
  ramadan: "Ramadan giving",
  "dhul-hijjah": "Dhul Hijjah giving",
  "tainted-wealth": "Disposal of tainted wealth (purification)",
  "jumuah-giving": "Jumuah giving",
};

/** The closing words: a prayer fitting the gift, or for tainted wealth a plain statement of use. */
export const FUND_BLESSING: Record<Fund, string> = {
  zakat: "May Allah accept your zakat and bless the wealth that remains with you.",
  fitr: "May Allah accept your Zakat al-Fitr and your fasting.",
  fidyah: "May Allah accept your fidyah.",
  sadaqah: "May Allah accept your sadaqah and reward you for it.",
  qurban: "May Allah accept your qurban.",
  ramadan: "May Allah accept your giving this Ramadan and reward you for it.",
  "dhul-hijjah": "May Allah accept your giving in these blessed days and reward you for it.",
  "tainted-wealth": "Your wealth is purified of this amount. We use it only for public-benefit costs, never as zakat.",
  "jumuah-giving": "May Allah accept your Friday giving and reward you for it.",
};

/** The schedule in one sentence: "One payment of $45.00, on 24 Nov 2026", "12 payments of …", "… each month, until you cancel". */
export function scheduleSentence(
  d: Pick<DonationState, "schedule" | "openEnded" | "totalCents" | "frequency" | "instalments" | "scheduleTotalCents">,
): string {
  const first = d.schedule[0];
  if (!first) return `${formatDollarsAndCents(d.totalCents)}`;
  if (d.instalments)
    return `${instalmentSentence(d.instalments, d.schedule)}, ${formatDollarsAndCents(d.scheduleTotalCents ?? 0)} in all`;
  if (d.openEnded) {
    const every = d.frequency === "weekly-friday" ? "every Friday" : "each month";
    return `${formatDollarsAndCents(d.totalCents)} ${every}, from ${formatShortDate(first.date)} until you cancel`;
  }
  if (d.schedule.length === 1)
    return `One payment of ${formatDollarsAndCents(d.totalCents)}, on ${formatShortDate(first.date)}`;
  return `${d.schedule.length} payments of ${formatDollarsAndCents(d.totalCents)}, from ${formatShortDate(first.date)} to ${formatShortDate(d.schedule.at(-1)!.date)}, ${formatDollarsAndCents(d.scheduleTotalCents ?? 0)} in all`;
}
