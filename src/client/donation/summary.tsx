/**
 * The total and the dates, shown before paying: computed live with the shared fee and schedule
 * code while the donor edits, then replaced by the backend's own figures once the donation is
 * created (the same functions run there, so they agree).
 */
import { chargeFor } from "../../payments/fees.js";
import { formatDollarsAndCents, parseAmount } from "../../payments/money.js";
import { planGift } from "../../payments/plan.js";
import type { DonationCharges, InstalmentPlan, ScheduledCharge } from "../../payments/types.js";
import { chosenOption, type FundConfig } from "./config.js";
import type { FormValues } from "./form-state.js";

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

// Made on first use, not when the module loads: a browser's first DateTimeFormat loads its locale
// and time-zone data (about 50 ms in Chromium), which on /pay/ pages was a long task at load.
let dateFormat: Intl.DateTimeFormat | undefined;
export const formatDate = (iso: string) => {
  dateFormat ??= new Intl.DateTimeFormat("en-AU", {
    weekday: "short",
    day: "numeric",
    month: "short",
    year: "numeric",
    timeZone: "UTC",
  });
  return dateFormat.format(new Date(`${iso}T00:00:00Z`));
};
let shortDateFormat: Intl.DateTimeFormat | undefined;
/** "24 Nov 2026": for the instalment sentence. */
export const formatShortDate = (iso: string) => {
  shortDateFormat ??= new Intl.DateTimeFormat("en-AU", {
    day: "numeric",
    month: "short",
    year: "numeric",
    timeZone: "UTC",
  });
  return shortDateFormat.format(new Date(`${iso}T00:00:00Z`));
};

/** "12 payments of $40.75, from 24 Nov 2026 to 24 Oct 2027" (the last one named when it differs). */
export function instalmentSentence(plan: InstalmentPlan, charges: readonly ScheduledCharge[]): string {
  const first = charges[0]!;
  const last = charges.at(-1)!;
  const span = `from ${formatShortDate(first.date)} to ${formatShortDate(plan.endDate)}`;
  if (first.amountCents === last.amountCents)
    return `${plan.count} payments of ${formatDollarsAndCents(first.amountCents)}, ${span}`;
  return `${plan.count} payments, ${span}: ${plan.count - 1} of ${formatDollarsAndCents(first.amountCents)} and a last one of ${formatDollarsAndCents(last.amountCents)}`;
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
}

export function previewFigures(values: FormValues, config: FundConfig, today: string | null): Figures | null {
  const gift = giftCents(values, config);
  if (gift === null) return null;
  const instalmentCount = values.frequency === "monthly-instalments" ? Number(values.instalments) : undefined;
  if (!today) {
    const charge = chargeFor(instalmentCount ? Math.floor(gift / instalmentCount) : gift, values.coverFees);
    return { ...charge, charges: [], openEnded: false, scheduleTotalCents: null };
  }
  const result = planGift({
    frequency: values.frequency,
    today,
    giftCents: gift,
    coverFees: values.coverFees,
    season: config.season,
    instalmentCount,
  });
  if (!result.ok)
    return {
      ...chargeFor(gift, values.coverFees),
      charges: [],
      openEnded: false,
      scheduleTotalCents: null,
      problem: result.message,
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

export function Summary({ figures, headingId }: { figures: Figures; headingId: string }) {
  const { charges, instalments } = figures;
  const recurring = charges.length > 1;
  const shown = figures.openEnded ? charges.slice(0, 3) : charges;
  return (
    <section className="don-summary" aria-labelledby={headingId}>
      <h3 id={headingId}>Summary</h3>
      {instalments && charges.length ? (
        <p className="don-plan">
          <strong>{instalmentSentence(instalments, charges)}</strong>
          {". They stop when your "}
          {formatDollarsAndCents(instalments.giftCents)} is paid.
        </p>
      ) : null}
      <dl>
        {instalments ? (
          <>
            <dt>Your whole gift</dt>
            <dd>{formatDollarsAndCents(instalments.giftCents)}</dd>
          </>
        ) : null}
        <dt>Your gift{instalments ? " each month" : recurring ? " each time" : ""}</dt>
        <dd>{formatDollarsAndCents(figures.amountCents)}</dd>
        {figures.feeCents > 0 ? (
          <>
            <dt>Card fee you are covering</dt>
            <dd>{formatDollarsAndCents(figures.feeCents)}</dd>
          </>
        ) : null}
        <dt>{recurring ? "Charged each time" : "Total charged"}</dt>
        <dd>
          <strong>{formatDollarsAndCents(figures.totalCents)}</strong>
        </dd>
        {figures.scheduleTotalCents !== null && recurring ? (
          <>
            <dt>Total over {charges.length} charges</dt>
            <dd>
              <strong>{formatDollarsAndCents(figures.scheduleTotalCents)}</strong>
            </dd>
          </>
        ) : null}
      </dl>
      {figures.problem ? <p className="don-error">{figures.problem}</p> : null}
      {charges.length && !instalments ? (
        <>
          <p className="don-dates-heading">
            {charges.length === 1
              ? "Charged on"
              : figures.openEnded
                ? "Charged on these dates, then on until you cancel"
                : "Charged on"}
          </p>
          <ul className="don-dates">
            {shown.map((c) => (
              <li key={c.date}>{formatDate(c.date)}</li>
            ))}
            {figures.openEnded ? <li>and so on, until you cancel</li> : null}
          </ul>
        </>
      ) : null}
    </section>
  );
}

/** The cover-the-fees choice, with the fee in dollars for the amount typed. */
export function feeFor(values: FormValues, config: FundConfig): number | null {
  const gift = giftCents(values, config);
  return gift === null ? null : chargeFor(gift, true).feeCents;
}
