/**
 * The dates a donation is charged on. Shared by the browser (to show the dates and the total before
 * the donor pays) and the backend (which charges them), so both compute the same schedule from the
 * same inputs. Dates are calendar dates (`YYYY-MM-DD`) computed in UTC arithmetic, so daylight
 * saving never shifts a date; "today" is passed in (the backend uses Australia/Sydney).
 *
 * Ramadan and Dhul Hijjah start on a moon sighting, so their Gregorian dates are not computed here:
 * editors enter the first night/day in the content and it arrives as a `Season`.
 */
import type { Frequency, IsoDate, ScheduledCharge, Season } from "./types.js";

/** How many upcoming charges an open-ended schedule (monthly, weekly) lists. */
export const OPEN_ENDED_PREVIEW = 12;
const FRIDAY = 5;
const DAY_MS = 86_400_000;
export const RAMADAN_LENGTHS = [29, 30] as const;
export const DHUL_HIJJAH_DAYS = 10;
/** A year's zakat in monthly instalments: from 2 to 12 payments (at most a lunar year ahead). */
export const MIN_INSTALMENTS = 2;
export const MAX_INSTALMENTS = 12;
/** The last ten nights begin on the 21st night, whether Ramadan has 29 or 30 nights. */
const LAST_TEN_FIRST_NIGHT = 21;

export interface ScheduleInput {
  frequency: Frequency;
  today: IsoDate;
  /** What each charge takes from the card (gift plus any covered fee). */
  chargeCents: number;
  season?: Season;
  /** `monthly-instalments`: what each payment takes from the card, in order (see planGift). */
  instalmentCharges?: readonly number[];
}

export interface Schedule {
  charges: ScheduledCharge[];
  openEnded: boolean;
  /** Sum of every charge of a finite schedule; null when open-ended. */
  totalCents: number | null;
  /** The first charge is today: pay now (PaymentIntent) rather than save the card (SetupIntent). */
  firstChargeToday: boolean;
}

export type ScheduleResult =
  | { ok: true; schedule: Schedule }
  | {
      ok: false;
      code: "season_required" | "season_invalid" | "schedule_ended" | "instalments_required";
      message: string;
    };

export function isIsoDate(value: unknown): value is IsoDate {
  if (typeof value !== "string" || !/^\d{4}-\d{2}-\d{2}$/.test(value)) return false;
  const d = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === value;
}

const toMs = (date: IsoDate): number => Date.parse(`${date}T00:00:00Z`);
const fromMs = (ms: number): IsoDate => new Date(ms).toISOString().slice(0, 10);
export const addDays = (date: IsoDate, days: number): IsoDate => fromMs(toMs(date) + days * DAY_MS);

/** Today's calendar date in a time zone (the backend passes "Australia/Sydney"). */
export function todayIn(timeZone: string, now: Date = new Date()): IsoDate {
  const parts = new Intl.DateTimeFormat("en-AU", {
    timeZone,
    year: "numeric",
    month: "2-digit",
    day: "2-digit",
  }).formatToParts(now);
  const get = (type: string) => parts.find((p) => p.type === type)!.value;
  return `${get("year")}-${get("month")}-${get("day")}`;
}

/** The same day each month from `start`; the 29th–31st fall on the last day of shorter months. */
function monthlyDates(start: IsoDate, count: number): IsoDate[] {
  const [y, m, d] = start.split("-").map(Number) as [number, number, number];
  const dates: IsoDate[] = [];
  for (let i = 0; i < count; i++) {
    const lastDay = new Date(Date.UTC(y, m - 1 + i + 1, 0)).getUTCDate();
    dates.push(fromMs(Date.UTC(y, m - 1 + i, Math.min(d, lastDay))));
  }
  return dates;
}

/**
 * Monthly instalments: the first today, the rest as Stripe bills the schedule that starts on the
 * second (src/api/stripe/intents.ts): a month on, then that day of each month (its last day when
 * shorter). From the 31st of January: 28 February, then the 28th, as Stripe anchors on the start.
 */
function instalmentDates(today: IsoDate, count: number): IsoDate[] {
  const second = monthlyDates(today, 2)[1]!;
  return [today, ...monthlyDates(second, count - 1)];
}

