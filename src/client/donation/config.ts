/**
 * What the donation island is told about each fund: built from the page's content at build time
 * (templates/pages/donation.tsx) on top of the backend's rules (DEFAULT_FUND_RULES, narrowed by
 * withContentLimits), so the form never offers what the payments API would refuse. Plain JSON.
 */
import type { FundRules } from "../../payments/fund-rules.js";
import type { Frequency, Fund, Season } from "../../payments/types.js";
import type { DonationWords } from "./words/en.js";

export interface QuantityOption {
  /**
   * The option's permanent code from the content (`animal_options[].code`): the request names the
   * option by it and the payments API charges its own price for it. An option without one cannot
   * be paid for (the API refuses it), so the build should not publish one.
   */
  code?: string;
  label: string;
  unitCents: number;
}

export interface FundQuantity {
  /** Price of one unit (fitr, fidyah); for qurban the options carry the price. */
  unitCents: number;
  min: number;
  max: number;
  /** Plural, for messages: "people", "days", "animals". */
  label: string;
  /** Singular, for "per person": "person", "day", "animal". */
  unitLabel: string;
  options?: QuantityOption[];
  /** Index of the option the form starts on (the content's `default_option`; 0 without one). */
  defaultOption?: number;
}

export interface FundConfig {
  fund: Fund;
  title: string;
  /** The fund's page, where a failed payment returns to. */
  path: string;
  presets: { amountCents: number; label?: string }[];
  defaultAmountCents?: number;
  minimumCents: number;
  maximumCents: number;
  frequencies: Frequency[];
  quantity?: FundQuantity;
  season?: Season;
  /** Shown beside the form (tainted wealth: purification, not zakat or sadaqah). */
  note?: string;
}

export interface PaymentsConfig {
  apiUrl: string;
  publishableKey: string;
  /** NZF_PAYPAL_CLIENT_ID: PayPal is offered beside cards only when set. */
  paypalClientId?: string;
}

export interface DonationIslandProps {
  /** One fund on /pay/<fund>/; every fund on /pay/, where the donor chooses. */
  funds: FundConfig[];
  /** The path the form lives on: its saved state is kept under it. */
  formPath: string;
  thankYouPath: string;
  /** Null when the build has no payments configuration (the sample site): the island then renders nothing, the page says why. */
  payments: PaymentsConfig | null;
  /** The form's words in the page's language (words/index.ts picks them at build time). */
  words: DonationWords;
}

/** The rules validateDonation checks, with the page's options (qurban) priced as the page shows them. */
export function rulesOf(config: FundConfig): FundRules {
  const rules: FundRules = {
    minimumCents: config.minimumCents,
    maximumCents: config.maximumCents,
    frequencies: config.frequencies,
  };
  const q = config.quantity;
  if (q) {
    rules.quantity = { unitCents: q.unitCents, min: q.min, max: q.max, label: q.label };
    if (q.options?.length)
      rules.quantity.options = q.options.map((o) => ({ code: o.code ?? "", label: o.label, unitCents: o.unitCents }));
  }
  return rules;
}

/** The option the donor chose (by its index in the form), or the first. */
export function chosenOption(config: FundConfig, optionIndex: string): QuantityOption | undefined {
  const options = config.quantity?.options;
  return options?.[Number(optionIndex)] ?? options?.[0];
}
