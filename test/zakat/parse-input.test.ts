import { describe, expect, it } from "vitest";
import { parseAmount, parseGrams, parsePurity } from "../../src/zakat/parse-input.js";

describe("parseAmount", () => {
  it.each([
    ["1,200.50", 120_050n],
    ["$300", 30_000n],
    [" 45 ", 4_500n],
    ["A$1 000", 100_000n],
    ["AU$ 2,000", 200_000n],
    ["AUD 12.5", 1_250n],
    ["99.99 AUD", 9_999n],
    ["1\u00a0000", 100_000n], // no-break space from copy-paste
    ["0.05", 5n],
    [".5", 50n],
    ["10.", 1_000n],
    ["1234567", 123_456_700n],
    ["", 0n],
    ["   ", 0n],
  ])("reads %j as %s cents", (text, cents) => {
    expect(parseAmount(text)).toEqual({ ok: true, cents });
  });

  it.each([
    ["abc", "Enter an amount in dollars, like 1,200.50."],
    ["1.2.3", "Enter an amount in dollars, like 1,200.50."],
    ["$", "Enter an amount in dollars, like 1,200.50."],
    ["12abc", "Enter an amount in dollars, like 1,200.50."],
    ["1e5", "Enter an amount in dollars, like 1,200.50."],
    ["-5", "Amounts cannot be negative. Enter the amount without a minus sign, like 1,200.50."],
    ["-$5", "Amounts cannot be negative. Enter the amount without a minus sign, like 1,200.50."],
    ["$-5", "Amounts cannot be negative. Enter the amount without a minus sign, like 1,200.50."],
    ["(5.00)", "Amounts cannot be negative. Enter the amount without a minus sign, like 1,200.50."],
    ["10.555", "Enter at most two decimal places for cents, like 10.55."],
    ["1,20", "Check the commas: group thousands in threes, like 1,200.50, and put cents after a full stop."],
    ["12,00,000", "Check the commas: group thousands in threes, like 1,200.50, and put cents after a full stop."],
    ["1,000.5,0", "Enter an amount in dollars, like 1,200.50."],
  ])("refuses %j", (text, message) => {
    expect(parseAmount(text)).toEqual({ ok: false, message });
  });

  it("reads 20 digits exactly and refuses absurd lengths", () => {
    expect(parseAmount("123456789012345678.91")).toEqual({ ok: true, cents: 12_345_678_901_234_567_891n });
    expect(parseAmount("1" + "0".repeat(31)).ok).toBe(false);
  });
});

describe("parseGrams", () => {
  it.each([
    ["12.5", 12_500n],
    ["12.125 g", 12_125n],
    ["1,000grams", 1_000_000n],
    [" 3 ", 3_000n],
    ["0.001", 1n],
    ["", 0n],
  ])("reads %j as %s mg", (text, milligrams) => {
    expect(parseGrams(text)).toEqual({ ok: true, milligrams });
  });

  it("refuses what is not a weight", () => {
    expect(parseGrams("12.1255")).toEqual({
      ok: false,
      message: "Enter the weight with at most three decimal places, like 12.125.",
    });
    expect(parseGrams("-2")).toEqual({
      ok: false,
      message: "A weight cannot be negative. Enter it in grams without a minus sign, like 12.5.",
    });
    expect(parseGrams("ten")).toEqual({ ok: false, message: "Enter the weight in grams, like 12.5." });
  });
});

describe("parsePurity", () => {
  it("reads carats with or without a suffix", () => {
    expect(parsePurity("18", "carat")).toEqual({ ok: true, purity: { unit: "carat", value: 18 } });
    expect(parsePurity("22k", "carat")).toEqual({ ok: true, purity: { unit: "carat", value: 22 } });
    expect(parsePurity(" 9 ct", "carat")).toEqual({ ok: true, purity: { unit: "carat", value: 9 } });
    expect(parsePurity("24", "carat")).toEqual({ ok: true, purity: { unit: "carat", value: 24 } });
  });

  it("reads thousandths, including one decimal", () => {
    expect(parsePurity("916", "thousandths")).toEqual({ ok: true, purity: { unit: "thousandths", value: 916 } });
    expect(parsePurity("999.9", "thousandths")).toEqual({ ok: true, purity: { unit: "thousandths", value: 999.9 } });
    expect(parsePurity("1000", "thousandths")).toEqual({ ok: true, purity: { unit: "thousandths", value: 1000 } });
  });

  it("refuses out-of-range and malformed purities with a reason", () => {
    const carat = "Enter the purity in carats from 1 to 24, like 18 for 18 carat gold.";
    expect(parsePurity("25", "carat")).toEqual({
      ok: false,
      message: "Carats go from 1 to 24. For a hallmark number like 25, choose thousandths instead.",
    });
    expect(parsePurity("916", "carat")).toEqual({
      ok: false,
      message: "Carats go from 1 to 24. For a hallmark number like 916, choose thousandths instead.",
    });
    expect(parsePurity("0", "carat")).toEqual({ ok: false, message: carat });
    expect(parsePurity("", "carat")).toEqual({ ok: false, message: carat });
    expect(parsePurity("-18", "carat")).toEqual({ ok: false, message: carat });
    expect(parsePurity("1001", "thousandths")).toEqual({
      ok: false,
      message: "Enter the purity in thousandths from 1 to 1000, like 916 or 999, the number stamped on the item.",
    });
    expect(parsePurity("999.99", "thousandths")).toEqual({
      ok: false,
      message: "Enter the purity with at most one decimal place, like 916 or 999, the number stamped on the item.",
    });
  });
});
