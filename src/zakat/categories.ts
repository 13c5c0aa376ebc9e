/**
 * The calculator's categories: labels, order, and the help topic each belongs to. The UI renders
 * fields from these lists so the form, the explanation and the README cannot disagree.
 */
import type { AmountAssetId, HelpKey, LiabilityId, Metal } from "./types.js";

export interface CategoryInfo<Id extends string> {
  id: Id;
  label: string;
  help: HelpKey;
}

/** Asset categories in display order; gold and silver sit after cash. */
export const ASSET_CATEGORIES: readonly CategoryInfo<AmountAssetId | Metal>[] = [
  { id: "cash", label: "Cash and bank balances (including offset accounts)", help: "cash" },
  { id: "gold", label: "Gold", help: "gold_silver" },
  { id: "silver", label: "Silver", help: "gold_silver" },
  { id: "sharesTrading", label: "Shares held for trading (market value)", help: "shares" },
  { id: "sharesLongTerm", label: "Long-term shares (market value)", help: "shares" },
  { id: "receivables", label: "Money owed to you that you expect back", help: "receivables" },
  { id: "businessCash", label: "Business cash", help: "business" },
  { id: "businessStock", label: "Business stock (at sale value)", help: "business" },
  { id: "businessReceivables", label: "Business receivables", help: "business" },
  { id: "propertyForResale", label: "Property bought to resell", help: "property" },
  { id: "crypto", label: "Cryptocurrency", help: "crypto" },
  { id: "superVoluntary", label: "Voluntary superannuation contributions you direct", help: "super" },
  { id: "other", label: "Other assets", help: "other" },
];

export const LIABILITY_CATEGORIES: readonly CategoryInfo<LiabilityId>[] = [
  { id: "debts", label: "Debts due now", help: "liabilities" },
  { id: "billsAndTax", label: "Bills and tax due", help: "liabilities" },
  { id: "wagesOwed", label: "Wages owed", help: "liabilities" },
  { id: "loanInstalments", label: "Current instalments of long-term loans", help: "liabilities" },
];

/**
 * Plain-text help used when the editor has left a help field empty in Prismic, so the calculator
 * never shows a category without guidance. The super text states the rule the issue requires.
 */
export const FALLBACK_HELP: Record<HelpKey, string> = {
  cash: "Cash at home and the balances of your bank, savings and offset accounts on your zakat date.",
  gold_silver:
    "Gold and silver you own, including jewellery. Enter the weight in grams and the purity (carats, or the thousandths number stamped on the item, like 916), or its value if you know it.",
  shares:
    "Shares you bought to sell count at their full market value. For shares you hold long term, only a portion of the market value is zakatable; the calculator applies it for you.",
  receivables: "Money people owe you that you expect to be repaid.",
  business: "Your business's cash, its stock valued at what it would sell for, and the money customers owe it.",
  property:
    "Property you bought in order to resell it, at its market value. Your home and rental properties are not included.",
  crypto: "The market value of your cryptocurrency on your zakat date.",
  super:
    "Only voluntary contributions you direct. Compulsory superannuation (your employer's contributions) is not zakatable.",
  other: "Any other zakatable wealth not listed above.",
  liabilities:
    "Only what is due now: debts, bills and tax due, wages you owe, and the current instalments of long-term loans, not the whole mortgage or loan.",
};
