/**
 * The total and the dates, shown before paying: computed live with the shared fee and schedule
 * code while the donor edits, then replaced by the backend's own figures once the donation is
 * created (the same functions run there, so they agree).
 */
import { chargeFor } from "../../payments/fees.js";
import { formatDollarsAndCents, parseAmount } from "../../payments/money.js";
import { computeSchedule } from "../../payments/schedules.js";
import type { DonationCreated, ScheduledCharge } from "../../payments/types.js";
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
  dateFormat ??= new Intl.DateTimeFormat("en-AU", { weekday: "short", day: "numeric", month: "short", year: "numeric", timeZone: "UTC" });
  return dateFormat.format(new Date(`${iso}T00:00:00Z`));
};

export interface Figures {
  amountCents: number;
  feeCents: number;
  totalCents: number;
  charges: ScheduledCharge[];
  openEnded: boolean;
  scheduleTotalCents: number | null;
  problem?: string;
}

export function previewFigures(values: FormValues, config: FundConfig, today: string | null): Figures | null {
  const gift = giftCents(values, config);
  if (gift === null) return null;
  const charge = chargeFor(gift, values.coverFees);
  if (!today) return { ...charge, charges: [], openEnded: false, scheduleTotalCents: null };
  const result = computeSchedule({ frequency: values.frequency, today, chargeCents: charge.totalCents, season: config.season });
  if (!result.ok) return { ...charge, charges: [], openEnded: false, scheduleTotalCents: null, problem: result.message };
  return { ...charge, charges: result.schedule.charges, openEnded: result.schedule.openEnded, scheduleTotalCents: result.schedule.totalCents };
}

export function createdFigures(created: DonationCreated): Figures {
  return { amountCents: created.amountCents, feeCents: created.feeCents, totalCents: created.totalCents, charges: created.schedule, openEnded: created.openEnded, scheduleTotalCents: created.scheduleTotalCents };
}

export function Summary({ figures, headingId }: { figures: Figures; headingId: string }) {
  const { charges } = figures;
  const recurring = charges.length > 1;
  const shown = figures.openEnded ? charges.slice(0, 3) : charges;
  return (
    <section className="don-summary" aria-labelledby={headingId}>
      <h3 id={headingId}>Summary</h3>
      <dl>
        <dt>Your gift{recurring ? " each time" : ""}</dt>
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
      {charges.length ? (
        <>
          <p className="don-dates-heading">{charges.length === 1 ? "Charged on" : figures.openEnded ? "Charged on these dates, then on until you cancel" : "Charged on"}</p>
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
