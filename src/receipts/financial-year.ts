/**
 * The Australian financial year (1 July to 30 June) and the receipt numbers counted within it.
 * Receipt numbers are sequential per financial year and never reused: the counter itself is a
 * database row per year (the payments service's); this file owns the pure parts, which year a
 * moment falls in (in Sydney, where the foundation keeps its books) and how a number is written.
 * Browser-safe: the account pages may show and parse the same numbers.
 */

/** The foundation's books are kept in Sydney time: a gift at 11 pm on 30 June in Perth is still that year. */
export const RECEIPT_TIME_ZONE = "Australia/Sydney";

export interface FinancialYear {
  /** The calendar year the financial year starts in: 2026 for 1 July 2026 to 30 June 2027. */
  startYear: number;
  /** "2026-27", as the receipt number and the tax summary write it. */
  label: string;
  /** First and last day, YYYY-MM-DD. */
  from: string;
  to: string;
}

const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** The financial year that starts on 1 July of `startYear`. */
export function financialYearStarting(startYear: number): FinancialYear {
  if (!Number.isInteger(startYear) || startYear < 1000 || startYear > 9998) {
    throw new RangeError(`A financial year starts in a four-digit year; ${startYear} is not one.`);
  }
  const end = startYear + 1;
  return {
    startYear,
    label: `${startYear}-${String(end % 100).padStart(2, "0")}`,
    from: `${startYear}-07-01`,
    to: `${end}-06-30`,
  };
}

/** The financial year of a calendar date (YYYY-MM-DD): July onwards starts a new one. */
export function financialYearOfDate(date: string): FinancialYear {
  const match = ISO_DATE.exec(date);
  const month = match ? Number(match[2]) : 0;
  const day = match ? Number(match[3]) : 0;
  if (!match || month < 1 || month > 12 || day < 1 || day > 31) {
    throw new RangeError(`"${date}" is not a date written YYYY-MM-DD.`);
  }
  const year = Number(match[1]);
  return financialYearStarting(month >= 7 ? year : year - 1);
}

/** The calendar date (YYYY-MM-DD) of an instant in Sydney. */
export function sydneyDate(instant: Date): string {
  if (Number.isNaN(instant.getTime())) throw new RangeError("The receipt's moment is not a valid time.");
  const parts = new Intl.DateTimeFormat("en-AU", {
    timeZone: RECEIPT_TIME_ZONE,
    year: "numeric",
    month: "2-digit",
    day: "2-digit",
  }).formatToParts(instant);
  const get = (type: string) => parts.find((p) => p.type === type)!.value;
  return `${get("year")}-${get("month")}-${get("day")}`;
}

/** The financial year a payment made at `instant` is receipted in. */
export function financialYearOf(instant: Date): FinancialYear {
  return financialYearOfDate(sydneyDate(instant));
}

/** Six digits at least (000123); a year with a millionth receipt simply gets a longer number. */
const SEQUENCE_DIGITS = 6;
const RECEIPT_NUMBER = /^(\d{4})-(\d{2})\/(\d{6,})$/;

/** `2026-27/000123`: the year's label, a slash, the year's sequence number. */
export function formatReceiptNumber(year: FinancialYear, sequence: number): string {
  if (!Number.isSafeInteger(sequence) || sequence < 1) {
    throw new RangeError(`A receipt's sequence number is a whole number from 1; ${sequence} is not.`);
  }
  return `${year.label}/${String(sequence).padStart(SEQUENCE_DIGITS, "0")}`;
}

/** The year and sequence of a receipt number, or null when it is not one (wrong shape, years out of step, 0). */
export function parseReceiptNumber(text: string): { year: FinancialYear; sequence: number } | null {
  const match = RECEIPT_NUMBER.exec(text);
  if (!match) return null;
  const startYear = Number(match[1]);
  if (startYear < 1000 || (startYear + 1) % 100 !== Number(match[2])) return null;
  const sequence = Number(match[3]);
  if (!Number.isSafeInteger(sequence) || sequence < 1) return null;
  // One way to write each number: 0000123 is not 000123.
  if (match[3]!.length > SEQUENCE_DIGITS && match[3]!.startsWith("0")) return null;
  return { year: financialYearStarting(startYear), sequence };
}
