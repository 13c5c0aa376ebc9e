import { describe, expect, it } from "vitest";
import {
  financialYearOf,
  financialYearOfDate,
  financialYearStarting,
  formatReceiptNumber,
  parseReceiptNumber,
  sydneyDate,
} from "../../src/receipts/financial-year.js";

describe("the Australian financial year", () => {
  it("runs from 1 July to 30 June and is named by both years", () => {
    expect(financialYearOfDate("2026-07-01")).toEqual({
      startYear: 2026,
      label: "2026-27",
      from: "2026-07-01",
      to: "2027-06-30",
    });
    expect(financialYearOfDate("2027-06-30").label).toBe("2026-27");
    expect(financialYearOfDate("2026-06-30").label).toBe("2025-26");
    expect(financialYearOfDate("2099-12-31").label).toBe("2099-00");
  });

  it("is decided in Sydney time: a payment at 9:59 am Sydney on 1 July is in the new year", () => {
    // 1 July 2026 00:00 in Sydney (AEST, UTC+10) is 30 June 14:00 UTC.
    expect(financialYearOf(new Date("2026-06-30T13:59:59Z")).label).toBe("2025-26");
    expect(financialYearOf(new Date("2026-06-30T14:00:00Z")).label).toBe("2026-27");
    // Daylight saving (AEDT, UTC+11) on 1 January.
    expect(sydneyDate(new Date("2026-12-31T13:00:00Z"))).toBe("2027-01-01");
  });

  it("refuses dates that are not dates", () => {
    for (const bad of ["2026-13-01", "2026-7-1", "", "2026-00-10", "yesterday"])
      expect(() => financialYearOfDate(bad), bad).toThrow(RangeError);
    expect(() => financialYearOf(new Date("nope"))).toThrow(RangeError);
    expect(() => financialYearStarting(26)).toThrow(RangeError);
  });
});

describe("receipt numbers", () => {
  const year = financialYearStarting(2026);

  it("are the year's label and a six-digit sequence", () => {
    expect(formatReceiptNumber(year, 123)).toBe("2026-27/000123");
    expect(formatReceiptNumber(year, 1)).toBe("2026-27/000001");
    expect(formatReceiptNumber(year, 1_234_567)).toBe("2026-27/1234567");
  });

  it("read back to the same year and sequence", () => {
    for (const sequence of [1, 42, 999_999, 1_000_000]) {
      const parsed = parseReceiptNumber(formatReceiptNumber(year, sequence));
      expect(parsed?.sequence).toBe(sequence);
      expect(parsed?.year.label).toBe("2026-27");
    }
  });

  it("start at 1 and are whole", () => {
    for (const bad of [0, -1, 1.5, Number.NaN, Number.MAX_SAFE_INTEGER + 1])
      expect(() => formatReceiptNumber(year, bad), String(bad)).toThrow(RangeError);
  });

  it("have one way of being written", () => {
    for (const bad of [
      "2026-27/000000",
      "2026-28/000001",
      "2026-27/123",
      "2026-27/0000123",
      "2026/27/000123",
      " 2026-27/000123",
      "2026-27/000123\n",
    ])
      expect(parseReceiptNumber(bad), JSON.stringify(bad)).toBeNull();
    expect(parseReceiptNumber("2099-00/000001")?.year.startYear).toBe(2099);
  });
});
