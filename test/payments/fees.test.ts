import { describe, expect, it } from "vitest";
import { chargeFor, processorFee, STRIPE_AU_DOMESTIC } from "../../src/payments/fees.js";
import { formatDollars, formatDollarsAndCents, parseAmount } from "../../src/payments/money.js";

describe("cover-the-fees (1.7% + 30c, grossed up)", () => {
  // Hand-checked: total is the smallest T with 0.983·T ≥ amount + 30.
  it.each([
    // $10: 1030 / 0.983 = 1047.81 → 1048 (0.983·1047 = 1029.2 < 1030)
    [1000, 1048, 48],
    // $50: 5030 / 0.983 = 5116.99 → 5117 (0.983·5116 = 5029.03 < 5030)
    [5000, 5117, 117],
    // $100: 10030 / 0.983 = 10203.46 → 10204 (0.983·10203 = 10029.55 < 10030)
    [10000, 10204, 204],
    // $9.53: 983 / 0.983 = 1000 exactly: no extra cent from rounding
    [953, 1000, 47],
  ])("a gift of %i cents is charged %i cents (fee %i)", (amount, total, fee) => {
    expect(chargeFor(amount, true)).toEqual({ amountCents: amount, feeCents: fee, totalCents: total });
  });

  it("leaves the foundation the whole gift after Stripe's fee, and is the smallest such total", () => {
    for (let amount = 1000; amount <= 500_000; amount += 137) {
      const { totalCents } = chargeFor(amount, true);
      expect(totalCents - processorFee(totalCents)).toBeGreaterThanOrEqual(amount);
      // One cent less would not cover the fee on the exact (unrounded) rate.
      expect((totalCents - 1) * (1 - 0.017) - 30).toBeLessThan(amount);
    }
  });

  it("charges just the gift when the donor does not cover the fees", () => {
    expect(chargeFor(2500, false)).toEqual({ amountCents: 2500, feeCents: 0, totalCents: 2500 });
  });

  it("refuses amounts that are not whole cents", () => {
    expect(() => chargeFor(10.5, true)).toThrow(RangeError);
    expect(() => chargeFor(-1, true)).toThrow(RangeError);
  });

  it("states the rate it uses", () => {
    expect(STRIPE_AU_DOMESTIC).toEqual({ percentBasisPoints: 170, fixedCents: 30 });
    // Stripe's own fee on $10.48: 17.8c rounds to 18c, plus 30c.
    expect(processorFee(1048)).toBe(48);
  });
});

describe("amounts as typed", () => {
  it.each([
    ["50", 5000],
    ["50.25", 5025],
    ["19.99", 1999],
    ["$1,250.5", 125050],
    [".75", 75],
    ["  10  ", 1000],
    [19.99, 1999],
    [0.29, 29],
    // Typed on the Arabic pages: Arabic-Indic and Persian digits, the Arabic decimal point and comma.
    ["١٢٥٠", 125000],
    ["١٬٢٥٠٫٥", 125050],
    ["۵۰", 5000],
    ["$٢٠.٧٥", 2075],
    // Thousands grouped by spaces, as the zakat calculator reads them (and copied no-break or thin spaces).
    ["1 000", 100000],
    ["12 000.50", 1200050],
    ["$1 000 000", 100000000],
    ["1\u00a0000", 100000],
    ["1\u202f000", 100000],
  ])("%j is %i cents", (input, cents) => {
    expect(parseAmount(input)).toEqual({ ok: true, cents });
  });

  it.each([
    ["", "required"],
    [undefined, "required"],
    ["abc", "not_a_number"],
    ["10..0", "not_a_number"],
    ["1e3", "not_a_number"],
    ["-5", "negative"],
    ["−20", "negative"],
    ["12,34", "comma_grouping"],
    ["1,20", "comma_grouping"],
    ["1,2345", "comma_grouping"],
    [".", "not_a_number"],
    [Number.NaN, "not_a_number"],
    ["10.123", "too_many_decimals"],
    ["١٠٫١٢٣", "too_many_decimals"],
    ["-٥", "negative"],
    ["1 00", "not_a_number"],
    ["10 0000", "not_a_number"],
  ] as const)("%j is refused as %s", (input, reason) => {
    expect(parseAmount(input)).toEqual({ ok: false, reason });
  });

  it("formats dollars the way the messages say them", () => {
    expect(formatDollars(1000)).toBe("$10");
    expect(formatDollars(1050)).toBe("$10.50");
    expect(formatDollars(10_000_000)).toBe("$100,000");
    expect(formatDollarsAndCents(4800)).toBe("$48.00");
    expect(formatDollarsAndCents(48)).toBe("$0.48");
  });
});
