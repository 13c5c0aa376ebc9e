/**
 * Editor-set calculator settings: read from the calculate_page document, validated once at build
 * time (a bad price fails the build with the field named, rather than showing donors a wrong
 * nisab), and turned into exact numbers for the calculation.
 *
 * Prices are per gram of PURE metal (24 carat gold, 999 silver) in AUD, as bullion prices are
 * quoted; an item's purity is applied to its weight, never to the price.
 */
import type { DateField, NumberField, RichTextField, SelectField } from "@prismicio/client";
import { NzfError } from "../core/coded-error.js";
import { type Ratio, compare, mul, parseDecimal, ratio, ZERO } from "./ratio.js";
import type { HelpKey, NisabBasis, YearType, ZakatSettings } from "./types.js";

/** Nisab weights: 595 g of silver (the Australian Fatwa Council's recommendation, the default) or 85 g of gold. */
export const NISAB_GRAMS: Record<NisabBasis, number> = { silver: 595, gold: 85 };
/** 2.5% for a lunar year; 2.577% for a solar year (2.5% × 365.25 / 354.37, the longer year). */
export const DEFAULT_RATE_PERCENT: Record<YearType, string> = { lunar: "2.5", solar: "2.577" };
export const DEFAULT_SHARE_PROXY_PERCENT = "30";
export const HELP_KEYS: readonly HelpKey[] = [
  "cash",
  "gold_silver",
  "shares",
  "receivables",
  "business",
  "property",
  "crypto",
  "super",
  "other",
  "liabilities",
];

/** The calculate_page fields this module reads (a subset of the generated document data type). */
export interface CalculatePageData {
  nisab_basis?: SelectField<"silver" | "gold">;
  silver_price_per_gram?: NumberField;
  gold_price_per_gram?: NumberField;
  prices_as_at?: DateField;
  long_term_share_proxy?: NumberField;
  lunar_rate_percent?: NumberField;
  solar_rate_percent?: NumberField;
  [help: `help_${string}`]: RichTextField | undefined;
}

/** A JS number as an exact plain decimal string ("1.55"), or undefined for NaN, ±Infinity, or exponent forms. */
function numberToDecimal(value: number): string | undefined {
  if (!Number.isFinite(value)) return undefined;
  const text = String(value); // shortest round-trip form: exactly what the editor typed for ordinary prices
  return /e/i.test(text) ? undefined : text;
}

export function isIsoDate(text: string): boolean {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text);
  if (!match) return false;
  const [year, month, day] = match.slice(1).map(Number) as [number, number, number];
  const date = new Date(Date.UTC(year, month - 1, day));
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}

/**
 * Reads and validates the calculate_page document's data. Collects every problem and throws one
 * DOCUMENT_INVALID error listing them all, so an editor fixes the document in one go.
 */
