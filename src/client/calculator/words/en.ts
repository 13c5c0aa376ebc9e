/**
 * The calculator island's own words in English (the help under each section comes from the content).
 * The template picks the page language's dictionary (index.ts) and hands it to the island as a prop,
 * so the island's code carries no dictionary and the server and the browser render the same words.
 * `{name}` marks a value filled in (fill() in ../format.ts).
 *
 * English keeps src/zakat's own formatting ("$1,234.56", "12.5 g", "Prices as at 1 November 2026
 * (20 days ago)") and messages, so `errors` is empty here; another language formats with Intl for
 * its `locale` (intl: true) and translates each of src/zakat's messages (ar.ts).
 */
import type { AmountAssetId, LiabilityId, Metal, NisabBasis, YearType } from "../../../zakat/types.js";
import type { Plural } from "../../donation/format.js";

export interface CalculatorWords {
  /** BCP 47 tag for amounts, percentages and dates; Latin digits in every language (as the donor types them). */
  locale: string;
  /** False: src/zakat's own English formatting and messages; true: Intl for `locale` and `errors`. */
  intl: boolean;
  formLabel: string;
  yearLegend: string;
  /** "Lunar (Hijri) year: {rate}". */
  years: Record<YearType, string>;
  /** "lunar year", inside "Rate ({year})". */
  yearNames: Record<YearType, string>;
  nisabLegend: string;
  /** "{metal}: {grams}, {amount}". */
  nisabOption: string;
  nisabSentence: Record<NisabBasis, string>;
  /** Metal names as headings and in the nisab options: "Gold". */
  metals: Record<Metal, string>;
  hint: string;
  /** Section titles by group id (groups.ts). */
  groups: Record<string, string>;
  /** Field and result-line labels by category id. */
  labels: Record<AmountAssetId | LiabilityId | Metal, string>;
  /** Under long-term shares: "{percent} of the market value is counted, …". */
  sharesHint: string;
  /** A metal item's legend: "Gold item {n}". */
  metalItem: Record<Metal, string>;
  /** The item's way-of-entry radio group: "How to enter {item}". */
  howToEnter: string;
  byWeight: string;
  byValue: string;
  weightLabel: string;
  purityIn: string;
  carats: string;
  thousandths: string;
  purityLabel: string;
  purityHint: { carat: string; thousandths: string };
  valueLabel: string;
  /** "Remove {item}". */
  remove: string;
  addItem: Record<Metal, string>;
  /** "Next: {section}". */
  next: string;
  seeResult: string;
  clear: string;
  cleared: string;
  restored: string;
  bringBack: string;
  sectionCheck: string;
  sectionPending: string;
  /** A liability total or line: "less {amount}". */
  less: string;
  resultHeading: string;
  zakatDue: string;
  /** While fields need checking, by their count. */
  checkFields: Plural;
  /** "Assets {assets} less liabilities {liabilities} leaves {net}, below the nisab of {nisab}: no zakat is due." */
  summaryBelow: string;
  /** "…, at or above the nisab of {nisab}: zakat due at {rate} is {due}." */
  summaryDue: string;
  /** "Nisab ({grams} of {metal} at {price} per gram)". */
  explainNisab: string;
  totalAssets: string;
  liabilitiesDue: string;
  net: string;
  /** "Rate ({year})". */
  rate: string;
  counted: string;
  /** A metal line's detail (intl only; English uses src/zakat's): "{grams} of {purity} {metal} at {price} per gram of pure {metal}". */
  detailWeight: string;
  detailValue: string;
  /** "{n} carat", "{n} thousandths" (intl only). */
  purityText: { carat: string; thousandths: string };
  /** "{percent} of {amount} is zakatable" (intl only). */
  detailShares: string;
  /** Before the donor's date is known: "Prices as at {date}". */
  pricesAsAt: string;
  /** "Prices as at {date} ({ago})" (intl only; "ago" from Intl.RelativeTimeFormat). */
  pricesAge: string;
  /** "ago" for a date after today (intl only). */
  futureDate: string;
  /** Older than {days} days (intl only). */
  staleWarning: string;
  payMyZakat: string;
  nothingDue: string;
  barDue: string;
  barCheck: string;
  payThis: string;
  seeDetails: string;
  /** A field needing a check, in the result's list: "{item}: {part}". */
  errorLink: string;
  fieldPart: { grams: string; purity: string; amount: string };
  /** src/zakat's messages by their English text (empty in English). */
  errors: Record<string, string>;
  /** src/zakat's "Carats go from 1 to 24. For a hallmark number like 916, …" with {value} (intl only). */
  caratHallmark: string;
}

