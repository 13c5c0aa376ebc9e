/**
 * Prices of quantity gifts (fitr per person, fidyah per day, qurban per animal option). The backend
 * is the authority: it charges its own price and refuses a request that names another one. The page
 * content repeats the prices for display, so they must agree; `contentPriceProblems` says where
 * they do not (docs/payments-api.md, "Prices"), for the build and for tests of the content.
 */
import type { FundRules, PriceOption, QuantityRule } from "./fund-rules.js";
import { formatDollars } from "./money.js";
import type { DonationRequest, FieldError, Fund } from "./types.js";

export const PRICE_MESSAGES = {
  optionRequired: "Choose one of the options shown.",
  optionUnknown: "That option is no longer offered. Please reload the page and choose again.",
  optionNotOffered: "This fund has no options to choose from: send quantity without optionId.",
  priceChanged: (option: PriceOption | undefined, priceCents: number, sentCents: number) =>
    `The price${option ? ` of ${option.label}` : ""} is ${formatDollars(priceCents)}, not ${formatDollars(sentCents)}. Please reload the page to see the current prices, then try again.`,
  amountNotCountTimesPrice: (count: number, unitCents: number) =>
    `The amount must be the number times the price: ${count} × ${formatDollars(unitCents)} = ${formatDollars(count * unitCents)}.`,
} as const;

const err = (field: string, code: string, message: string): FieldError => ({ field, code, message });

export type Price = { unitCents: number; option?: PriceOption };

/**
 * The unit price a quantity gift is counted at: the fund's own, or for an option-priced fund the
 * named option's, from these rules (in the backend, its own list). Null after pushing an error.
 */
export function priceFor(q: QuantityRule, optionId: unknown, errors: FieldError[]): Price | null {
  if (!q.options) {
    if (optionId === undefined || optionId === "") return { unitCents: q.unitCents };
    errors.push(err("quantity.optionId", "not_allowed", PRICE_MESSAGES.optionNotOffered));
    return null;
  }
  if (typeof optionId !== "string" || optionId.trim() === "") {
    errors.push(err("quantity.optionId", "required", PRICE_MESSAGES.optionRequired));
    return null;
  }
  const option = q.options.find((o) => o.code === optionId);
  if (!option) {
    errors.push(err("quantity.optionId", "not_allowed", PRICE_MESSAGES.optionUnknown));
    return null;
  }
  return { unitCents: option.unitCents, option };
}

export const quantityOf = (count: number, price: Price): NonNullable<DonationRequest["quantity"]> => ({
  count,
  unitCents: price.unitCents,
  ...(price.option ? { optionId: price.option.code } : {}),
});

/** A donation page's prices as the editors entered them (Prismic Number fields hold dollars). */
export interface ContentPrices {
  /** `unit_amount` (fitr, fidyah). */
  unitAmount?: number | null;
  /** `animal_options` (qurban): `code`, `option_label`, `option_price`. */
  options?: { code?: string | null; label?: string | null; price?: number | null }[];
}

const dollarsToCents = (dollars: number) => Math.round(dollars * 100);

/** One disagreement: the content field to change (`unit_amount`, `animal_options[2].option_price`) and why. */
export interface PriceDisagreement {
  field: string;
  message: string;
}

/**
 * Every way the page's prices disagree with the payments API's, as sentences naming the fund and
 * what to change. Empty when they agree. Content may offer fewer options than the API prices, never
 * other ones or other prices: a donor must be charged what the page showed.
 */
export function contentPriceProblems(fund: Fund, rules: FundRules, content: ContentPrices): string[] {
  return contentPriceDisagreements(fund, rules, content).map((p) => p.message);
}

/** As `contentPriceProblems`, each with the field it is about (option indexes count every group item, as Prismic shows them). */
export function contentPriceDisagreements(fund: Fund, rules: FundRules, content: ContentPrices): PriceDisagreement[] {
  const q = rules.quantity;
  if (!q) return [];
  const problems: PriceDisagreement[] = [];
  const add = (field: string, message: string) => problems.push({ field, message });
  // Empty group items (Prismic keeps one when an editor clears it) are not options.
  const options = (content.options ?? [])
    .map((o, index) => ({ ...o, index }))
    .filter((o) => (o.code ?? "").trim() || (o.label ?? "").trim() || typeof o.price === "number");
  if (!q.options) {
    if (typeof content.unitAmount === "number" && dollarsToCents(content.unitAmount) !== q.unitCents) {
      add(
        "unit_amount",
        `${fund}: the page's unit_amount is ${formatDollars(dollarsToCents(content.unitAmount))} but the payments API charges ${formatDollars(q.unitCents)}. Change the page or the API's price so they match.`,
      );
    }
    if (options.length)
      add(
        "animal_options",
        `${fund}: the page lists options, but the payments API prices this fund per unit only. Remove the options.`,
      );
    return problems;
  }
  const known = q.options.map((o) => o.code).join(", ");
  if (options.length === 0)
    add("animal_options", `${fund}: the page lists no options, so nothing can be paid. Add at least one of: ${known}.`);
  const seen = new Set<string>();
  for (const [i, o] of options.entries()) {
    const code = (o.code ?? "").trim();
    const name = `${fund}: option ${i + 1}${o.label ? ` (${o.label})` : ""}`;
    const at = `animal_options[${o.index}]`;
    const backend = q.options.find((b) => b.code === code);
    if (code === "")
      add(`${at}.code`, `${name} has no code. Enter the code the payments API knows it by: one of ${known}.`);
    else if (seen.has(code)) add(`${at}.code`, `${name} repeats the code "${code}". Each option needs its own code.`);
    else if (!backend)
      add(
        `${at}.code`,
        `${name} has the code "${code}", which the payments API does not price. Use one of ${known}, or add it to the API first.`,
      );
    else if (typeof o.price !== "number" || dollarsToCents(o.price) !== backend.unitCents) {
      const shown = typeof o.price === "number" ? formatDollars(dollarsToCents(o.price)) : "no price";
      add(
        `${at}.option_price`,
        `${name} shows ${shown} but the payments API charges ${formatDollars(backend.unitCents)} for "${code}". Change the page or the API's price so they match.`,
      );
    }
    seen.add(code);
  }
  return problems;
}