export function settingsFromPrismic(data: CalculatePageData, subject = "calculate_page"): ZakatSettings {
  const problems: string[] = [];

  const basis = data.nisab_basis ?? "silver";
  if (basis !== "silver" && basis !== "gold") problems.push(`nisab_basis is "${String(basis)}"; choose silver or gold`);

  const price = (field: "silver_price_per_gram" | "gold_price_per_gram", metal: string): string => {
    const value = data[field];
    if (value === null || value === undefined) {
      problems.push(`${field} is empty; enter the AUD price of one gram of pure ${metal}, like 1.55`);
      return "0";
    }
    const text = typeof value === "number" ? numberToDecimal(value) : undefined;
    if (text === undefined || compare(parseDecimal(text)!, ZERO) <= 0) {
      problems.push(
        `${field} is ${String(value)}; it must be a positive AUD price per gram of pure ${metal}, like 1.55`,
      );
      return "0";
    }
    return text;
  };
  const silverPricePerGram = price("silver_price_per_gram", "silver");
  const goldPricePerGram = price("gold_price_per_gram", "gold");

  const pricesAsAt = data.prices_as_at ?? "";
  if (!isIsoDate(pricesAsAt)) {
    problems.push(
      pricesAsAt === ""
        ? "prices_as_at is empty; enter the date the gold and silver prices were taken"
        : `prices_as_at "${pricesAsAt}" is not a date`,
    );
  }

  let longTermShareProxyPercent = DEFAULT_SHARE_PROXY_PERCENT;
  const proxy = data.long_term_share_proxy;
  if (proxy !== null && proxy !== undefined) {
    const text = typeof proxy === "number" ? numberToDecimal(proxy) : undefined;
    if (text === undefined || proxy < 0 || proxy > 100) {
      problems.push(`long_term_share_proxy is ${String(proxy)}; it must be a percentage from 0 to 100, like 30`);
    } else {
      longTermShareProxyPercent = text;
    }
  }

  // The rates are editor-set so a change of scholarly guidance needs no release; empty means the default.
  const ratePercent = { ...DEFAULT_RATE_PERCENT };
  for (const [yearType, field] of [
    ["lunar", "lunar_rate_percent"],
    ["solar", "solar_rate_percent"],
  ] as const) {
    const value = data[field];
    if (value === null || value === undefined) continue;
    const text = typeof value === "number" ? numberToDecimal(value) : undefined;
    if (text === undefined || value <= 0 || value > 10) {
      problems.push(
        `${field} is ${String(value)}; it must be a percentage above 0 and at most 10, like ${DEFAULT_RATE_PERCENT[yearType]}`,
      );
    } else {
      ratePercent[yearType] = text;
    }
  }

  if (problems.length > 0) {
    throw new NzfError("DOCUMENT_INVALID", `The calculator settings are invalid: ${problems.join("; ")}.`, {
      subject,
      hint: "Fix these fields of the Calculate page in Prismic and publish it, then build again.",
    });
  }

  const help = Object.fromEntries(HELP_KEYS.map((key) => [key, nonEmptyRichText(data[`help_${key}`])])) as Record<
    HelpKey,
    RichTextField | null
  >;
  return {
    nisabBasis: basis,
    silverPricePerGram,
    goldPricePerGram,
    pricesAsAt,
    longTermShareProxyPercent,
    ratePercent,
    help,
  };
}

/** Prismic sends an empty rich text field as [] (or a single empty paragraph); treat both as "not set". */
function nonEmptyRichText(field: RichTextField | undefined): RichTextField | null {
  if (!Array.isArray(field) || field.length === 0) return null;
  const allEmpty = field.every((node) => "text" in node && typeof node.text === "string" && node.text.trim() === "");
  return allEmpty ? null : field;
}

/** Settings as exact numbers. */
export interface ExactSettings {
  pricePerGramCents: Record<NisabBasis, Ratio>;
  shareProxy: Ratio;
  rate: Record<YearType, { ratio: Ratio; numerator: bigint; denominator: bigint; percentText: string }>;
}

/**
 * Converts settings to exact values, re-checking them: settings may come from somewhere other than
 * settingsFromPrismic (island props, a test), and a wrong price must never reach a donor silently.
 */
export function exactSettings(settings: ZakatSettings): ExactSettings {
  const bad = (what: string, value: string): never => {
    throw new NzfError("DOCUMENT_INVALID", `The calculator setting ${what} is "${value}", which is not usable.`, {
      subject: "calculate_page",
    });
  };
  const positive = (what: string, value: string): Ratio => {
    const r = parseDecimal(value);
    return r && compare(r, ZERO) > 0 ? r : bad(what, value);
  };
  const dollarsToCents = (dollars: Ratio): Ratio => mul(dollars, ratio(100n));
  const proxy = parseDecimal(settings.longTermShareProxyPercent);
  if (!proxy || compare(proxy, ZERO) < 0 || compare(proxy, ratio(100n)) > 0) {
    return bad("longTermShareProxyPercent", settings.longTermShareProxyPercent);
  }
  if (!isIsoDate(settings.pricesAsAt)) bad("pricesAsAt", settings.pricesAsAt);
  const rate = (yearType: YearType) => {
    const text = settings.ratePercent[yearType];
    const percent = positive(`ratePercent.${yearType}`, text);
    // Report the fraction as written (2.5% = 25/1000) rather than reduced (1/40): it reads better.
    const [whole, fraction = ""] = text.replace(/^-/, "").split(".");
    const numerator = BigInt((whole || "0") + fraction);
    const denominator = 100n * 10n ** BigInt(fraction.length);
    return { ratio: mul(percent, ratio(1n, 100n)), numerator, denominator, percentText: `${text}%` };
  };
  return {
    pricePerGramCents: {
      silver: dollarsToCents(positive("silverPricePerGram", settings.silverPricePerGram)),
      gold: dollarsToCents(positive("goldPricePerGram", settings.goldPricePerGram)),
    },
    shareProxy: mul(proxy, ratio(1n, 100n)),
    rate: { lunar: rate("lunar"), solar: rate("solar") },
  };
}
