/**
 * The total and the dates, shown before paying: computed live with the shared fee and schedule
 * code while the donor edits, then replaced by the backend's own figures once the donation is
 * created (the same functions run there, so they agree).
 */
import { chargeFor } from "../../payments/fees.js";
import { parseAmount } from "../../payments/money.js";
import { planGift } from "../../payments/plan.js";
import type { DonationCharges, InstalmentPlan, ScheduledCharge } from "../../payments/types.js";
import { chosenOption, type FundConfig } from "./config.js";
import type { FormValues } from "./form-state.js";
import { fill, type FormatWords, type Formats } from "./format.js";

/** The gift per charge in cents from what is typed, or null while it is not a usable amount. */
export function giftCents(values: FormValues, config: FundConfig): number | null {
  const q = config.quantity;
  if (q) {
    const count = /^\d+$/.test(values.quantity.trim()) ? Number(values.quantity.trim()) : NaN;
    if (!(count >= q.min && count <= q.max)) return null;
    const option = chosenOption(config, values.option);
    return count * (option?.unitCents ?? q.unitCents);
  }
  const parsed = parseAmount(values.amount);
  return parsed.ok && parsed.cents >= config.minimumCents && parsed.cents <= config.maximumCents ? parsed.cents : null;
}

/**
 * What a counted gift is for, as the summary's first row: "Number of animals" "3 × Goat (overseas)",
 * "Number of people" "5". Null for a gift given as an amount, or while the count is not usable.
 */
export function countedItem(
  values: FormValues,
  config: FundConfig,
  f: Formats,
): { label: string; value: string } | null {
  const q = config.quantity;
  const count = values.quantity.trim();
  if (!q || giftCents(values, config) === null) return null;
  const option = q.options?.length ? chosenOption(config, values.option) : undefined;
  // Written back as a number: "04" typed is 4.
  const n = String(Number(count));
  return { label: fill(f.words.numberOf, { units: q.label }), value: option ? `${n} × ${option.label}` : n };
}

/** "12 payments of $40.75, from 24 Nov 2026 to 24 Oct 2027" (the last one named when it differs). */
export function instalmentSentence(
  plan: InstalmentPlan,
  charges: readonly ScheduledCharge[],
  f: Formats<FormatWords>,
): string {
  const first = charges[0]!;
  const last = charges.at(-1)!;
  const values = {
    rest: plan.count - 1,
    amount: f.money(first.amountCents),
    last: f.money(last.amountCents),
    from: f.shortDate(first.date),
    to: f.shortDate(plan.endDate),
  };
  const phrase = first.amountCents === last.amountCents ? f.words.instalmentsEqual : f.words.instalmentsUneven;
  return f.count(phrase, plan.count, values);
}

export interface Figures {
  amountCents: number;
  feeCents: number;
  totalCents: number;
  charges: ScheduledCharge[];
  openEnded: boolean;
  scheduleTotalCents: number | null;
  instalments?: InstalmentPlan;
  problem?: string;
  /** The schedule's error code, for the message in the page's language. */
  problemCode?: string;
  /**
   * A one-off gift before the browser knows the donor's date (the server's render, and the
   * browser's first): its one charge is today.
   */
  chargedToday?: true;
}

/**
 * `cardAnchor`: a monthly gift paid by card is dated from the moment it is made (now), as Stripe
 * bills it (planGift's `cardAnchor`); the page passes it unless the donor pays with PayPal.
 */
export function previewFigures(
  values: FormValues,
  config: FundConfig,
  today: string | null,
  cardAnchor?: Date,
): Figures | null {
  const gift = giftCents(values, config);
  if (gift === null) return null;
  const instalmentCount = values.frequency === "monthly-instalments" ? Number(values.instalments) : undefined;
  if (!today) {
    const charge = chargeFor(instalmentCount ? Math.floor(gift / instalmentCount) : gift, values.coverFees);
    const once = values.frequency === "once" ? { chargedToday: true as const } : {};
    return { ...charge, charges: [], openEnded: false, scheduleTotalCents: null, ...once };
  }
  const result = planGift({
    frequency: values.frequency,
    today,
    giftCents: gift,
    coverFees: values.coverFees,
    season: config.season,
    instalmentCount,
    ...(cardAnchor ? { cardAnchor } : {}),
  });
  if (!result.ok)
    return {
      ...chargeFor(gift, values.coverFees),
      charges: [],
      openEnded: false,
      scheduleTotalCents: null,
      problem: result.message,
      problemCode: result.code,
    };
  const { charge, schedule, instalments } = result.plan;
  return {
    ...charge,
    charges: schedule.charges,
    openEnded: schedule.openEnded,
    scheduleTotalCents: schedule.totalCents,
    ...(instalments ? { instalments } : {}),
  };
}

