/**
 * The calculator's figures and messages in the page's language (words/). English keeps src/zakat's
 * own formatting, hand-written so the server's HTML and the browser's match to the character;
 * another language formats with Intl for its locale: amounts from exact decimal strings (never a
 * double, so a 20-digit amount stays exact), grams, percentages, dates and "20 days ago".
 */
import { formatAud, formatAudExact, formatGrams, formatIsoDate } from "../../zakat/format.js";
import { type Ratio, ratio, roundHalfUp, toDecimalString } from "../../zakat/ratio.js";
import type { Plural } from "../donation/format.js";
import type { CalculatorWords } from "./words/en.js";

export interface CalcFormats {
  words: CalculatorWords;
  /**
   * Whole cents: "$1,234.56" or "1,234.56 دولار أسترالي", its parts joined by no-break spaces so that
   * running text never ends a line between the number and the currency's name, or inside the name.
   */
  money(cents: bigint): string;
  /**
   * Whole cents for the big figure: as money(), but the number may end a line with the currency's
   * name whole on the next ("308,641.97 / دولار أسترالي" on a phone), rather than run off the panel.
   */
  moneyFigure(cents: bigint): string;
  /** Cents that may have fractions of a cent (a price per gram). */
  moneyExact(cents: Ratio): string;
  /** Milligrams as grams: "12.5 g". */
  grams(milligrams: bigint): string;
  /** An exact fraction as a percentage: 1/40 → "2.5%". */
  percent(fraction: Ratio): string;
  /** A plain number in the locale's digits. */
  number(n: number): string;
  /** "2026-11-01" → "1 November 2026". */
  date(iso: string): string;
  /** "today", "20 days ago" (intl only). */
  ago(days: number): string;
  count(phrase: Plural, n: number): string;
  /** One of src/zakat's messages in the page's language. */
  message(english: string): string;
}

/**
 * "{n} fields" with { n: 2 } → "2 fields". The same as the donation form's fill(), kept here so the
 * two islands share no chunk for three lines (a shared chunk cost the donation form 114 B gzip).
 */
export function fill(template: string, values: Record<string, string | number>): string {
  return template.replace(/\{(\w+)\}/g, (whole, name: string) => (name in values ? String(values[name]) : whole));
}

const cache = new Map<CalculatorWords, CalcFormats>();

/** Formats for a dictionary; Intl objects are made on first use (a browser's first one loads locale data). */
export function calcFormatsFor(words: CalculatorWords): CalcFormats {
  const known = cache.get(words);
  if (known) return known;
  type Made = Intl.NumberFormat | Intl.DateTimeFormat | Intl.PluralRules | Intl.RelativeTimeFormat;
  const made: Record<string, Made> = {};
  const once = <T extends Made>(key: string, make: () => T): T => (made[key] ??= make()) as T;
  const num = (key: string, options: Intl.NumberFormatOptions) =>
    once(key, () => new Intl.NumberFormat(words.locale, options));
  // Intl.NumberFormat formats a decimal string exactly (ECMA-402's "intl mathematical value"); a
  // fraction that does not end within `max` places is rounded half up to it first.
  const decimal = (x: Ratio, min: number, max: number): Intl.StringNumericLiteral => {
    const scale = 10n ** BigInt(max);
    return (toDecimalString(x, min, max) ??
      toDecimalString(ratio(roundHalfUp(ratio(x.numerator * scale, x.denominator)), scale), min, max)!) as `${number}`;
  };
  const currency = (max: number) =>
    num(`money${max}`, {
      style: "currency",
      currency: "AUD",
      // The currency by name ("دولار أسترالي"): a symbol such as "AU$" is reordered to "$AU" in right-to-left text.
      currencyDisplay: "name",
      minimumFractionDigits: 2,
      maximumFractionDigits: max,
    });
  // An amount by name is a number and words ("42.69 دولار أسترالي", "85 غرام"): joined by no-break spaces.
  const unbroken = (text: string) => text.replace(/ /g, "\u00a0");
  const intl = words.intl;
  const formats: CalcFormats = {
    words,
    money: (cents) => (intl ? unbroken(currency(2).format(decimal(ratio(cents, 100n), 2, 2))) : formatAud(cents)),
    moneyFigure: (cents) =>
      intl
        ? currency(2)
            .formatToParts(decimal(ratio(cents, 100n), 2, 2))
            .map((part) => (part.type === "currency" ? unbroken(part.value) : part.value))
            .join("")
        : formatAud(cents),
    moneyExact: (cents) =>
      intl
        ? unbroken(currency(6).format(decimal(ratio(cents.numerator, cents.denominator * 100n), 2, 6)))
        : formatAudExact(cents),
    grams: (milligrams) =>
      intl
        ? unbroken(
            num("grams", { style: "unit", unit: "gram", maximumFractionDigits: 3 }).format(
              decimal(ratio(milligrams, 1000n), 0, 3),
            ),
          )
        : formatGrams(milligrams),
    percent: (fraction) =>
      intl
        ? num("percent", { style: "percent", maximumFractionDigits: 6 }).format(decimal(fraction, 0, 8))
        : `${decimal(ratio(fraction.numerator * 100n, fraction.denominator), 0, 6)}%`,
    number: (n) => (intl ? num("number", {}).format(n) : String(n)),
    date: (iso) =>
      intl
        ? once(
            "date",
            () =>
              new Intl.DateTimeFormat(words.locale, {
                day: "numeric",
                month: "long",
                year: "numeric",
                timeZone: "UTC",
              }),
          ).format(new Date(`${iso}T00:00:00Z`))
        : formatIsoDate(iso),
    ago: (days) =>
      days < 0
        ? words.futureDate
        : once("ago", () => new Intl.RelativeTimeFormat(words.locale, { numeric: "auto" })).format(-days, "day"),
    count: (phrase, n) =>
      fill(phrase[once("plural", () => new Intl.PluralRules(words.locale)).select(n)] ?? phrase.other, {
        n: intl ? num("number", {}).format(n) : n,
      }),
    message: (english) => {
      if (!intl) return english;
      const hallmark = /^Carats go from 1 to 24\. For a hallmark number like (.+), choose thousandths instead\.$/.exec(
        english,
      );
      if (hallmark) return fill(words.caratHallmark, { value: hallmark[1]! });
      return words.errors[english] ?? english;
    },
  };
  cache.set(words, formats);
  return formats;
}
