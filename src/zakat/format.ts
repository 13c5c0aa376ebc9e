/**
 * Formatting for the calculator's explanation. Hand-written rather than Intl.NumberFormat because
 * Intl works on floats (it would round a 20-digit bigint amount through a double in some runtimes)
 * and its output differs between Node and browsers; these strings must be identical in the
 * server-rendered HTML and the hydrated island.
 */
import { type Ratio, ratio, roundHalfUp, toDecimalString } from "./ratio.js";
import { MONTHS } from "../core/months.js";

function groupThousands(digits: string): string {
  return digits.replace(/\B(?=(\d{3})+(?!\d))/g, ",");
}

/** Whole cents as Australian dollars: 123456n → "$1,234.56", -5n → "-$0.05". */
export function formatAud(cents: bigint): string {
  const negative = cents < 0n;
  const abs = negative ? -cents : cents;
  const dollars = groupThousands((abs / 100n).toString());
  const rest = (abs % 100n).toString().padStart(2, "0");
  return `${negative ? "-" : ""}$${dollars}.${rest}`;
}

/**
 * An exact amount of cents that may have fractions of a cent (a price per gram such as $1.5534),
 * shown with at least two decimals and as many more as it needs (up to 6 decimals of a dollar,
 * beyond which it is rounded half up to that precision, which only a strange price would need).
 */
export function formatAudExact(cents: Ratio): string {
  const dollars = ratio(cents.numerator, cents.denominator * 100n);
  let text = toDecimalString(dollars, 2, 6);
  if (text === undefined) {
    const millionths = roundHalfUp(ratio(dollars.numerator * 1_000_000n, dollars.denominator));
    text = toDecimalString(ratio(millionths, 1_000_000n), 2, 6)!;
  }
  const negative = text.startsWith("-");
  const [whole, fraction] = (negative ? text.slice(1) : text).split(".");
  return `${negative ? "-" : ""}$${groupThousands(whole!)}.${fraction}`;
}

/** "2026-11-01" → "1 November 2026" (the Australian order). Assumes a valid ISO date. */
export function formatIsoDate(isoDate: string): string {
  const [year, month, day] = isoDate.split("-").map(Number);
  return `${day} ${MONTHS[month! - 1]} ${year}`;
}

/** 12_500n milligrams → "12.5 g". */
export function formatGrams(milligrams: bigint): string {
  const text = toDecimalString(ratio(milligrams, 1000n), 0, 3)!;
  const [whole, fraction] = text.split(".");
  return `${groupThousands(whole!)}${fraction ? "." + fraction : ""} g`;
}
