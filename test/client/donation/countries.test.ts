/**
 * The receipt address's country list: each country once, by its current ISO 3166-1 code, in
 * English and in the other languages the form names them in with Intl.DisplayNames.
 */
import { describe, expect, it } from "vitest";
import { COUNTRIES, countriesIn } from "../../../src/client/donation/countries.js";

const duplicates = (list: readonly (readonly [string, string])[]) => {
  const seen = new Map<string, string>();
  const repeated: string[] = [];
  for (const [code, name] of list) {
    if (seen.has(name)) repeated.push(`${name} (${seen.get(name)}, ${code})`);
    else seen.set(name, code);
  }
  return repeated;
};

describe("the donation form's countries", () => {
  it("names each country once, in English and in Arabic, with Australia first", () => {
    expect(duplicates(COUNTRIES)).toEqual([]);
    const arabic = countriesIn("ar-AE");
    expect(duplicates(arabic)).toEqual([]);
    expect(arabic[0]).toEqual(["AU", "أستراليا"]);
    expect(COUNTRIES[0]).toEqual(["AU", "Australia"]);
  });

  it("offers the 249 countries and territories of ISO 3166-1 and Kosovo, and no withdrawn code", () => {
    const codes = COUNTRIES.map(([code]) => code);
    expect(new Set(codes).size).toBe(codes.length);
    expect(codes.length).toBe(250);
    // Withdrawn codes a payment provider refuses: Zaire, the USSR, Yugoslavia, East Germany, Burma…
    for (const withdrawn of ["ZR", "SU", "YU", "DD", "BU", "CS", "TP", "AN", "UK", "FX"])
      expect(codes).not.toContain(withdrawn);
    expect(codes).toEqual(expect.arrayContaining(["CD", "RU", "RS", "DE", "MM", "TL", "CW", "GB", "FR", "XK"]));
  });
});
