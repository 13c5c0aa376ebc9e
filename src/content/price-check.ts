/**
 * The prices editors type on the per-person, per-day and per-animal donation pages (fitr, fidyah,
 * qurban) are the prices: the page shows them and the payments service charges them
 * (docs/payments-api.md, "Prices"). The build checks only that they can be charged (positive,
 * dollars and cents, each qurban option with its own code) and stops otherwise: every problem of
 * every document is collected first, so one run names all the fields to fix.
 *
 * Pure and run where the build is planned (src/render/content-plan.ts), so a render worker planning
 * the build refuses the same content.
 */
import type { PrismicDocument } from "@prismicio/client";
import { NzfAggregateError, NzfError } from "../core/errors.js";
import { DEFAULT_FUND_RULES, type FundRules } from "../payments/fund-rules.js";
import { contentPriceDisagreements, type ContentPrices } from "../payments/pricing.js";
import { FUNDS, type Fund } from "../payments/types.js";

const fundOf = (type: string): Fund | undefined => FUNDS.find((f) => f === type.replace(/_/g, "-"));

const numberOrNull = (value: unknown) => (typeof value === "number" && Number.isFinite(value) ? value : null);
const textOrNull = (value: unknown) => (typeof value === "string" ? value : null);

/** The page's prices, read from the fields the donation template shows (templates/pages/donation.tsx). */
export function contentPricesOf(data: Record<string, unknown>): ContentPrices {
  const items = Array.isArray(data.animal_options) ? (data.animal_options as unknown[]) : [];
  return {
    unitAmount: numberOrNull(data.unit_amount),
    options: items.map((item) => {
      const o = item && typeof item === "object" ? (item as Record<string, unknown>) : {};
      return { code: textOrNull(o.code), label: textOrNull(o.option_label), price: numberOrNull(o.option_price) };
    }),
  };
}

/** Each disagreement as an error naming the document, its field and both prices. */
export function contentPriceErrors(
  documents: readonly PrismicDocument[],
  rules: Record<Fund, FundRules> = DEFAULT_FUND_RULES,
): NzfError[] {
  const errors: NzfError[] = [];
  for (const doc of documents) {
    const fund = fundOf(doc.type);
    if (!fund || !rules[fund].quantity) continue;
    for (const { field, message } of contentPriceDisagreements(
      fund,
      rules[fund],
      contentPricesOf((doc.data ?? {}) as Record<string, unknown>),
    )) {
      errors.push(
        new NzfError(
          "CONTENT_PRICE_INVALID",
          `Document ${doc.id} (${doc.type}, ${doc.lang}), field ${field}: ${message}`,
          { subject: doc.id },
        ),
      );
    }
  }
  return errors;
}

/** Throws when any donation page's prices cannot be charged: all of them at once. */
export function checkContentPrices(documents: readonly PrismicDocument[], rules?: Record<Fund, FundRules>): void {
  const errors = contentPriceErrors(documents, rules);
  if (errors.length === 1) throw errors[0]!;
  if (errors.length > 1) throw new NzfAggregateError("donation page price", errors);
}
