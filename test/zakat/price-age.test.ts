import { describe, expect, it } from "vitest";
import { priceAge } from "../../src/zakat/price-age.js";

// `today` is built with the local-time constructor, as the browser's clock reads in the donor's zone.
describe("priceAge", () => {
  it("is not stale at 30 days", () => {
    // 1 October → 31 October = 30 days
    const age = priceAge("2026-10-01", new Date(2026, 9, 31, 23, 59));
    expect(age).toEqual({ days: 30, stale: false, text: "Prices as at 1 October 2026 (30 days ago)" });
  });

  it("is stale at 31 days, with a warning", () => {
    // 1 October → 1 November = 31 days
    const age = priceAge("2026-10-01", new Date(2026, 10, 1, 0, 1));
    expect(age.days).toBe(31);
    expect(age.stale).toBe(true);
    expect(age.text).toBe("Prices as at 1 October 2026 (31 days ago)");
    expect(age.warning).toMatch(/more than 30 days old/);
  });

  it("says today, 1 day, and counts across a year end and a leap day", () => {
    expect(priceAge("2026-11-01", new Date(2026, 10, 1)).text).toBe("Prices as at 1 November 2026 (today)");
    expect(priceAge("2026-11-01", new Date(2026, 10, 2)).text).toBe("Prices as at 1 November 2026 (1 day ago)");
    // 20 Dec 2027 → 1 Mar 2028: 11 + 31 + 29 (leap February) + 1 = 72 days
    expect(priceAge("2027-12-20", new Date(2028, 2, 1)).days).toBe(72);
  });

  it("does not call a future date stale", () => {
    const age = priceAge("2026-12-01", new Date(2026, 10, 1));
    expect(age.days).toBe(-30);
    expect(age.stale).toBe(false);
    expect(age.text).toBe("Prices as at 1 December 2026 (a future date)");
  });

  it("refuses something that is not a date", () => {
    expect(() => priceAge("1/11/2026", new Date())).toThrow(/YYYY-MM-DD/);
  });
});
