/**
 * How old the editor's gold and silver prices are. Counted in calendar days between the "as at"
 * date and the donor's own local date (`today` is read with local getters: in the browser that is
 * the donor's time zone, which is the day they think it is).
 */
import { formatIsoDate } from "./format.js";
import { isIsoDate } from "./settings.js";

/** Prices older than this many days get a warning. */
export const STALE_AFTER_DAYS = 30;

export interface PriceAge {
  /** Whole days since the prices were taken; negative when the date is in the future. */
  days: number;
  /** True when days > 30. */
  stale: boolean;
  /** "Prices as at 1 November 2026 (20 days ago)". */
  text: string;
  /** Present only when stale: a sentence the calculator shows as a warning. */
  warning?: string;
}

export function priceAge(pricesAsAt: string, today: Date): PriceAge {
  if (!isIsoDate(pricesAsAt)) throw new RangeError(`pricesAsAt must be an ISO date (YYYY-MM-DD), got "${pricesAsAt}".`);
  const [year, month, day] = pricesAsAt.split("-").map(Number) as [number, number, number];
  const asAtDay = Date.UTC(year, month - 1, day);
  const todayDay = Date.UTC(today.getFullYear(), today.getMonth(), today.getDate());
  const days = Math.round((todayDay - asAtDay) / 86_400_000);
  const ago = days === 0 ? "today" : days === 1 ? "1 day ago" : days > 1 ? `${days} days ago` : "a future date";
  const stale = days > STALE_AFTER_DAYS;
  const result: PriceAge = { days, stale, text: `Prices as at ${formatIsoDate(pricesAsAt)} (${ago})` };
  if (stale) {
    result.warning = `These gold and silver prices are more than ${STALE_AFTER_DAYS} days old, so the nisab shown may differ from today's. Check current prices before relying on it.`;
  }
  return result;
}
