/**
 * What each fund accepts: limits, the schedules its page offers, and for fitr, fidyah and qurban the
 * price the gift is counted in (one unit price, or for qurban a price per animal option). The backend holds these; the page may narrow the limits from
 * content (`minimum_amount`, `maximum_amount` on the donation page) but never widen them, so the
 * browser never accepts a gift the backend would refuse.
 */
import type { Frequency, Fund } from "./types.js";

/** One priced choice of an option-priced fund (a qurban animal). */
export interface PriceOption {
  /** Permanent id, the `code` of the option in the page content: the request names the option by it. */
  code: string;
  /** For messages ("The price of Lamb (in Australia) is $450."); the page shows the content's label. */
  label: string;
  unitCents: number;
}

export interface QuantityRule {
  /**
   * Price of one unit in cents. For an option-priced fund (with `options`) this is only the lowest
   * price, for "from $110" wording: the gift is priced by the chosen option.
   */
  unitCents: number;
  /** Option-priced funds: the donor chooses one; the request must name it by `code`. */
  options?: readonly PriceOption[];
  min: number;
  max: number;
  /** Plural noun for messages: "people", "days", "animals". */
  label: string;
}

export interface FundRules {
  minimumCents: number;
  maximumCents: number;
  frequencies: readonly Frequency[];
  quantity?: QuantityRule;
  /**
   * Whether gifts to the fund are tax-deductible: the one setting the donation page, the receipt
   * and the donor's account all read (absent: not deductible; never claim what is not set).
   */
  taxDeductible?: boolean;
}

/** $10: "The minimum gift is $10." */
export const DEFAULT_MINIMUM_CENTS = 1_000;
/** Card gifts above this go through the office (bank transfer), not the website. */
export const DEFAULT_MAXIMUM_CENTS = 10_000_000;

const base = { minimumCents: DEFAULT_MINIMUM_CENTS, maximumCents: DEFAULT_MAXIMUM_CENTS };

/**
 * The qurban animals the backend prices. The content's `animal_options` must list the same codes at
 * the same prices (docs/payments-api.md, "Prices"; checked by `contentPriceProblems`).
 */
export const QURBAN_OPTIONS: readonly PriceOption[] = [
  { code: "cow-share-overseas", label: "One-seventh share of a cow (overseas)", unitCents: 11_000 },
  { code: "goat-overseas", label: "Goat (overseas)", unitCents: 15_000 },
  { code: "lamb-australia", label: "Lamb (in Australia)", unitCents: 45_000 },
];

/**
 * Prices are placeholders until the foundation confirms this year's figures; they live only
 * here, so changing them is one edit, and the sample content
 * carries the same figures.
 */
// Tax-deductibility (`taxDeductible`): the content says zakat is not deductible (the zakat page and
// the FAQ), nor tainted-wealth purification; qurban buys an animal sacrificed for the donor, a
// benefit in return. The other funds are gifts: a placeholder the foundation must confirm with its
// accountant, changed here only, and the page, the receipt and the account follow.
export const DEFAULT_FUND_RULES: Record<Fund, FundRules> = {
  // Zakat is a yearly due: paid at once or split into monthly instalments that end when it is paid,
  // never an open-ended monthly charge of the whole amount.
  zakat: { ...base, frequencies: ["once", "monthly-instalments"], taxDeductible: false },
  fitr: {
    ...base,
    frequencies: ["once"],
    quantity: { unitCents: 1_500, min: 1, max: 50, label: "people" },
    taxDeductible: true,
  },
  fidyah: {
    ...base,
    frequencies: ["once"],
    quantity: { unitCents: 1_500, min: 1, max: 60, label: "days" },
    taxDeductible: true,
  },
  sadaqah: { ...base, frequencies: ["once", "monthly"], taxDeductible: true },
  qurban: {
    ...base,
    taxDeductible: false,
    frequencies: ["once"],
    quantity: {
      unitCents: Math.min(...QURBAN_OPTIONS.map((o) => o.unitCents)),
      options: QURBAN_OPTIONS,
      min: 1,
      max: 20,
      label: "animals",
    },
  },
  ramadan: { ...base, frequencies: ["once", "ramadan-nightly", "ramadan-last-ten"], taxDeductible: true },
  "dhul-hijjah": { ...base, frequencies: ["once", "dhul-hijjah-ten-days"], taxDeductible: true },
  "tainted-wealth": { ...base, frequencies: ["once"], taxDeductible: false },
  "jumuah-giving": { ...base, frequencies: ["once", "weekly-friday"], taxDeductible: true },
};

/** Whether gifts to `fund` are tax-deductible: the one setting (page, receipt, account). */
export function isTaxDeductible(fund: string, rules: Partial<Record<string, FundRules>> = DEFAULT_FUND_RULES): boolean {
  return rules[fund]?.taxDeductible === true;
}

/**
 * Narrows a fund's limits with the editor's values from the donation page (in dollars, as Prismic
 * Number fields hold them). Values outside the backend's range are clamped into it.
 */
export function withContentLimits(
  rules: FundRules,
  content: { minimumAmount?: number | null; maximumAmount?: number | null },
): FundRules {
  const toCents = (dollars: number | null | undefined) =>
    typeof dollars === "number" && Number.isFinite(dollars) && dollars > 0 ? Math.round(dollars * 100) : undefined;
  const min = toCents(content.minimumAmount);
  const max = toCents(content.maximumAmount);
  const minimumCents = Math.min(Math.max(min ?? rules.minimumCents, rules.minimumCents), rules.maximumCents);
  const maximumCents = Math.max(Math.min(max ?? rules.maximumCents, rules.maximumCents), minimumCents);
  return { ...rules, minimumCents, maximumCents };
}
