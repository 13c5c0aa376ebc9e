/**
 * How the calculator's categories are grouped on screen: ten short sections instead of one long
 * form. Titles and labels are the page language's (words/, by group and category id).
 */
import type { AmountAssetId, HelpKey, LineId, LiabilityId } from "../../zakat/types.js";
import type { CalculatorWords } from "./words/en.js";

export interface CalcGroup {
  id: string;
  help: HelpKey;
  /** Amount fields in this group, in order. */
  fields: (AmountAssetId | LiabilityId)[];
  /** The gold and silver group lists metal items instead of amount fields. */
  metals?: boolean;
  liabilities?: boolean;
}

export const GROUPS: readonly CalcGroup[] = [
  { id: "cash", help: "cash", fields: ["cash"] },
  { id: "metals", help: "gold_silver", fields: [], metals: true },
  { id: "shares", help: "shares", fields: ["sharesTrading", "sharesLongTerm"] },
  { id: "receivables", help: "receivables", fields: ["receivables"] },
  {
    id: "business",
    help: "business",
    fields: ["businessCash", "businessStock", "businessReceivables"],
  },
  { id: "property", help: "property", fields: ["propertyForResale"] },
  { id: "crypto", help: "crypto", fields: ["crypto"] },
  { id: "super", help: "super", fields: ["superVoluntary"] },
  { id: "other", help: "other", fields: ["other"] },
  {
    id: "liabilities",
    help: "liabilities",
    fields: ["debts", "billsAndTax", "wagesOwed", "loanInstalments"],
    liabilities: true,
  },
];

/** The group a result line belongs to, for the per-section subtotals. */
export function groupOfLine(id: LineId): string {
  if (id === "gold" || id === "silver") return "metals";
  return GROUPS.find((g) => g.fields.includes(id as AmountAssetId | LiabilityId))?.id ?? "other";
}

/** The label of an error key: "cash" → its label, "gold.0.grams" → "Gold item 1: weight in grams". */
export function fieldLabel(key: string, words: CalculatorWords, n: (n: number) => string): string {
  const [metal, index, part] = key.split(".") as ["gold" | "silver", string?, ("grams" | "purity" | "amount")?];
  if (index === undefined) return words.labels[key as AmountAssetId] ?? key;
  const item = words.metalItem[metal].replace("{n}", n(Number(index) + 1));
  return words.errorLink.replace("{item}", item).replace("{part}", words.fieldPart[part ?? "amount"]);
}
