/**
 * Turns what donors type into exact values, or a message to show under the field. Lenient about
 * form ("$1,200.50", " 45 ", "A$1 000", "12.5 g", "18k") and strict about meaning: a minus sign, a
 * second decimal point or fractions of a cent are refused rather than guessed at. Comma grouping
 * must be in threes, because "1,20" is a European "1.20" and reading it as 120 would be a
 * hundredfold error in someone's zakat.
 */
import type { Purity } from "./types.js";

export type ParseResult<T> = ({ ok: true } & T) | { ok: false; message: string };

type NumberProblem = "notNumber" | "negative" | "grouping" | "decimals" | "tooLarge";

/** More integer digits than this is a typo, not wealth (10^30 dollars). */
const MAX_INTEGER_DIGITS = 30;

/**
 * Reads a non-negative decimal with optional thousands grouping (commas or spaces) and returns it
 * scaled to an integer of `10^decimals` units (cents for decimals = 2, milligrams for 3).
 */
function readScaled(text: string, decimals: number): { value: bigint } | { problem: NumberProblem } {
  let s = text.trim();
  let negative = false;
  if (s.startsWith("(") && s.endsWith(")")) {
    negative = true; // accounting notation for a negative number
    s = s.slice(1, -1).trim();
  }
  if (/^[-−]/.test(s)) {
    negative = true;
    s = s.slice(1).trim();
  }
  // Any other character than digits, grouping and the decimal point: not a number we understand.
  if (!/^[\d., ]+$/.test(s) || !/\d/.test(s)) return { problem: "notNumber" };
  if (negative) return { problem: "negative" };
  const parts = s.split(".");
  if (parts.length > 2) return { problem: "notNumber" };
  const [whole = "", fraction = ""] = parts;
  if (!/^\d*$/.test(fraction)) return { problem: "notNumber" };
  let digits = whole;
  if (/[, ]/.test(whole)) {
    if (!/^\d{1,3}(?:[, ]\d{3})+$/.test(whole)) return { problem: "grouping" };
    digits = whole.replace(/[, ]/g, "");
  }
  if (fraction.length > decimals) return { problem: "decimals" };
  if (digits.replace(/^0+/, "").length > MAX_INTEGER_DIGITS) return { problem: "tooLarge" };
  return { value: BigInt((digits || "0") + fraction.padEnd(decimals, "0")) };
}

/** No-break and thin spaces (from copy-paste or some keyboards) count as ordinary spaces. */
function normaliseSpaces(text: string): string {
  return text.replace(/[\u00a0\u2007\u2009\u202f]/g, " ").trim();
}

const AMOUNT_MESSAGES: Record<NumberProblem, string> = {
  notNumber: "Enter an amount in dollars, like 1,200.50.",
  negative: "Amounts cannot be negative. Enter the amount without a minus sign, like 1,200.50.",
  grouping: "Check the commas: group thousands in threes, like 1,200.50, and put cents after a full stop.",
  decimals: "Enter at most two decimal places for cents, like 10.55.",
  tooLarge: "That amount is too large to be right. Check it and enter it in dollars, like 1,200.50.",
};

/**
 * A dollar amount as typed → whole cents. An empty field is zero (the donor has none of it).
 * Accepts "$", "A$", "AU$" or "AUD" before the number (and "AUD" after it) and a minus sign
 * either side of the "$" is recognised so the message can say why it is refused.
 */
export function parseAmount(text: string): ParseResult<{ cents: bigint }> {
  let s = normaliseSpaces(text);
  if (s === "") return { ok: true, cents: 0n };
  const minus = /^[-−]\s*/.exec(s);
  if (minus) s = s.slice(minus[0].length);
  s = s.replace(/^(?:AU\$|A\$|AUD\s*|\$)\s*/i, "").replace(/\s*AUD$/i, "");
  const read = readScaled(minus ? `-${s}` : s, 2);
  if ("problem" in read) return { ok: false, message: AMOUNT_MESSAGES[read.problem] };
  return { ok: true, cents: read.value };
}

const GRAM_MESSAGES: Record<NumberProblem, string> = {
  notNumber: "Enter the weight in grams, like 12.5.",
  negative: "A weight cannot be negative. Enter it in grams without a minus sign, like 12.5.",
  grouping: "Check the commas: group thousands in threes, like 1,250.5.",
  decimals: "Enter the weight with at most three decimal places, like 12.125.",
  tooLarge: "That weight is too large to be right. Check it and enter it in grams, like 12.5.",
};

/** A weight in grams as typed ("12.5", "1,000 g", "3.125grams") → whole milligrams. Empty is zero. */
export function parseGrams(text: string): ParseResult<{ milligrams: bigint }> {
  const s = normaliseSpaces(text).replace(/\s*(?:g|gm|gms|gram|grams)$/i, "");
  if (s === "") return { ok: true, milligrams: 0n };
  const read = readScaled(s, 3);
  if ("problem" in read) return { ok: false, message: GRAM_MESSAGES[read.problem] };
  return { ok: true, milligrams: read.value };
}

/**
 * Purity as typed, in the unit the donor chose: carats ("18", "22k", "9 ct"; 1 to 24) or
 * thousandths, the hallmark number ("916", "999.9", "925‰"; 1 to 1000). One decimal place at most.
 * Empty is an error: a weight without a purity cannot be valued.
 */
export function parsePurity(text: string, unit: Purity["unit"]): ParseResult<{ purity: Purity }> {
  const example = unit === "carat" ? "like 18 for 18 carat gold" : "like 916 or 999, the number stamped on the item";
  const rangeText = unit === "carat" ? "from 1 to 24" : "from 1 to 1000";
  const message = `Enter the purity in ${unit === "carat" ? "carats" : "thousandths"} ${rangeText}, ${example}.`;
  const suffix = unit === "carat" ? /\s*(?:k|kt|ct|carat|carats|karat|karats)$/i : /\s*‰$/;
  const s = normaliseSpaces(text).replace(suffix, "");
  if (s === "" || !/^\d+(?:\.\d+)?$/.test(s)) return { ok: false, message };
  const [, fraction = ""] = s.split(".");
  if (fraction.length > 1)
    return { ok: false, message: `Enter the purity with at most one decimal place, ${example}.` };
  const value = Number(s); // at most 4 digits and one decimal: exact as a double, and exact again via String()
  const limit = unit === "carat" ? 24 : 1000;
  if (value < 1 || value > limit) {
    if (unit === "carat" && value > 24 && value <= 1000) {
      return {
        ok: false,
        message: `Carats go from 1 to 24. For a hallmark number like ${s}, choose thousandths instead.`,
      };
    }
    return { ok: false, message };
  }
  return { ok: true, purity: { unit, value } };
}
