/**
 * Stripe's monthly billing dates from a subscription's anchor (src/payments/billing-dates.ts): the
 * anchor's day of the month in UTC, the month's last day when it is shorter, back to the anchor's
 * day after; as the date in Sydney the donor reads.
 */
import { describe, expect, it } from "vitest";
import { stripeBillingDate, stripeBillingInstant } from "../../src/payments/billing-dates.js";

const months = (anchor: string, n: number) => Array.from({ length: n }, (_, k) => stripeBillingDate(anchor, k));

describe("Stripe's monthly billing dates", () => {
  it("an anchor on the 31st: the last day of shorter months, the 31st again after", () => {
    // Noon in Sydney on 31 January 2027.
    expect(months("2027-01-31T01:00:00Z", 6)).toEqual([
      "2027-01-31",
      "2027-02-28",
      "2027-03-31",
      "2027-04-30",
      "2027-05-31",
      "2027-06-30",
    ]);
    expect(months("2028-01-31T01:00:00Z", 3)).toEqual(["2028-01-31", "2028-02-29", "2028-03-31"]);
  });

  it("the 29th and 30th: February clamps, March returns", () => {
    expect(months("2027-01-29T01:00:00Z", 3)).toEqual(["2027-01-29", "2027-02-28", "2027-03-29"]);
    expect(months("2027-01-30T01:00:00Z", 3)).toEqual(["2027-01-30", "2027-02-28", "2027-03-30"]);
    expect(months("2028-01-29T01:00:00Z", 2)).toEqual(["2028-01-29", "2028-02-29"]);
  });

  it("counts in UTC as Stripe does: a gift made on a Sydney morning is anchored on the day before in UTC", () => {
    // 9 am in Sydney on 31 January is 22:00 UTC on the 30th: Stripe bills on the 30th (UTC) each month.
    expect(months("2027-01-30T22:00:00Z", 4)).toEqual(["2027-01-31", "2027-03-01", "2027-03-31", "2027-05-01"]);
  });

  it("the instant keeps the anchor's time of day", () => {
    expect(new Date(stripeBillingInstant("2027-01-31T01:02:03Z", 1) * 1000).toISOString()).toBe(
      "2027-02-28T01:02:03.000Z",
    );
    expect(new Date(stripeBillingInstant("2027-01-31T01:02:03Z", 2) * 1000).toISOString()).toBe(
      "2027-03-31T01:02:03.000Z",
    );
  });
});
