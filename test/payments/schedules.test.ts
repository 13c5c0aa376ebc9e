import { describe, expect, it } from "vitest";
import { computeSchedule, OPEN_ENDED_PREVIEW, todayIn, type Schedule } from "../../src/payments/schedules.js";

function ok(result: ReturnType<typeof computeSchedule>): Schedule {
  if (!result.ok) throw new Error(`expected a schedule, got ${result.code}: ${result.message}`);
  return result.schedule;
}
const dates = (s: Schedule) => s.charges.map((c) => c.date);

describe("weekly on Fridays (Jumuah giving)", () => {
  it("starts on the next Friday when the donor gives on a Wednesday", () => {
    // 5 March 2025 is a Wednesday (1 Jan 2025 was a Wednesday; 5 March is 63 days = 9 weeks later).
    const s = ok(computeSchedule({ frequency: "weekly-friday", today: "2025-03-05", chargeCents: 1048 }));
    expect(dates(s).slice(0, 4)).toEqual(["2025-03-07", "2025-03-14", "2025-03-21", "2025-03-28"]);
    expect(s.charges).toHaveLength(OPEN_ENDED_PREVIEW);
    expect(s.charges.every((c) => c.amountCents === 1048)).toBe(true);
    expect(s.openEnded).toBe(true);
    expect(s.totalCents).toBeNull();
    expect(s.firstChargeToday).toBe(false);
  });

  it("charges the same day when the donor gives on a Friday, and stays on Fridays across daylight saving", () => {
    const s = ok(computeSchedule({ frequency: "weekly-friday", today: "2025-03-28", chargeCents: 1000 }));
    // Daylight saving ends in Sydney on Sunday 6 April 2025: Fridays stay seven days apart.
    expect(dates(s).slice(0, 3)).toEqual(["2025-03-28", "2025-04-04", "2025-04-11"]);
    expect(s.firstChargeToday).toBe(true);
  });
});

describe("Ramadan", () => {
  // Ramadan 1446: first night (first tarawih) on the evening of Friday 28 February 2025 in Australia.
  const ramadan = { start: "2025-02-28", length: 30 };

  it("the last ten nights are nights 21 to 30: 20 to 29 March", () => {
    const s = ok(
      computeSchedule({ frequency: "ramadan-last-ten", today: "2025-02-01", chargeCents: 2000, season: ramadan }),
    );
    expect(dates(s)).toEqual([
      "2025-03-20",
      "2025-03-21",
      "2025-03-22",
      "2025-03-23",
      "2025-03-24",
      "2025-03-25",
      "2025-03-26",
      "2025-03-27",
      "2025-03-28",
      "2025-03-29",
    ]);
    expect(s.totalCents).toBe(20_000);
    expect(s.openEnded).toBe(false);
    expect(s.firstChargeToday).toBe(false);
  });

  it("a 29-night Ramadan has nine of the last nights, from the 21st", () => {
    const s = ok(
      computeSchedule({
        frequency: "ramadan-last-ten",
        today: "2025-02-01",
        chargeCents: 1000,
        season: { ...ramadan, length: 29 },
      }),
    );
    expect(dates(s)[0]).toBe("2025-03-20");
    expect(dates(s).at(-1)).toBe("2025-03-28");
    expect(s.totalCents).toBe(9_000);
  });

  it("joining part way through charges only the nights still to come, starting tonight", () => {
    const s = ok(
      computeSchedule({ frequency: "ramadan-last-ten", today: "2025-03-25", chargeCents: 1000, season: ramadan }),
    );
    expect(dates(s)).toEqual(["2025-03-25", "2025-03-26", "2025-03-27", "2025-03-28", "2025-03-29"]);
    expect(s.firstChargeToday).toBe(true);
  });

  it("every night crosses the end of February in a leap year", () => {
    const s = ok(
      computeSchedule({
        frequency: "ramadan-nightly",
        today: "2024-01-01",
        chargeCents: 1000,
        season: { start: "2024-02-27", length: 30 },
      }),
    );
    expect(dates(s).slice(0, 4)).toEqual(["2024-02-27", "2024-02-28", "2024-02-29", "2024-03-01"]);
    expect(dates(s).at(-1)).toBe("2024-03-27");
    expect(s.totalCents).toBe(30_000);
  });

  it("says so when the nights have passed, and when the season is missing or malformed", () => {
    expect(
      computeSchedule({ frequency: "ramadan-last-ten", today: "2025-03-30", chargeCents: 1000, season: ramadan }),
    ).toMatchObject({ ok: false, code: "schedule_ended" });
    expect(computeSchedule({ frequency: "ramadan-nightly", today: "2025-03-01", chargeCents: 1000 })).toMatchObject({
      ok: false,
      code: "season_required",
    });
    expect(
      computeSchedule({
        frequency: "ramadan-nightly",
        today: "2025-03-01",
        chargeCents: 1000,
        season: { start: "2025-02-30", length: 30 },
      }),
    ).toMatchObject({ ok: false, code: "season_invalid" });
    expect(
      computeSchedule({
        frequency: "ramadan-nightly",
        today: "2025-03-01",
        chargeCents: 1000,
        season: { start: "2025-02-28", length: 31 },
      }),
    ).toMatchObject({ ok: false, code: "season_invalid" });
  });
});

