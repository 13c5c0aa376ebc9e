/**
 * How the calculator's categories are grouped on screen: ten short sections instead of one long
 * form. Labels come from src/zakat/categories.ts so the form and the explanation agree.
 */
import { ASSET_CATEGORIES, LIABILITY_CATEGORIES } from "../../zakat/categories.js";
import type { AmountAssetId, HelpKey, LineId, LiabilityId } from "../../zakat/types.js";

export interface CalcGroup {
  id: string;
  title: string;
  help: HelpKey;
  /** Amount fields in this group, in order. */
  fields: (AmountAssetId | LiabilityId)[];
  /** The gold and silver group lists metal items instead of amount fields. */
  metals?: boolean;
  liabilities?: boolean;
}

export const GROUPS: readonly CalcGroup[] = [
  { id: "cash", title: "Cash and bank", help: "cash", fields: ["cash"] },
  { id: "metals", title: "Gold and silver", help: "gold_silver", fields: [], metals: true },
  { id: "shares", title: "Shares", help: "shares", fields: ["sharesTrading", "sharesLongTerm"] },
  { id: "receivables", title: "Money owed to you", help: "receivables", fields: ["receivables"] },
  {
    id: "business",
    title: "Business",
    help: "business",
    fields: ["businessCash", "businessStock", "businessReceivables"],
  },
  { id: "property", title: "Property to resell", help: "property", fields: ["propertyForResale"] },
  { id: "crypto", title: "Cryptocurrency", help: "crypto", fields: ["crypto"] },
  { id: "super", title: "Superannuation", help: "super", fields: ["superVoluntary"] },
  { id: "other", title: "Other assets", help: "other", fields: ["other"] },
  {
    id: "liabilities",
    title: "What you owe now",
    help: "liabilities",
    fields: ["debts", "billsAndTax", "wagesOwed", "loanInstalments"],
    liabilities: true,
  },
];

const LABELS = new Map<string, string>([...ASSET_CATEGORIES, ...LIABILITY_CATEGORIES].map((c) => [c.id, c.label]));

export function labelOf(id: string): string {
  return LABELS.get(id) ?? id;
}

/** The group a result line belongs to, for the per-section subtotals. */
export function groupOfLine(id: LineId): string {
  if (id === "gold" || id === "silver") return "metals";
  return GROUPS.find((g) => g.fields.includes(id as AmountAssetId | LiabilityId))?.id ?? "other";
}

/** The label of an error key: "cash" → its label, "gold.0.grams" → "Gold item 1: weight". */
export function fieldLabel(key: string): string {
  const [metal, index, part] = key.split(".");
  if (index === undefined) return labelOf(key);
  const what = part === "grams" ? "weight in grams" : part === "purity" ? "purity" : "value";
  return `${metal === "gold" ? "Gold" : "Silver"} item ${Number(index) + 1}: ${what}`;
}
