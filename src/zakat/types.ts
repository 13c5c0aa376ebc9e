/**
 * The calculator's public types. Documented field by field in README.md; keep the two in step.
 *
 * Amounts are whole cents as `bigint` (exact at any size; a `number` loses cents above
 * 2^53 = 9,007,199,254,740,992). Weights are whole milligrams as `bigint` (grams to 3 decimals).
 * Settings are plain JSON (strings and numbers) because the build serialises them into the page as
 * island props, and JSON has no bigint.
 */
import type { RichTextField } from "@prismicio/client";
import type { Ratio } from "./ratio.js";

export type NisabBasis = "silver" | "gold";
export type YearType = "lunar" | "solar";
export type Metal = "gold" | "silver";

/** Purity in the unit the donor chose: 18 carat = 18/24 pure; 916 thousandths = 916/1000 pure. */
export type Purity = { unit: "carat"; value: number } | { unit: "thousandths"; value: number };

/** One gold or silver holding: weighed (grams and purity), or valued by the donor directly. */
export type MetalHolding = { kind: "weight"; milligrams: bigint; purity: Purity } | { kind: "value"; cents: bigint };

/** Asset categories with a single amount, in the order the calculator shows them. */
export type AmountAssetId =
  | "cash"
  | "sharesTrading"
  | "sharesLongTerm"
  | "receivables"
  | "businessCash"
  | "businessStock"
  | "businessReceivables"
  | "propertyForResale"
  | "crypto"
  | "superVoluntary"
  | "other";

export type LiabilityId = "debts" | "billsAndTax" | "wagesOwed" | "loanInstalments";

export type LineId = AmountAssetId | Metal | LiabilityId;

/** What the donor entered, already parsed (see parseZakatForm for the text → inputs step). */
export interface ZakatInputs {
  /** The donor's zakat year: lunar (Hijri, 2.5%) or solar (Gregorian, 2.577%). */
  yearType: YearType;
  /** Whole cents per category; a missing category is zero. */
  assets: Partial<Record<AmountAssetId, bigint>>;
  gold?: readonly MetalHolding[];
  silver?: readonly MetalHolding[];
  /** Whole cents of liabilities due now; a missing category is zero. */
  liabilities: Partial<Record<LiabilityId, bigint>>;
}

/** Editor-set settings (from the calculate_page document), JSON-serialisable. */
export interface ZakatSettings {
  nisabBasis: NisabBasis;
  /** AUD per gram of pure (999) silver, as a plain decimal string: "1.55". */
  silverPricePerGram: string;
  /** AUD per gram of pure (24 carat) gold, as a plain decimal string: "160.20". */
  goldPricePerGram: string;
  /** The date the prices were taken, ISO "YYYY-MM-DD". */
  pricesAsAt: string;
  /** Percent of long-term shares' market value that is zakatable, as a decimal string: "30". */
  longTermShareProxyPercent: string;
  /** Zakat rates in percent, decimal strings: lunar "2.5", solar "2.577". */
  ratePercent: Record<YearType, string>;
  /** Per-category help text from Prismic (null when the editor left it empty). */
  help: Record<HelpKey, RichTextField | null>;
}

export type HelpKey =
  | "cash"
  | "gold_silver"
  | "shares"
  | "receivables"
  | "business"
  | "property"
  | "crypto"
  | "super"
  | "other"
  | "liabilities";

/** One row of the explanation. */
export interface ZakatLine {
  id: LineId;
  kind: "asset" | "liability";
  label: string;
  /** How the figure was reached, e.g. "12.5 g of 18 carat gold at $160.00 per gram of pure gold". */
  detail?: string;
  /** The market value (or amount owed), exact. */
  valueExact: Ratio;
  /** The market value rounded half up to the cent, for display only. */
  valueCents: bigint;
  /** The part that counts: the value, or the share proxy of it for long-term shares. Exact. */
  zakatableExact: Ratio;
  /** zakatableExact rounded half up to the cent, for display only. */
  zakatableCents: bigint;
}

export interface ZakatResult {
  nisab: {
    basis: NisabBasis;
    /** 595 for silver, 85 for gold. */
    grams: number;
    /** The editor's price per gram of pure metal, exact, in cents (may have fractions of a cent). */
    pricePerGramCents: Ratio;
    pricePerGramText: string;
    /** grams × price, exact. */
    valueExact: Ratio;
    /** valueExact rounded half up, for display. */
    valueCents: bigint;
    pricesAsAt: string;
  };
  /** Sum of the zakatable parts of all assets, rounded half up once (the sum itself is exact). */
  totalAssetsCents: bigint;
  totalAssetsExact: Ratio;
  totalLiabilitiesCents: bigint;
  /** Assets minus liabilities, can be negative; totalAssetsCents - totalLiabilitiesCents exactly. */
  netCents: bigint;
  netExact: Ratio;
  /** True when the exact net is at or above the exact nisab. */
  aboveNisab: boolean;
  rate: {
    yearType: YearType;
    /** The rate as the fraction the editor's percent denotes: 2.5% = 25/1000, 2.577% = 2577/100000. */
    numerator: bigint;
    denominator: bigint;
    percentText: string;
  };
  /** rate × net when aboveNisab (else 0), rounded half up to the cent, once. */
  dueCents: bigint;
  /** Non-zero categories, assets then liabilities, in the calculator's order. */
  lines: ZakatLine[];
  /** Ready-to-show strings for the totals ("$1,234.56"). */
  text: { nisab: string; totalAssets: string; totalLiabilities: string; net: string; due: string };
}
