/**
 * Each fund's name as a donor reads it in a sentence ("Your monthly gift to Zakat is paused."):
 * the account API's messages and the account island's history, receipts and summary use the same
 * words. Browser-safe.
 */
import type { Fund } from "./types.js";

export const FUND_NAMES: Readonly<Record<Fund, string>> = {
  zakat: "Zakat",
  fitr: "Zakat al-Fitr",
  fidyah: "Fidyah",
  sadaqah: "Sadaqah",
  qurban: "Qurban",
  ramadan: "Ramadan",
  "dhul-hijjah": "Dhul Hijjah",
  "tainted-wealth": "Tainted wealth",
  "jumuah-giving": "Jumu'ah giving",
};

/** A fund id from the API as a name; an id this build does not know is shown as it is. */
export function fundName(fund: string): string {
  return (FUND_NAMES as Record<string, string>)[fund] ?? fund;
}
