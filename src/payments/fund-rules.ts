/**
 * What each fund accepts: limits, the schedules its page offers, and for fitr, fidyah and qurban the
 * unit price the gift is counted in. The backend holds these; the page may narrow the limits from
 * content (`minimum_amount`, `maximum_amount` on the donation page) but never widen them, so the
 * browser never accepts a gift the backend would refuse.
 */
import type { Frequency, Fund } from "./types.js";

export interface QuantityRule {
  /** Price of one unit in cents. */
  unitCents: number;
  min: number;
  max: number;
  /** Plural noun for messages: "people", "days", "shares". */
  label: string;
}

export interface FundRules {
  minimumCents: number;
  maximumCents: number;
  frequencies: readonly Frequency[];
  quantity?: QuantityRule;
}

/** $10: "The minimum gift is $10." */
export const DEFAULT_MINIMUM_CENTS = 1_000;
/** Card gifts above this go through the office (bank transfer), not the website. */
export const DEFAULT_MAXIMUM_CENTS = 10_000_000;

const base = { minimumCents: DEFAULT_MINIMUM_CENTS, maximumCents: DEFAULT_MAXIMUM_CENTS };

/**
 * Unit prices are placeholders until the foundation confirms this year's figures (the
 * specification does not give them); they live only here, so changing them is one edit.
 */
export const DEFAULT_FUND_RULES: Record<Fund, FundRules> = {
  zakat: { ...base, frequencies: ["once", "monthly"] },
  fitr: { ...base, frequencies: ["once"], quantity: { unitCents: 1_500, min: 1, max: 50, label: "people" } },
  fidyah: { ...base, frequencies: ["once"], quantity: { unitCents: 1_500, min: 1, max: 60, label: "days" } },
  sadaqah: { ...base, frequencies: ["once", "monthly"] },
  qurban: { ...base, frequencies: ["once"], quantity: { unitCents: 20_000, min: 1, max: 20, label: "shares" } },
  ramadan: { ...base, frequencies: ["once", "ramadan-nightly", "ramadan-last-ten"] },
  "dhul-hijjah": { ...base, frequencies: ["once", "dhul-hijjah-ten-days"] },
  "tainted-wealth": { ...base, frequencies: ["once"] },
  "jumuah-giving": { ...base, frequencies: ["once", "weekly-friday"] },
};

/**
 * Narrows a fund's limits with the editor's values from the donation page (in dollars, as Prismic
 * Number fields hold them). Values outside the backend's range are clamped into it.
 */
export function withContentLimits(rules: FundRules, content: { minimumAmount?: number | null; maximumAmount?: number | null }): FundRules {
  const toCents = (dollars: number | null | undefined) =>
    typeof dollars === "number" && Number.isFinite(dollars) && dollars > 0 ? Math.round(dollars * 100) : undefined;
  const min = toCents(content.minimumAmount);
  const max = toCents(content.maximumAmount);
  const minimumCents = Math.min(Math.max(min ?? rules.minimumCents, rules.minimumCents), rules.maximumCents);
  const maximumCents = Math.max(Math.min(max ?? rules.maximumCents, rules.maximumCents), minimumCents);
  return { ...rules, minimumCents, maximumCents };
}
