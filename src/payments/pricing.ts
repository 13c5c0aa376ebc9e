/**
 * Prices of quantity gifts (fitr per person, fidyah per day, qurban per animal option). The content
 * is where they live: the page shows them and the payments service charges them (it reads the same
 * content, src/api/fund-rules-source.ts), refusing a request that names another price than its own
 * or one it honoured in the grace period after a change. `contentPriceProblems` says where a
 * page's prices cannot be charged (docs/payments-api.md, "Prices"), for the build.
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
const validPrice = (dollars: unknown): dollars is number =>
  typeof dollars === "number" &&
  Number.isFinite(dollars) &&
  dollars > 0 &&
  Math.abs(dollars * 100 - Math.round(dollars * 100)) < 1e-6;

/** One problem: the content field to change (`unit_amount`, `animal_options[2].option_price`) and why. */
export interface PriceDisagreement {
  field: string;
  message: string;
}

/** Empty group items (Prismic keeps one when an editor clears it) are not options. */
function optionsOf(content: ContentPrices) {
  return (content.options ?? [])
    .map((o, index) => ({ ...o, index }))
    .filter((o) => (o.code ?? "").trim() || (o.label ?? "").trim() || typeof o.price === "number");
}

/**
 * The content is where prices live (docs/payments-api.md, "Prices"): the page shows them and the
 * service charges them. The build checks only that they can be charged: a positive price in dollars
 * and cents, and for an option-priced fund at least one option, each with its own code.
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
  const options = optionsOf(content);
  if (!q.options) {
    if (content.unitAmount !== null && content.unitAmount !== undefined && !validPrice(content.unitAmount))
      add(
        "unit_amount",
        `${fund}: the page's unit_amount is ${String(content.unitAmount)}, not a price above $0 in dollars and cents. Enter the price, like 15 or 15.50.`,
      );
    if (options.length)
      add(
        "animal_options",
        `${fund}: the page lists options, but this fund is priced per unit only. Remove the options.`,
      );
    return problems;
  }
  if (options.length === 0)
    add(
      "animal_options",
      `${fund}: the page lists no options, so nothing can be paid. Add at least one, with a code and a price.`,
    );
  const seen = new Set<string>();
  for (const [i, o] of options.entries()) {
    const code = (o.code ?? "").trim();
    const name = `${fund}: option ${i + 1}${o.label ? ` (${o.label})` : ""}`;
    const at = `animal_options[${o.index}]`;
    if (code === "") add(`${at}.code`, `${name} has no code. Give it a permanent code, like lamb-australia.`);
    else if (seen.has(code)) add(`${at}.code`, `${name} repeats the code "${code}". Each option needs its own code.`);
    if (!validPrice(o.price))
      add(
        `${at}.option_price`,
        `${name} has ${typeof o.price === "number" ? `the price ${o.price}` : "no price"}: enter a price above $0 in dollars and cents.`,
      );
    seen.add(code);
  }
  return problems;
}

/**
 * A fund's rules with the prices its page shows: the unit price (fitr, fidyah) or the options with
 * their labels and prices (qurban). What the content cannot price (a bad entry, refused by the
 * build) keeps the rules' own.
 */
export function rulesWithContentPrices(rules: FundRules, content: ContentPrices): FundRules {
  const q = rules.quantity;
  if (!q) return rules;
  if (!q.options) {
    return validPrice(content.unitAmount)
      ? { ...rules, quantity: { ...q, unitCents: dollarsToCents(content.unitAmount) } }
      : rules;
  }
  const seen = new Set<string>();
  const options: PriceOption[] = [];
  for (const o of optionsOf(content)) {
    const code = (o.code ?? "").trim();
    if (!code || seen.has(code) || !validPrice(o.price)) continue;
    seen.add(code);
    options.push({ code, label: (o.label ?? "").trim() || code, unitCents: dollarsToCents(o.price) });
  }
  if (options.length === 0) return rules;
  return { ...rules, quantity: { ...q, options, unitCents: Math.min(...options.map((o) => o.unitCents)) } };
}
