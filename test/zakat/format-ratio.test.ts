import { describe, expect, it } from "vitest";
import { formatAud, formatAudExact, formatGrams, formatIsoDate } from "../../src/zakat/format.js";
import { compare, parseDecimal, ratio, roundHalfUp, toDecimalString } from "../../src/zakat/ratio.js";

describe("ratio", () => {
  it("normalises sign and common factors", () => {
    expect(ratio(25n, 1000n)).toEqual({ numerator: 1n, denominator: 40n });
    expect(ratio(3n, -6n)).toEqual({ numerator: -1n, denominator: 2n });
    expect(() => ratio(1n, 0n)).toThrow();
  });

  it("rounds half up (toward +infinity on a tie)", () => {
    expect(roundHalfUp(ratio(5n, 2n))).toBe(3n); // 2.5
    expect(roundHalfUp(ratio(24_999n, 10_000n))).toBe(2n); // 2.4999
    expect(roundHalfUp(ratio(-3n, 2n))).toBe(-1n); // -1.5
    expect(roundHalfUp(ratio(-16n, 10n))).toBe(-2n); // -1.6
    expect(roundHalfUp(ratio(7n))).toBe(7n);
  });

  it("parses plain decimals exactly and nothing else", () => {
    expect(parseDecimal("1.55")).toEqual(ratio(155n, 100n));
    expect(parseDecimal("-0.5")).toEqual(ratio(-1n, 2n));
    expect(parseDecimal("1e3")).toBeUndefined();
    expect(parseDecimal(".")).toBeUndefined();
    expect(compare(parseDecimal("0.1")!, parseDecimal("0.10")!)).toBe(0);
  });

  it("prints terminating decimals", () => {
    expect(toDecimalString(ratio(1n, 8n))).toBe("0.125");
    expect(toDecimalString(ratio(1n, 3n))).toBeUndefined();
    expect(toDecimalString(ratio(-5n, 2n), 2)).toBe("-2.50");
  });
});

describe("format", () => {
  it("formats whole cents as AUD", () => {
    expect(formatAud(123_456n)).toBe("$1,234.56");
    expect(formatAud(5n)).toBe("$0.05");
    expect(formatAud(0n)).toBe("$0.00");
    expect(formatAud(-30_000n)).toBe("-$300.00");
    expect(formatAud(9_007_199_254_740_993n)).toBe("$90,071,992,547,409.93");
  });

  it("formats exact cents with as many decimals as needed", () => {
    expect(formatAudExact(ratio(155n))).toBe("$1.55");
    expect(formatAudExact(ratio(15_534n, 100n))).toBe("$1.5534");
    expect(formatAudExact(ratio(1_602_000n))).toBe("$16,020.00");
    expect(formatAudExact(ratio(1n, 3n))).toBe("$0.003333"); // 1/3 cent, rounded at the 6th decimal
  });

  it("formats dates and weights", () => {
    expect(formatIsoDate("2026-11-01")).toBe("1 November 2026");
    expect(formatIsoDate("2027-02-28")).toBe("28 February 2027");
    expect(formatGrams(12_500n)).toBe("12.5 g");
    expect(formatGrams(1_234_567n)).toBe("1,234.567 g");
  });
});