describe("the ten days of Dhul Hijjah", () => {
  it("charges days 1 to 10 from the editor's start date", () => {
    const s = ok(
      computeSchedule({
        frequency: "dhul-hijjah-ten-days",
        today: "2025-05-01",
        chargeCents: 5117,
        season: { start: "2025-05-28", length: 10 },
      }),
    );
    expect(dates(s)).toEqual([
      "2025-05-28",
      "2025-05-29",
      "2025-05-30",
      "2025-05-31",
      "2025-06-01",
      "2025-06-02",
      "2025-06-03",
      "2025-06-04",
      "2025-06-05",
      "2025-06-06",
    ]);
    expect(s.totalCents).toBe(51_170);
  });

  it("refuses a season that is not ten days", () => {
    expect(
      computeSchedule({
        frequency: "dhul-hijjah-ten-days",
        today: "2025-05-01",
        chargeCents: 1000,
        season: { start: "2025-05-28", length: 9 },
      }),
    ).toMatchObject({ ok: false, code: "season_invalid" });
  });
});

describe("once and monthly", () => {
  it("a one-off gift is one charge today", () => {
    const s = ok(computeSchedule({ frequency: "once", today: "2025-03-05", chargeCents: 5000 }));
    expect(s).toEqual({
      charges: [{ date: "2025-03-05", amountCents: 5000 }],
      openEnded: false,
      totalCents: 5000,
      firstChargeToday: true,
    });
  });

  it("monthly from the 31st falls on the last day of shorter months, then back to the 31st", () => {
    const s = ok(computeSchedule({ frequency: "monthly", today: "2024-01-31", chargeCents: 1000 }));
    expect(dates(s).slice(0, 5)).toEqual(["2024-01-31", "2024-02-29", "2024-03-31", "2024-04-30", "2024-05-31"]);
    expect(dates(s).at(-1)).toBe("2024-12-31");
    expect(s.openEnded).toBe(true);
    expect(s.firstChargeToday).toBe(true);
  });
});

describe("today in Sydney", () => {
  it("is already tomorrow in Sydney on a UTC afternoon", () => {
    // 14:30 UTC on 6 March 2025 is 01:30 on 7 March in Sydney (AEDT, UTC+11).
    const instant = new Date("2025-03-06T14:30:00Z");
    expect(todayIn("Australia/Sydney", instant)).toBe("2025-03-07");
    expect(todayIn("UTC", instant)).toBe("2025-03-06");
  });
});
