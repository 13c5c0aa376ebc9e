/**
 * The whole form at once: every field as the donor typed it → ZakatInputs, or every field's error
 * message keyed by the field's name, so the UI can show them all under their fields together.
 */
import { ASSET_CATEGORIES, LIABILITY_CATEGORIES } from "./categories.js";
import { parseAmount, parseGrams, parsePurity } from "./parse-input.js";
import type { AmountAssetId, LiabilityId, Metal, MetalHolding, Purity, YearType, ZakatInputs } from "./types.js";

/** A metal row as typed: by weight (grams + purity in the chosen unit) or by value. */
export type MetalHoldingText =
  | { kind: "weight"; grams: string; purity: string; purityUnit: Purity["unit"] }
  | { kind: "value"; amount: string };

export interface ZakatFormText {
  yearType: YearType;
  assets: Partial<Record<AmountAssetId, string>>;
  gold?: readonly MetalHoldingText[];
  silver?: readonly MetalHoldingText[];
  liabilities: Partial<Record<LiabilityId, string>>;
}

/**
 * Field names in `errors`: the category id ("cash", "debts"), or for metal rows
 * "gold.0.grams", "gold.0.purity", "silver.1.amount".
 */
export type ZakatFormResult = { ok: true; inputs: ZakatInputs } | { ok: false; errors: Record<string, string> };

export function parseZakatForm(form: ZakatFormText): ZakatFormResult {
  const errors: Record<string, string> = {};
  const amount = (field: string, text: string | undefined): bigint => {
    const parsed = parseAmount(text ?? "");
    if (parsed.ok) return parsed.cents;
    errors[field] = parsed.message;
    return 0n;
  };

  const assets: Partial<Record<AmountAssetId, bigint>> = {};
  for (const { id } of ASSET_CATEGORIES) {
    if (id === "gold" || id === "silver") continue;
    assets[id] = amount(id, form.assets[id]);
  }
  const liabilities: Partial<Record<LiabilityId, bigint>> = {};
  for (const { id } of LIABILITY_CATEGORIES) liabilities[id] = amount(id, form.liabilities[id]);

  const metal = (name: Metal): MetalHolding[] =>
    (form[name] ?? []).flatMap((row, index): MetalHolding[] => {
      const prefix = `${name}.${index}`;
      if (row.kind === "value") return [{ kind: "value", cents: amount(`${prefix}.amount`, row.amount) }];
      const grams = parseGrams(row.grams);
      if (!grams.ok) errors[`${prefix}.grams`] = grams.message;
      // An empty row (no weight) needs no purity; a weight without a purity cannot be valued.
      if (grams.ok && grams.milligrams === 0n && row.purity.trim() === "") return [];
      const purity = parsePurity(row.purity, row.purityUnit);
      if (!purity.ok) errors[`${prefix}.purity`] = purity.message;
      return grams.ok && purity.ok ? [{ kind: "weight", milligrams: grams.milligrams, purity: purity.purity }] : [];
    });
  const gold = metal("gold");
  const silver = metal("silver");

  if (Object.keys(errors).length > 0) return { ok: false, errors };
  return { ok: true, inputs: { yearType: form.yearType, assets, gold, silver, liabilities } };
}
