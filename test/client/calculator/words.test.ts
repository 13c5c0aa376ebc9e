/**
 * The calculator's dictionaries: every language has every word, and every message src/zakat's
 * parsers give (each problem of an amount, a weight and a purity in either unit) has its Arabic.
 */
import { describe, expect, it } from "vitest";
import { calcAr } from "../../../src/client/calculator/words/ar.js";
import { calcEn } from "../../../src/client/calculator/words/en.js";
import { calcFormatsFor } from "../../../src/client/calculator/format.js";
import { parseAmount, parseGrams, parsePurity } from "../../../src/zakat/index.js";

const BAD = ["abc", "-5", "10.5555", "1,20", `${"9".repeat(31)}`, "1.2.3"];

function messages(): string[] {
  const out = new Set<string>();
  for (const text of BAD) {
    const amount = parseAmount(text);
    if (!amount.ok) out.add(amount.message);
    const grams = parseGrams(text);
    if (!grams.ok) out.add(grams.message);
  }
  for (const unit of ["carat", "thousandths"] as const)
    for (const text of ["", "abc", "0", "18.25", "1001", "916", "25"]) {
      const purity = parsePurity(text, unit);
      if (!purity.ok) out.add(purity.message);
    }
  return [...out];
}

describe("the calculator's words", () => {
  it("Arabic has every key English has, and no empty word", () => {
    const keys = (o: object, at = ""): string[] =>
      Object.entries(o).flatMap(([k, v]) => (v && typeof v === "object" ? keys(v, `${at}${k}.`) : [`${at}${k}`]));
    const english = keys(calcEn).filter((k) => !k.startsWith("errors.") && k !== "caratHallmark");
    const arabic = new Set(keys(calcAr));
    expect(english.filter((k) => !arabic.has(k))).toEqual([]);
    const empty = (o: object): boolean =>
      Object.values(o).some((v) => (v && typeof v === "object" ? empty(v) : v === ""));
    expect(empty(calcAr)).toBe(false);
  });

  it("every message src/zakat's parsers give is translated into Arabic", () => {
    const all = messages();
    expect(all.length).toBeGreaterThanOrEqual(14);
    const f = calcFormatsFor(calcAr);
    const untranslated = all.filter((m) => /[A-Za-z]{2,}/.test(f.message(m)));
    expect(untranslated).toEqual([]);
    // English shows them as they are.
    expect(calcFormatsFor(calcEn).message(all[0]!)).toBe(all[0]);
  });

  it("formats a 20-digit amount exactly in Arabic (a decimal string, never a double)", () => {
    const f = calcFormatsFor(calcAr);
    expect(f.money(12_345_678_901_234_567_890_12n)).toBe("12,345,678,901,234,567,890.12\u00a0دولار\u00a0أسترالي");
    expect(f.moneyExact({ numerator: 15_534n, denominator: 100n })).toBe("1.5534\u00a0دولار\u00a0أسترالي");
    expect(calcFormatsFor(calcEn).money(12_345_678_901_234_567_890_12n)).toBe("$12,345,678,901,234,567,890.12");
  });

  it("joins an Arabic amount with no-break spaces, but lets the big figure's number end a line before the currency's name", () => {
    const f = calcFormatsFor(calcAr);
    // Running text: no line ends between the number and the name, nor inside the name.
    expect(f.money(30_864_197n)).toBe("308,641.97\u00a0دولار\u00a0أسترالي");
    // The big figure: the name may take the next line, whole.
    expect(f.moneyFigure(30_864_197n)).toBe("308,641.97 دولار\u00a0أسترالي");
    expect(calcFormatsFor(calcEn).moneyFigure(30_864_197n)).toBe("$308,641.97");
  });
});