export function createdFigures(created: DonationCharges): Figures {
  return {
    amountCents: created.amountCents,
    feeCents: created.feeCents,
    totalCents: created.totalCents,
    charges: created.schedule,
    openEnded: created.openEnded,
    scheduleTotalCents: created.scheduleTotalCents,
    ...(created.instalments ? { instalments: created.instalments } : {}),
  };
}

/**
 * `today`: Sydney's date (the backend's), once the browser knows it. A charge on that date reads "Today", as a
 * one-off gift's does before the date is known: the summary keeps its height when the form hydrates
 * (a longer date can take two lines on a phone), so the Continue button does not move under the
 * donor's first tap, which hydrates it.
 */
export function Summary({
  figures,
  headingId,
  f,
  today,
  item,
}: {
  figures: Figures;
  headingId: string;
  f: Formats;
  /** Sydney's date, the backend's "today". */
  today: string | null;
  /** countedItem: what a counted gift (qurban, fitr, fidyah) is for, shown first. */
  item?: { label: string; value: string } | null;
}) {
  const { charges, instalments } = figures;
  const w = f.words;
  const recurring = charges.length > 1;
  const shown = figures.openEnded ? charges.slice(0, 3) : charges;
  return (
    <section className="don-summary" aria-labelledby={headingId}>
      <h3 id={headingId}>{w.summary}</h3>
      {instalments && charges.length ? (
        <p className="don-plan">
          <strong>{instalmentSentence(instalments, charges, f)}</strong>
          {fill(w.planStop, { gift: f.money(instalments.giftCents) })}
        </p>
      ) : null}
      <dl>
        {item ? (
          <>
            <dt>{item.label}</dt>
            <dd className="don-item">{item.value}</dd>
          </>
        ) : null}
        {instalments ? (
          <>
            <dt>{w.wholeGift}</dt>
            <dd>{f.money(instalments.giftCents)}</dd>
          </>
        ) : null}
        <dt>{instalments ? w.giftEachMonth : recurring ? w.giftEachTime : w.giftOnce}</dt>
        <dd>{f.money(figures.amountCents)}</dd>
        {figures.feeCents > 0 ? (
          <>
            <dt>{w.feeCovered}</dt>
            <dd>{f.money(figures.feeCents)}</dd>
          </>
        ) : null}
        <dt>{recurring ? w.chargedEachTime : w.totalCharged}</dt>
        <dd>
          <strong>{f.money(figures.totalCents)}</strong>
        </dd>
        {figures.scheduleTotalCents !== null && recurring ? (
          <>
            <dt>{f.count(w.totalOver, charges.length)}</dt>
            <dd>
              <strong>{f.money(figures.scheduleTotalCents)}</strong>
            </dd>
          </>
        ) : null}
      </dl>
      {figures.problem ? (
        <p className="don-error">{(figures.problemCode && w.errors[figures.problemCode]) || figures.problem}</p>
      ) : null}
      {(charges.length || figures.chargedToday) && !instalments ? (
        <>
          <p className="don-dates-heading">
            {figures.openEnded && charges.length > 1 ? w.chargedOnThenUntilCancel : w.chargedOn}
          </p>
          <ul className="don-dates">
            {figures.chargedToday ? <li>{w.today}</li> : null}
            {shown.map((c) => (
              <li key={c.date}>
                {/* A donor whose own date is not Sydney's (in Perth late in the evening) is shown the
                    date, as Sydney's. Swedish writes a date as YYYY-MM-DD: the donor's own, in ISO form. */}
                {c.date !== today
                  ? f.date(c.date)
                  : new Date().toLocaleDateString("sv") === today
                    ? w.today
                    : fill(w.todayDated, { date: f.date(today) })}
              </li>
            ))}
            {figures.openEnded ? <li>{w.andSoOn}</li> : null}
          </ul>
        </>
      ) : null}
    </section>
  );
}

/**
 * The cover-the-fee checkbox's label: what covering the fee adds, as the summary will charge it (the
 * plan with the fee covered): on each charge, and in all when the schedule has an end. Instalments
 * split the whole gift first, so the fee is on each payment, and the last, which takes the
 * remainder, may carry a cent more.
 */
export function feeLabel(values: FormValues, config: FundConfig, today: string | null, f: Formats): string {
  const w = f.words;
  const covered = previewFigures({ ...values, coverFees: true }, config, today);
  if (!covered) return w.coverFeeUnknown;
  const fee = f.money(covered.feeCents);
  const n = covered.charges.length;
  if (values.frequency === "once" || n === 1) return fill(w.coverFee, { fee });
  if (covered.openEnded || !n) return fill(w.coverFeeEach, { fee });
  const total = covered.scheduleTotalCents! - (covered.instalments?.giftCents ?? covered.amountCents * n);
  const last = total - covered.feeCents * (n - 1);
  return fill(last === covered.feeCents ? w.coverFeeEachTotal : w.coverFeeUneven, {
    fee,
    last: f.money(last),
    total: f.money(total),
  });
}
