/**
 * The thank-you page's schedule sentence in the page's language (the dictionaries are in
 * ../donation/words/thanks-*.ts, with each fund's name and closing words).
 */
import type { DonationState } from "../../payments/types.js";
import { fill, type Formats } from "../donation/format.js";
import { instalmentSentence } from "../donation/summary.js";
import type { ThankYouWords } from "../donation/words/thanks-en.js";

/** The schedule in one sentence: "One payment of $45.00, on 24 Nov 2026", "12 payments of …", "… each month, until you cancel". */
export function scheduleSentence(
  d: Pick<DonationState, "schedule" | "openEnded" | "totalCents" | "frequency" | "instalments" | "scheduleTotalCents">,
  f: Formats<ThankYouWords>,
): string {
  const t = f.words;
  const first = d.schedule[0];
  const amount = f.money(d.totalCents);
  const total = f.money(d.scheduleTotalCents ?? 0);
  if (!first) return amount;
  if (d.instalments) return fill(t.inAll, { schedule: instalmentSentence(d.instalments, d.schedule, f), total });
  if (d.openEnded)
    return fill(d.frequency === "weekly-friday" ? t.everyFriday : t.eachMonth, {
      amount,
      from: f.shortDate(first.date),
    });
  if (d.schedule.length === 1) return fill(t.onePayment, { amount, date: f.shortDate(first.date) });
  return f.count(t.severalPayments, d.schedule.length, {
    amount,
    from: f.shortDate(first.date),
    to: f.shortDate(d.schedule.at(-1)!.date),
    total,
  });
}
