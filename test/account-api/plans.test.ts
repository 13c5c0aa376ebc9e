/**
 * Plans are first-class and the history is truthful, over HTTP: 12 monthly zakat instalments show
 * as one plan ("1 of 12", the next date, the end date), each later charge joins the history paid
 * or failed, a checkout never paid shows nowhere, and every change goes to the payment provider
 * first: when the provider fails, nothing changes. Dates worked out by hand from 15 March 2026.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { localPlanProvider } from "../../src/account-api/plan-provider.js";
import { type Account, type Harness, startAccountHarness } from "../support/account-api-harness.js";

let h: Harness;
let donor: Account;
/** 15 March 2026, noon in Sydney. */
const clock = new Date("2026-03-15T01:00:00Z");
const provider = { ...localPlanProvider(), failing: false };
const PLAN_FIELDS =
  "id reference fund schedule openEnded amountCents totalCents status paidCount chargeCount nextChargeDate endDate startDate scheduleTotalCents";
let planId: string;
let donationId: string;

const plans = async () => (await h.gql(`{ regularGifts { ${PLAN_FIELDS} } }`, {}, donor.access)).json.data.regularGifts;
const history = async () =>
  (
    await h.gql(
      "{ donations { id fund schedule totalCents date status chargeNumber chargeCount receipt { number } } }",
      {},
      donor.access,
    )
  ).json.data.donations;

beforeAll(async () => {
  const base = provider;
  const failIf =
    <A extends unknown[]>(f: (...a: A) => Promise<unknown>) =>
    async (...a: A) => {
      if (provider.failing) throw new Error("ECONNRESET");
      await f(...a);
    };
  h = await startAccountHarness({
    now: () => clock,
    provider: {
      pause: failIf(base.pause),
      resume: failIf(base.resume),
      changeAmount: failIf(base.changeAmount),
      cancel: failIf(base.cancel),
      cardChange: base.cardChange,
      skipNext: failIf(base.skipNext),
    },
  });
  donor = await h.signUp("hafsa@example.com");
  // $1,200 of zakat in 12 monthly instalments of $100, the first today.
  donationId = await h.donate(
    { fund: "zakat", amountCents: 120_000, frequency: "monthly-instalments", instalments: { count: 12 } },
    "succeeded",
    donor.access,
  );
  // Abandoned checkouts: a one-off and a monthly gift whose card step was never finished.
  await h.donate({ fund: "sadaqah", amountCents: 5_000 }, "requires_payment_method", donor.access);
  await h.donate(
    { fund: "sadaqah", amountCents: 2_500, frequency: "monthly" },
    "requires_payment_method",
    donor.access,
  );
  await h.donate({ fund: "sadaqah", amountCents: 2_500 }, "requires_payment_method");
}, 60_000);

afterAll(async () => {
  await h?.stop();
});