/** Fridays from `start`: start itself when it is a Friday (a Jumuah gift made on Friday is charged that day). */
function fridayDates(start: IsoDate, count: number): IsoDate[] {
  const offset = (FRIDAY - new Date(toMs(start)).getUTCDay() + 7) % 7;
  const first = addDays(start, offset);
  return Array.from({ length: count }, (_, i) => addDays(first, i * 7));
}

/** Consecutive days `fromDay..toDay` (1-based) of a season, leaving out those before today. */
function seasonDates(season: Season, fromDay: number, toDay: number, today: IsoDate): IsoDate[] {
  const dates: IsoDate[] = [];
  for (let n = fromDay; n <= toDay; n++) {
    const date = addDays(season.start, n - 1);
    if (date >= today) dates.push(date);
  }
  return dates;
}

export interface SeasonProblem {
  code: "season_required" | "season_invalid";
  message: string;
}

/** Why a seasonal schedule's season is unusable, or null when it is fine. */
export function checkSeason(frequency: Frequency, season: Season | undefined): SeasonProblem | null {
  if (!season || typeof season !== "object")
    return {
      code: "season_required",
      message: "This schedule needs the season's start date. Please reload the page and try again.",
    };
  const ramadan = frequency !== "dhul-hijjah-ten-days";
  const lengthOk = ramadan
    ? (RAMADAN_LENGTHS as readonly number[]).includes(season.length)
    : season.length === DHUL_HIJJAH_DAYS;
  if (!isIsoDate(season.start) || !lengthOk) {
    const expected = ramadan ? "29 or 30 nights" : `${DHUL_HIJJAH_DAYS} days`;
    return { code: "season_invalid", message: `The season must have a start date (YYYY-MM-DD) and ${expected}.` };
  }
  return null;
}

export function computeSchedule(input: ScheduleInput): ScheduleResult {
  const { frequency, today, chargeCents, season } = input;
  let dates: IsoDate[];
  let openEnded = false;
  switch (frequency) {
    case "once":
      dates = [today];
      break;
    case "monthly":
      dates = monthlyDates(today, OPEN_ENDED_PREVIEW);
      openEnded = true;
      break;
    case "monthly-instalments": {
      const n = input.instalmentCharges?.length ?? 0;
      if (n < MIN_INSTALMENTS || n > MAX_INSTALMENTS) {
        return {
          ok: false,
          code: "instalments_required",
          message: `Choose from ${MIN_INSTALMENTS} to ${MAX_INSTALMENTS} monthly payments.`,
        };
      }
      const charges = instalmentDates(today, n).map((date, i) => ({ date, amountCents: input.instalmentCharges![i]! }));
      const totalCents = charges.reduce((sum, c) => sum + c.amountCents, 0);
      return { ok: true, schedule: { charges, openEnded: false, totalCents, firstChargeToday: true } };
    }
    case "weekly-friday":
      dates = fridayDates(today, OPEN_ENDED_PREVIEW);
      openEnded = true;
      break;
    case "ramadan-nightly":
    case "ramadan-last-ten":
    case "dhul-hijjah-ten-days": {
      const problem = checkSeason(frequency, season);
      if (problem) return { ok: false, ...problem };
      const s = season!;
      const from = frequency === "ramadan-last-ten" ? LAST_TEN_FIRST_NIGHT : 1;
      dates = seasonDates(s, from, s.length, today);
      if (dates.length === 0) {
        return {
          ok: false,
          code: "schedule_ended",
          message: "These nights or days have already passed. Please choose a one-off gift instead.",
        };
      }
      break;
    }
  }
  const charges = dates.map((date) => ({ date, amountCents: chargeCents }));
  return {
    ok: true,
    schedule: {
      charges,
      openEnded,
      totalCents: openEnded ? null : chargeCents * charges.length,
      firstChargeToday: charges[0]!.date === today,
    },
  };
}

/** A gift split into `count` monthly payments in whole cents: equal ones, the last carrying any cents left over. */
export function splitInstalments(giftCents: number, count: number): number[] {
  const each = Math.floor(giftCents / count);
  return Array.from({ length: count }, (_, i) => (i === count - 1 ? giftCents - each * (count - 1) : each));
}