export const calcEn: CalculatorWords = {
  locale: "en-AU",
  intl: false,
  formLabel: "Zakat calculator",
  yearLegend: "Which year do you count your zakat by?",
  years: { lunar: "Lunar (Hijri) year: {rate}", solar: "Solar (Gregorian) year: {rate}" },
  yearNames: { lunar: "lunar year", solar: "solar year" },
  nisabLegend: "Which nisab do you measure your wealth against?",
  nisabOption: "{metal}: {grams}, {amount}",
  nisabSentence: {
    silver:
      "Our default, as the Australian Fatwa Council recommends: it is the lower threshold, so more people pay zakat and more people in need receive it.",
    gold: "Choose this if you follow the scholars who use the gold measure: it is the higher threshold, so fewer people owe zakat.",
  },
  metals: { gold: "Gold", silver: "Silver" },
  hint: "Enter amounts in Australian dollars as you would write them, like 1,200.50. Leave out what you do not have. Your figures stay in this browser; they are not sent to us.",
  groups: {
    cash: "Cash and bank",
    metals: "Gold and silver",
    shares: "Shares",
    receivables: "Money owed to you",
    business: "Business",
    property: "Property to resell",
    crypto: "Cryptocurrency",
    super: "Superannuation",
    other: "Other assets",
    liabilities: "What you owe now",
  },
  labels: {
    cash: "Cash and bank balances (including offset accounts)",
    gold: "Gold",
    silver: "Silver",
    sharesTrading: "Shares held for trading (market value)",
    sharesLongTerm: "Long-term shares (market value)",
    receivables: "Money owed to you that you expect back",
    businessCash: "Business cash",
    businessStock: "Business stock (at sale value)",
    businessReceivables: "Business receivables",
    propertyForResale: "Property bought to resell",
    crypto: "Cryptocurrency",
    superVoluntary: "Voluntary superannuation contributions you direct",
    other: "Other assets",
    debts: "Debts due now",
    billsAndTax: "Bills and tax due",
    wagesOwed: "Wages owed",
    loanInstalments: "Current instalments of long-term loans",
  },
  sharesHint: "{percent} of the market value is counted, our estimate of the zakatable part of the companies' assets.",
  metalItem: { gold: "Gold item {n}", silver: "Silver item {n}" },
  howToEnter: "How to enter {item}",
  byWeight: "By weight and purity",
  byValue: "By value",
  weightLabel: "Weight in grams",
  purityIn: "Purity in",
  carats: "Carats",
  thousandths: "Thousandths (hallmark)",
  purityLabel: "Purity",
  purityHint: { carat: "Carats, like 18 or 22", thousandths: "The hallmark number, like 916 or 999" },
  valueLabel: "Value in dollars",
  remove: "Remove {item}",
  addItem: { gold: "Add another gold item", silver: "Add another silver item" },
  next: "Next: {section}",
  seeResult: "See my result",
  clear: "Clear my figures",
  cleared: "Your figures have been cleared from this form and this browser.",
  restored: "Your figures are back.",
  bringBack: "Bring my figures back",
  sectionCheck: "Check this section",
  sectionPending: "Total pending",
  less: "less {amount}",
  resultHeading: "Your zakat",
  zakatDue: "Zakat due",
  checkFields: {
    one: "Check the field marked in the form; the result will update when it is fixed.",
    other: "Check {n} fields marked in the form; the result will update when they are fixed.",
  },
  summaryBelow:
    "Assets {assets} less liabilities {liabilities} leaves {net}, below the nisab of {nisab}: no zakat is due.",
  summaryDue:
    "Assets {assets} less liabilities {liabilities} leaves {net}, at or above the nisab of {nisab}: zakat due at {rate} is {due}.",
  explainNisab: "Nisab ({grams} of {metal} at {price} per gram)",
  totalAssets: "Total zakatable assets",
  liabilitiesDue: "Liabilities due now",
  net: "Net zakatable wealth",
  rate: "Rate ({year})",
  counted: "What was counted",
  detailWeight: "{grams} of {purity} {metal} at {price} per gram of pure {metal}",
  detailValue: "by value",
  purityText: { carat: "{n} carat", thousandths: "{n} thousandths" },
  detailShares: "{percent} of {amount} is zakatable",
  pricesAsAt: "Prices as at {date}",
  pricesAge: "Prices as at {date} ({ago})",
  futureDate: "a future date",
  staleWarning:
    "These gold and silver prices are more than {days} days old, so the nisab shown may differ from today's. Check current prices before relying on it.",
  payMyZakat: "Pay my zakat",
  nothingDue: "Nothing is due, so there is nothing to pay. You can still give sadaqah at any time.",
  barDue: "Zakat due: ",
  barCheck: "check the marked fields",
  payThis: "Pay this",
  seeDetails: "See details",
  errorLink: "{item}: {part}",
  fieldPart: { grams: "weight in grams", purity: "purity", amount: "value" },
  errors: {},
  caratHallmark: "",
};
