/**
 * The calculator island's words per language, chosen by the page's language at build time (as
 * ../../donation/words/ does): Arabic locales read ar.ts, every language without a dictionary the
 * English. Imported by templates only: the island receives its dictionary as a prop.
 */
import { calcAr } from "./ar.js";
import { calcEn, type CalculatorWords } from "./en.js";

export function calculatorWords(lang: string): CalculatorWords {
  return lang.split("-")[0]!.toLowerCase() === "ar" ? calcAr : calcEn;
}
