/**
 * A year's zakat in monthly instalments: the plan both the page and the payments API compute, the
 * checks on the request, and the dev server's answer (count, end date, each payment) and replay.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { randomUUID } from "node:crypto";
import { planGift } from "../../src/payments/plan.js";
import { splitInstalments } from "../../src/payments/schedules.js";
import { DEFAULT_FUND_RULES } from "../../src/payments/fund-rules.js";
import { validateDonation, validateDonationRequest, type DonationForm } from "../../src/payments/validate.js";
import { startTestPaymentsService, type TestPaymentsService } from "../support/payments-service.js";
import { restoreRealClock, setServiceClock } from "../support/service-clock.js";
import { instalmentSentence } from "../../src/client/donation/summary.js";
import { formatsFor } from "../../src/client/donation/format.js";
import { en as englishWords } from "../../src/client/donation/words/en.js";

const donor = { firstName: "Aisha", lastName: "Rahman", email: "aisha@example.com.au", phone: "0412 345 678" };
const form = (over: Partial<DonationForm> = {}): DonationForm => ({
  fund: "zakat",
  amount: "489",
  frequency: "monthly-instalments",
  instalments: "12",
  donor,
  ...over,
});

describe("the instalment plan", () => {
  it("splits $489 into 12 payments of $40.75 from 24 Nov 2026 to 24 Oct 2027, then stops", () => {
    const result = planGift({
      frequency: "monthly-instalments",
      today: "2026-11-24",
      giftCents: 48_900,
      coverFees: false,
      instalmentCount: 12,
    });
    if (!result.ok) throw new Error(result.message);
    const { schedule, instalments, charge } = result.plan;
    expect(schedule.charges.map((c) => c.amountCents)).toEqual(Array(12).fill(4075));
    expect(schedule.charges[0]!.date).toBe("2026-11-24");
    expect(schedule.charges.at(-1)!.date).toBe("2027-10-24");
    expect(schedule).toMatchObject({ openEnded: false, totalCents: 48_900, firstChargeToday: true });
    expect(instalments).toEqual({ count: 12, giftCents: 48_900, endDate: "2027-10-24" });
    expect(charge).toEqual({ amountCents: 4075, feeCents: 0, totalCents: 4075 });
    expect(instalmentSentence(instalments!, schedule.charges, formatsFor(englishWords))).toBe(
      "12 payments of $40.75, from 24 Nov 2026 to 24 Oct 2027",
    );
  });

  it("puts the cents left over on the last payment, so the total is exactly the gift", () => {
    expect(splitInstalments(123_457, 12)).toEqual([...Array(11).fill(10_288), 10_289]);
    const result = planGift({
      frequency: "monthly-instalments",
      today: "2027-01-31",
      giftCents: 123_457,
      coverFees: false,
      instalmentCount: 12,
    });
    if (!result.ok) throw new Error(result.message);
    expect(result.plan.schedule.totalCents).toBe(123_457);
    // The 31st falls on February's last day; Stripe's schedule starts there and bills the 28th after.
    expect(result.plan.schedule.charges.slice(1, 3).map((c) => c.date)).toEqual(["2027-02-28", "2027-03-28"]);
    expect(instalmentSentence(result.plan.instalments!, result.plan.schedule.charges, formatsFor(englishWords))).toBe(
      "12 payments, from 31 Jan 2027 to 28 Dec 2027: 11 of $102.88 and a last one of $102.89",
    );
  });

  it("covers the card fee on each payment", () => {
    const result = planGift({
      frequency: "monthly-instalments",
      today: "2026-11-24",
      giftCents: 60_000,
      coverFees: true,
      instalmentCount: 6,
    });
    if (!result.ok) throw new Error(result.message);
    // $100 a month with the fee covered is $102.04 (docs/payments-api.md).
    expect(result.plan.schedule.charges.map((c) => c.amountCents)).toEqual(Array(6).fill(10_204));
    expect(result.plan.schedule.totalCents).toBe(61_224);
  });

  it("refuses a plan without a count in range", () => {
    expect(
      planGift({
        frequency: "monthly-instalments",
        today: "2026-11-24",
        giftCents: 48_900,
        coverFees: false,
        instalmentCount: 13,
      }),
    ).toMatchObject({ ok: false, code: "instalments_required" });
    expect(
      planGift({ frequency: "monthly-instalments", today: "2026-11-24", giftCents: 48_900, coverFees: false }),
    ).toMatchObject({ ok: false, code: "instalments_required" });
  });
});

describe("validating an instalment gift", () => {
  it("sends the whole gift with the count", () => {
    const result = validateDonation(form(), DEFAULT_FUND_RULES.zakat);
    expect(result).toMatchObject({
      ok: true,
      request: { fund: "zakat", amountCents: 48_900, frequency: "monthly-instalments", instalments: { count: 12 } },
    });
  });

  it("zakat is paid at once or in instalments, never an open-ended monthly charge; sadaqah keeps monthly", () => {
    expect(DEFAULT_FUND_RULES.zakat.frequencies).toEqual(["once", "monthly-instalments"]);
    expect(
      validateDonation(form({ frequency: "monthly", instalments: undefined }), DEFAULT_FUND_RULES.zakat),
    ).toMatchObject({ ok: false, errors: [{ field: "frequency" }] });
    expect(DEFAULT_FUND_RULES.sadaqah.frequencies).toContain("monthly");
    expect(
      validateDonation(form({ fund: "sadaqah", frequency: "monthly-instalments" }), DEFAULT_FUND_RULES.sadaqah),
    ).toMatchObject({ ok: false, errors: [{ field: "frequency" }] });
  });

  it.each([
    ["13", "Choose from 2 to 12 monthly payments."],
    ["1", "Choose from 2 to 12 monthly payments."],
    ["", "Choose from 2 to 12 monthly payments."],
  ])("count %j: %s", (instalments, message) => {
    expect(validateDonation(form({ instalments }), DEFAULT_FUND_RULES.zakat)).toMatchObject({
      ok: false,
      errors: [{ field: "instalments.count", message }],
    });
  });

  it("asks for fewer payments when one would be under the minimum gift", () => {
    expect(validateDonation(form({ amount: "100" }), DEFAULT_FUND_RULES.zakat)).toMatchObject({
      ok: false,
      errors: [
        {
          field: "instalments.count",
          code: "below_minimum",
          message: "Each monthly payment must be at least $10: choose fewer payments.",
        },
      ],
    });
  });

  it("the backend refuses a plan on another frequency", () => {
    const body = {
      fund: "sadaqah",
      amountCents: 5000,
      currency: "AUD",
      frequency: "once",
      instalments: { count: 3 },
      donor,
      anonymous: false,
      coverFees: false,
    };
    expect(validateDonationRequest(body, (f) => DEFAULT_FUND_RULES[f])).toMatchObject({
      ok: false,
      errors: [{ field: "instalments", code: "not_allowed" }],
    });
  });
});

describe("amounts said as precisely as the calculator says them", () => {
  it.each([
    ["1,20", "Check the comma: put cents after a decimal point, like 1.20, and group thousands in threes, like 1,200."],
    ["-20", "Enter an amount above $0, without a minus sign, like 50."],
    // Nothing about a minus sign for a 0: what the donor needs to know is the smallest gift.
    ["0", "The minimum gift is $10."],
    ["0.00", "The minimum gift is $10."],
    ["fifty", "Enter the amount as a number, like 50 or 50.25."],
  ])("%j: %s", (amount, message) => {
    expect(
      validateDonation(form({ amount, frequency: "once", instalments: undefined }), DEFAULT_FUND_RULES.zakat),
    ).toMatchObject({ ok: false, errors: [{ field: "amount", message }] });
  });
});

describe("the local payments API with an instalment plan", () => {
  let api: TestPaymentsService;
  beforeAll(async () => {
    await setServiceClock(() => new Date("2026-11-24T01:00:00Z"));
    api = await startTestPaymentsService();
  });
  afterAll(async () => {
    await api?.stop();
    restoreRealClock();
  });

  const post = (body: unknown, key: string) =>
    fetch(`${api.url}/donations`, {
      method: "POST",
      headers: { "Content-Type": "application/json", "Idempotency-Key": key },
      body: JSON.stringify(body),
    });

  it("answers with every payment, the count and the end date; the same key replays it; another count needs another key", async () => {
    const body = {
      fund: "zakat",
      amountCents: 48_900,
      currency: "AUD",
      frequency: "monthly-instalments",
      instalments: { count: 12 },
      donor,
      anonymous: false,
      coverFees: false,
    };
    const key = randomUUID();
    const first = await post(body, key);
    expect(first.status).toBe(201);
    const created = await first.json();
    expect(created).toMatchObject({
      intentType: "payment",
      frequency: "monthly-instalments",
      amountCents: 4075,
      totalCents: 4075,
      openEnded: false,
      scheduleTotalCents: 48_900,
      instalments: { count: 12, giftCents: 48_900, endDate: "2027-10-24" },
    });
    expect(created.schedule).toHaveLength(12);
    const again = await post(body, key);
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect(await again.json()).toEqual(created);
    expect((await post({ ...body, instalments: { count: 6 } }, key)).status).toBe(409);
    const state = await (await fetch(`${api.url}/donations/${created.donationId}`)).json();
    expect(state).toMatchObject({
      fund: "zakat",
      instalments: { count: 12, endDate: "2027-10-24" },
      scheduleTotalCents: 48_900,
    });
  });
});
