/**
 * Amounts, dates and messages in the page's language, from its dictionary (words/). English keeps
 * the validator's own formatting ("$1,250.00") and messages; another language formats with Intl for
 * its locale and finds each validator message by its error code.
 */
import { formatDollars, formatDollarsAndCents } from "../../payments/money.js";
import type { FieldError } from "../../payments/types.js";
import type { DonationWords, FailureKind } from "./words/en.js";

/** "{n} payments of {amount}" with { n: 12, amount: "$40.75" } → "12 payments of $40.75". */
export function fill(template: string, values: Record<string, string | number>): string {
  return template.replace(/\{(\w+)\}/g, (whole, name: string) => (name in values ? String(values[name]) : whole));
}

/**
 * A phrase with a count, one form per plural category of the language (Intl.PluralRules): English
 * needs `one` and `other`; Arabic also `zero`, `two`, `few` ("3 دفعات") and `many` ("12 دفعة").
 * `{n}` is the count, in the locale's digits (Intl.NumberFormat).
 */
export type Plural = { other: string } & Partial<Record<Exclude<Intl.LDMLPluralRule, "other">, string>>;

/** What formatting needs from a dictionary (the thank-you page's has these too). */
export type FormatWords = Pick<DonationWords, "locale" | "intlMoney" | "instalmentsEqual" | "instalmentsUneven">;

export interface Formats<W extends FormatWords = DonationWords> {
  words: W;
  /** "$1,250.00" (always with cents). */
  money(cents: number): string;
  /** "$1,250" or "$12.50": cents only when there are some. */
  dollars(cents: number): string;
  /** "Tue, 24 Nov 2026". */
  date(iso: string): string;
  /** "24 Nov 2026". */
  shortDate(iso: string): string;
  /** The phrase for `n` in its plural form, filled: ({one: "{n} payment", other: "{n} payments"}, 12) → "12 payments". */
  count(phrase: Plural, n: number, values?: Record<string, string | number>): string;
}

const cache = new Map<FormatWords, Formats<FormatWords>>();

/**
 * The formats for a dictionary. Intl formats are made on first use, not up front: a browser's first
 * DateTimeFormat loads its locale and time-zone data, a long task if it ran while the page loads.
 */
export function formatsFor<W extends FormatWords>(words: W): Formats<W> {
  const known = cache.get(words);
  if (known) return known as Formats<W>;
  type Made = Intl.DateTimeFormat | Intl.NumberFormat | Intl.PluralRules;
  const made: Record<string, Made> = {};
  const once = <T extends Made>(key: string, make: () => T): T => (made[key] ??= make()) as T;
  const utc = (iso: string) => new Date(`${iso}T00:00:00Z`);
  const currency = (digits: number) =>
    once(
      `money${digits}`,
      () =>
        new Intl.NumberFormat(words.locale, {
          style: "currency",
          currency: "AUD",
          // The currency by name ("دولار أسترالي"): a symbol such as "AU$" is reordered to "$AU" in right-to-left text.
          currencyDisplay: "name",
          minimumFractionDigits: digits,
          maximumFractionDigits: 2,
        }),
    );
  // An amount by name is a number and words ("42.69 دولار أسترالي"): joined by no-break spaces, a line
  // of running text never ends between the number and the currency's name, or inside the name.
  const unbroken = (amount: string) => amount.replace(/ /g, "\u00a0");
  const formats: Formats<W> = {
    words,
    money: (cents) => (words.intlMoney ? unbroken(currency(2).format(cents / 100)) : formatDollarsAndCents(cents)),
    dollars: (cents) =>
      words.intlMoney ? unbroken(currency(cents % 100 === 0 ? 0 : 2).format(cents / 100)) : formatDollars(cents),
    date: (iso) =>
      once(
        "date",
        () =>
          new Intl.DateTimeFormat(words.locale, {
            weekday: "short",
            day: "numeric",
            month: "short",
            year: "numeric",
            timeZone: "UTC",
          }),
      ).format(utc(iso)),
    shortDate: (iso) =>
      once(
        "short",
        () =>
          new Intl.DateTimeFormat(words.locale, { day: "numeric", month: "short", year: "numeric", timeZone: "UTC" }),
      ).format(utc(iso)),
    count: (phrase, n, values) =>
      fill(phrase[once("plural", () => new Intl.PluralRules(words.locale)).select(n)] ?? phrase.other, {
        ...values,
        n: once("number", () => new Intl.NumberFormat(words.locale)).format(n),
      }),
  };
  cache.set(words, formats);
  return formats;
}

/** Values a translated validator message may name. */
export interface MessageValues {
  minimumCents: number;
  maximumCents: number;
  units?: string;
  qmin?: number;
  qmax?: number;
}

/** A validator error in the page's language: by "field:code", then by code, else the validator's own (English). */
export function messageOf(error: FieldError, f: Formats, values: MessageValues): string {
  const { errors } = f.words;
  const template = errors[`${error.field}:${error.code}`] ?? errors[error.code];
  if (template === undefined) return error.message;
  return fill(template, {
    min: f.dollars(values.minimumCents),
    max: f.dollars(values.maximumCents),
    units: values.units ?? "",
    qmin: values.qmin ?? "",
    qmax: values.qmax ?? "",
  });
}

/** A failure's message in the page's language, or the one it came with (English). */
export function failureOf(kind: FailureKind | undefined, f: Formats, english: string): string {
  return (kind && f.words.failures[kind]) || english;
}
