/**
 * Each section's total as shown in its heading. A section with a field in error shows that its
 * total is pending (still being typed) or needs checking (its message is showing), never the figure
 * from before the error; the other sections' totals are worked out from their own fields, with the
 * fields in error left out, so a mistake in one section does not freeze the others.
 */
import { calculateZakat } from "../../zakat/calculate.js";
import { parseZakatForm } from "../../zakat/form.js";
import type { ZakatResult, ZakatSettings } from "../../zakat/types.js";
import { type CalcForm, emptyRow, toFormText } from "./form-state.js";
import { GROUPS, groupOfLine } from "./groups.js";
import type { AmountAssetId, LiabilityId } from "../../zakat/types.js";

export type SectionTotal =
  | { state: "total"; cents: bigint }
  | { state: "pending" }
  | { state: "check" }
  | { state: "none" };

/** The section an error key belongs to: "cash" → "cash", "gold.0.grams" → "metals". */
export function groupOfErrorKey(key: string): string {
  if (key.startsWith("gold.") || key.startsWith("silver.")) return "metals";
  return GROUPS.find((g) => g.fields.includes(key as AmountAssetId | LiabilityId))?.id ?? "other";
}

/** The form with every field in error emptied (a metal item with any field in error left out). */
function withoutErrors(form: CalcForm, errorKeys: string[]): CalcForm {
  const amounts = { ...form.amounts };
  for (const key of errorKeys) if (!key.includes(".")) delete amounts[key as AmountAssetId | LiabilityId];
  const rows = (metal: "gold" | "silver") =>
    form[metal].map((row, i) => (errorKeys.some((k) => k.startsWith(`${metal}.${i}.`)) ? emptyRow() : row));
  return { ...form, amounts, gold: rows("gold"), silver: rows("silver") };
}

function totalsFrom(result: ZakatResult): Map<string, bigint> {
  const totals = new Map<string, bigint>();
  for (const line of result.lines)
    totals.set(groupOfLine(line.id), (totals.get(groupOfLine(line.id)) ?? 0n) + line.valueCents);
  return totals;
}

/**
 * Totals per section id. `result` is the calculation of the whole form when it parsed; `errors`
 * and `shown` are the parser's messages and those the donor has been shown.
 */
export function sectionTotals(
  form: CalcForm,
  result: ZakatResult | null,
  errors: Record<string, string>,
  shown: ReadonlySet<string>,
  settings: ZakatSettings,
): Map<string, SectionTotal> {
  const errorKeys = Object.keys(errors);
  let figures: Map<string, bigint>;
  if (result && errorKeys.length === 0) {
    figures = totalsFrom(result);
  } else {
    const rest = parseZakatForm(toFormText(withoutErrors(form, errorKeys)));
    figures = rest.ok ? totalsFrom(calculateZakat(rest.inputs, settings)) : new Map();
  }
  const out = new Map<string, SectionTotal>();
  for (const group of GROUPS) {
    const keys = errorKeys.filter((k) => groupOfErrorKey(k) === group.id);
    const cents = figures.get(group.id);
    out.set(
      group.id,
      keys.some((k) => shown.has(k))
        ? { state: "check" }
        : keys.length
          ? { state: "pending" }
          : cents
            ? { state: "total", cents }
            : { state: "none" },
    );
  }
  return out;
}
