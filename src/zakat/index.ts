/** The zakat calculator's pure logic. See README.md for every type and the rules. */
export { calculateZakat, purityFraction } from "./calculate.js";
export { ASSET_CATEGORIES, LIABILITY_CATEGORIES, FALLBACK_HELP, type CategoryInfo } from "./categories.js";
export { formatAud, formatAudExact, formatGrams, formatIsoDate } from "./format.js";
export { parseZakatForm, type MetalHoldingText, type ZakatFormResult, type ZakatFormText } from "./form.js";
export { parseAmount, parseGrams, parsePurity, type ParseResult } from "./parse-input.js";
export { priceAge, STALE_AFTER_DAYS, type PriceAge } from "./price-age.js";
export { type Ratio, roundHalfUp } from "./ratio.js";
export {
  DEFAULT_RATE_PERCENT,
  DEFAULT_SHARE_PROXY_PERCENT,
  HELP_KEYS,
  NISAB_GRAMS,
  settingsFromPrismic,
  type CalculatePageData,
} from "./settings.js";
export type * from "./types.js";
