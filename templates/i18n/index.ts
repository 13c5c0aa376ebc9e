/**
 * The chrome's words per language: one dictionary module per language, chosen by the language's
 * primary subtag (ar-ae and any other Arabic locale read ar.ts); English for any language without one.
 */
import { ar } from "./ar.js";
import { en, type ChromeStrings } from "./en.js";

const DICTIONARIES: Record<string, ChromeStrings> = { en, ar };

export type { ChromeStrings };

export function chromeStrings(lang: string): ChromeStrings {
  return DICTIONARIES[lang.split("-")[0]!.toLowerCase()] ?? en;
}

export { htmlLang } from "./html-lang.js";
