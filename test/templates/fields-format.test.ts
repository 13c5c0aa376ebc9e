/**
 * Dates and dollars in templates are formatted by hand for Australian English (no ICU start-up in
 * every render worker); these compare them with Intl's own en-AU output, the reference.
 */
import { describe, expect, it } from "vitest";
import { aud, formatDate } from "../../templates/components/fields.js";

const intlDate = new Intl.DateTimeFormat("en-AU", { day: "numeric", month: "long", year: "numeric", timeZone: "UTC" });
const intlWhole = new Intl.NumberFormat("en-AU", { style: "currency", currency: "AUD", maximumFractionDigits: 0 });
const intlCents = new Intl.NumberFormat("en-AU", { style: "currency", currency: "AUD", minimumFractionDigits: 2 });
const intlAud = (dollars: number) => (Number.isInteger(dollars) ? intlWhole : intlCents).format(dollars);

/** A small seeded generator, so a failure can be reproduced. */
function random(seed: number) {
  return () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
}

describe("formatDate", () => {
  it("writes every day from 1990 to 2040 as Intl's en-AU does", () => {
    for (let day = Date.UTC(1990, 0, 1); day <= Date.UTC(2040, 11, 31); day += 86_400_000) {
      const iso = new Date(day).toISOString();
      expect(formatDate(iso.slice(0, 10))).toBe(intlDate.format(new Date(day)));
      expect(formatDate(iso)).toBe(intlDate.format(new Date(day))); // a full timestamp: its date
    }
    expect(formatDate("2026-11-01")).toBe("1 November 2026");
  });

  it("rolls an impossible day over as Date does, leaves other text alone, and keeps Arabic to Intl", () => {
    expect(formatDate("2026-02-30")).toBe(intlDate.format(new Date("2026-02-30T00:00:00Z")));
    expect(formatDate("soon")).toBe("soon");
    expect(formatDate("2026-11-01", "ar-ae")).toBe(
      new Intl.DateTimeFormat("ar-AE", { day: "numeric", month: "long", year: "numeric", timeZone: "UTC" }).format(
        new Date("2026-11-01T00:00:00Z"),
      ),
    );
  });
});

describe("aud", () => {
  it("writes whole dollars, cents, negatives and rounding cases as Intl's en-AU currency format does", () => {
    const cases = [
      0, -0, 1, 12, 999, 1000, 1250, 999_999, 1_000_000, 123_456_789, -5, -1234, 0.5, 12.5, 1.005, 1.015, 0.285, 2.675,
      1.125, 1234.995, 999.999, 0.001, -0.001, -12.345, 1e-7, -2e-9, 1e21,
    ];
    const next = random(7);
    for (let i = 0; i < 5_000; i++) {
      const magnitude = 10 ** Math.floor(next() * 9);
      cases.push(
        Math.round(next() * magnitude * 1000) / 1000,
        Math.floor(next() * magnitude),
        -Math.round(next() * magnitude * 100) / 100,
      );
    }
    for (const dollars of cases) expect(aud(dollars), String(dollars)).toBe(intlAud(dollars));
  });
});