describe("plans and history", () => {
  it("shows 12 monthly instalments as one plan, 1 of 12, with the next and the last date", async () => {
    const [plan, ...others] = await plans();
    expect(others).toEqual([]);
    planId = plan.id;
    expect(plan).toMatchObject({
      fund: "zakat",
      schedule: "monthly-instalments",
      openEnded: false,
      amountCents: 10_000,
      status: "ACTIVE",
      paidCount: 1,
      chargeCount: 12,
      startDate: "2026-03-15",
      nextChargeDate: "2026-04-15",
      endDate: "2027-02-15",
      scheduleTotalCents: 120_000,
    });
    expect(plan.reference).toMatch(/^NZF-/);
  });

  it("lists each charge that happened, never a checkout that was not paid", async () => {
    expect(await history()).toEqual([
      expect.objectContaining({
        fund: "zakat",
        date: "2026-03-15",
        status: "SUCCEEDED",
        chargeNumber: 1,
        chargeCount: 12,
      }),
    ]);
    // The guest's abandoned checkout is not offered to anyone either.
    expect((await h.gql("{ claimableGuestGifts }", {}, donor.access)).json.data.claimableGuestGifts).toBe(0);

    // The provider reports the second instalment paid, the third failed.
    await h.recordCharge(donationId, { id: "in_2", date: "2026-04-15", status: "succeeded" });
    await h.recordCharge(donationId, { id: "in_3", date: "2026-05-15", status: "failed" });
    const rows = await history();
    expect(
      rows.map((r: { chargeNumber: number; status: string; date: string }) => [r.chargeNumber, r.status, r.date]),
    ).toEqual([
      [3, "FAILED", "2026-05-15"],
      [2, "SUCCEEDED", "2026-04-15"],
      [1, "SUCCEEDED", "2026-03-15"],
    ]);
    // Each paid charge has its own receipt; a failed one has none.
    expect(rows.map((r: { receipt: { number: string } | null }) => r.receipt?.number ?? null)).toEqual([
      null,
      `${rows[2].receipt.number}-02`,
      expect.stringMatching(/^NZF-[0-9A-Z]{4}-[0-9A-Z]{4}$/),
    ]);
    const [plan] = await plans();
    // Two paid of twelve; the next is the fourth's date (a retry of the third is the provider's,
    // and replaces the failed row when it succeeds).
    expect(plan).toMatchObject({ paidCount: 2, chargeCount: 12, nextChargeDate: "2026-06-15" });
  });

  it("pauses, changes and resumes the plan at the provider first; a provider failure changes nothing", async () => {
    const run = (m: string, vars: Record<string, unknown> = {}) =>
      h.gql(`mutation($id: ID!) { ${m} }`, { id: planId, ...vars }, donor.access);
    provider.failing = true;
    const down = await run("pauseRegularGift(id: $id) { changed }");
    expect(down.json.errors[0].extensions.code).toBe("PROVIDER_UNAVAILABLE");
    expect(down.json.errors[0].message).toMatch(/nothing was changed/);
    expect((await plans())[0].status).toBe("ACTIVE");
    provider.failing = false;

    const paused = await run("pauseRegularGift(id: $id) { changed message gift { status nextChargeDate } }");
    expect(paused.json.data.pauseRegularGift).toEqual({
      changed: true,
      message: "Your Zakat instalment plan is paused. Nothing more will be charged until you resume it.",
      gift: { status: "PAUSED", nextChargeDate: null },
    });
    const changed = await run("changeRegularGiftAmount(id: $id, amountCents: 15000) { changed gift { amountCents } }");
    expect(changed.json.data.changeRegularGiftAmount).toEqual({ changed: true, gift: { amountCents: 15_000 } });
    const resumed = await run("resumeRegularGift(id: $id) { changed gift { status } }");
    expect(resumed.json.data.resumeRegularGift).toEqual({ changed: true, gift: { status: "ACTIVE" } });
    // No saved card with the local provider: said plainly, never an office phone number.
    const card = await run("changeRegularGiftCard(id: $id) { clientSecret message }");
    expect(card.json.errors[0].extensions.code).toBe("CARD_CHANGE_UNAVAILABLE");
    expect(card.json.errors[0].message).not.toMatch(/call us/);
    expect(provider.calls).toEqual([`pause ${planId}`, `change ${planId} 15000`, `resume ${planId}`, `card ${planId}`]);
  });

  it("a finished schedule is complete and cannot be changed", async () => {
    for (let n = 3; n <= 12; n++) {
      const month = String(((3 + n - 2) % 12) + 1).padStart(2, "0");
      await h.recordCharge(donationId, {
        id: `in_${n}`,
        date: `${n <= 10 ? 2026 : 2027}-${month}-15`,
        status: "succeeded",
      });
    }
    const [plan] = await plans();
    expect(plan).toMatchObject({ status: "COMPLETED", paidCount: 12, nextChargeDate: null });
    const pause = await h.gql(
      `mutation($id: ID!) { pauseRegularGift(id: $id) { changed } }`,
      { id: planId },
      donor.access,
    );
    expect(pause.json.errors[0].extensions.code).toBe("GIFT_CANCELLED");
    expect(pause.json.errors[0].message).toMatch(/is complete/);
    expect((await history()).filter((r: { status: string }) => r.status === "SUCCEEDED")).toHaveLength(12);
  });
});
