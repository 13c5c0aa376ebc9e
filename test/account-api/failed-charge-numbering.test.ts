/**
 * Failed charges and receipt numbers: a failed charge is history (the donor sees it), never a
 * receipt, so it must not take a number. The account's own numbering (the reference, then -02,
 * -03… for a plan's later paid charges, where the service issued none: the memory store) counts
 * paid charges only; the service's financial-year numbers are checked with the job in
 * test/api/jobs/declined-charges.test.ts.
 */
import { describe, expect, it } from "vitest";
import { type ChargeFacts, type DonationFacts, historyOf } from "../../src/account-api/facts.js";

const charge = (n: number, date: string, status: ChargeFacts["status"]): ChargeFacts => ({
  n,
  id: `in_${n}`,
  date,
  amountCents: 2_500,
  feeCents: 0,
  totalCents: 2_500,
  status,
});

const monthly = (charges: ChargeFacts[]): DonationFacts => ({
  donationId: "don_numbering",
  reference: "NZF-7K2M-Q9XD",
  fund: "sadaqah",
  frequency: "monthly",
  intentType: "payment",
  openEnded: true,
  schedule: [{ date: "2026-03-15", amountCents: 2_500 }],
  scheduleTotalCents: null,
  amountCents: 2_500,
  coverFees: false,
  currency: "aud",
  date: "2026-03-15",
  status: "succeeded",
  donorName: "Hafsa Ali",
  donorEmail: "hafsa@example.com",
  sub: "sub-1",
  charges,
  plan: { amountCents: null, paused: false, cancelled: false, skips: 0 },
});

describe("a plan's receipt numbers around a failed charge", () => {
  it("skip no number: the paid charges after a failed one are -02, -03, and the failed one has none", () => {
    const history = historyOf(
      monthly([
        charge(1, "2026-03-15", "succeeded"),
        charge(2, "2026-04-15", "failed"),
        charge(3, "2026-05-15", "succeeded"),
        charge(4, "2026-06-15", "failed"),
        charge(5, "2026-07-15", "succeeded"),
      ]),
    );
    expect(history.map((h) => [h.date, h.status, h.receipt?.number ?? null])).toEqual([
      ["2026-07-15", "SUCCEEDED", "NZF-7K2M-Q9XD-03"],
      ["2026-06-15", "FAILED", null],
      ["2026-05-15", "SUCCEEDED", "NZF-7K2M-Q9XD-02"],
      ["2026-04-15", "FAILED", null],
      ["2026-03-15", "SUCCEEDED", "NZF-7K2M-Q9XD"],
    ]);
  });

  it("shift none when a failed charge is paid later: the numbers follow the paid charges in order", () => {
    const history = historyOf(
      monthly([
        charge(1, "2026-03-15", "succeeded"),
        charge(2, "2026-04-17", "succeeded"),
        charge(3, "2026-05-15", "succeeded"),
      ]),
    );
    expect(history.map((h) => h.receipt?.number)).toEqual(["NZF-7K2M-Q9XD-03", "NZF-7K2M-Q9XD-02", "NZF-7K2M-Q9XD"]);
  });
});
