/**
 * Dollars as a donor types them ↔ integer cents. Amounts never pass through floating point
 * multiplication ("19.99" * 100 is 1998.9999999999998), so parsing works on the digits.
 */

export type AmountParse =
  | { ok: true; cents: number }
  | { ok: false; reason: "required" | "not_a_number" | "too_many_decimals" | "negative" | "comma_grouping" };

/**
 * Digits with optional thousands grouping by commas or spaces ("1,250", "1 250", as the zakat
 * calculator reads them), an optional fraction, an optional leading "$".
 */
const AMOUNT = /^\$?\s*(\d{1,3}(?:[, ]\d{3})+|\d*)(?:\.(\d*))?$/;
/** No-break and thin spaces (copied, or from some keyboards) group digits as a space does. */
const GROUPING_SPACE = /[\u00a0\u2007\u2009\u202f]/g;

/**
 * Arabic-Indic (٠-٩) and Persian (۰-۹) digits, the Arabic decimal point (٫) and thousands
 * separator (٬) as the ASCII the amount pattern reads: a donor on the Arabic pages may type either.
 * Both digit blocks end in 0-9 in their low four bits.
 */
export const toAsciiDigits = (text: string) =>
  text
    .replace(/[٠-٩۰-۹]/g, (d) => String(d.charCodeAt(0) & 15))
    .replace(/٫/g, ".")
    .replace(/٬/g, ",");

/** Parses what a donor typed ("50", "$1,250.5", ".75", "١٢٥٠") into cents. Numbers are accepted too (presets). */
export function parseAmount(input: string | number | null | undefined): AmountParse {
  if (input === null || input === undefined) return { ok: false, reason: "required" };
  if (typeof input === "number") {
    if (!Number.isFinite(input)) return { ok: false, reason: "not_a_number" };
    // Number → shortest round-trip decimal text; 1e21 and 1e-7 come out in exponent form and fail below.
    input = String(input);
  }
  const text = toAsciiDigits(input.replace(GROUPING_SPACE, " ").trim());
  if (text === "") return { ok: false, reason: "required" };
  const match = AMOUNT.exec(text);
  if (!match) {
    // Said precisely, as the calculator does: a minus sign, or a comma where a point belongs ("1,20").
    if (/^[-−]\s*\$?\s*[\d.,]+$/.test(text)) return { ok: false, reason: "negative" };
    if (/^\$?\s*[\d,]+(?:\.\d*)?$/.test(text) && text.includes(",")) return { ok: false, reason: "comma_grouping" };
    return { ok: false, reason: "not_a_number" };
  }
  const whole = match[1]!.replace(/[, ]/g, "");
  const fraction = match[2] ?? "";
  if (whole === "" && fraction === "") return { ok: false, reason: "not_a_number" };
  if (fraction.length > 2) return { ok: false, reason: "too_many_decimals" };
  // Beyond 15 digits the cents would no longer be exact; any such amount is far above every maximum.
  if (whole.length > 13) return { ok: true, cents: Number.MAX_SAFE_INTEGER };
  const cents = Number(whole || "0") * 100 + Number(fraction.padEnd(2, "0"));
  return { ok: true, cents };
}

/** "$10", "$10.50", "$100,000": whole dollars without ".00", as the validation messages use them. */
export function formatDollars(cents: number): string {
  const negative = cents < 0;
  const abs = Math.abs(Math.round(cents));
  const dollars = Math.floor(abs / 100)
    .toString()
    .replace(/\B(?=(\d{3})+(?!\d))/g, ",");
  const rest = abs % 100;
  return `${negative ? "-" : ""}$${dollars}${rest === 0 ? "" : "." + String(rest).padStart(2, "0")}`;
}

/** Like formatDollars but always with cents ("$10.00"): for totals and fees beside each other. */
export function formatDollarsAndCents(cents: number): string {
  const text = formatDollars(cents);
  return /\.\d\d$/.test(text) ? text : `${text}.00`;
}
