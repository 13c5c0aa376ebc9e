/**
 * "Skip the next payment" for the plans the service's own job charges: every Friday, and the
 * seasons' nights. The donor skips the next date in the account (the GraphQL API, over HTTP); the
 * job, run twice a day as the clock moves, charges nothing that day and the next date as usual.
 * The attacker's tests first: another donor's token, a date that is not the next one, a forged
 * date, and a skip that comes after the job claimed the day, record nothing.
 * Dates by hand: Thursday 3 December 2026, noon in Sydney; Ramadan 2027 from 8 February.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runScheduledCharges } from "../../../src/api/jobs/scheduled-charges.js";
import { skipScheduledCharge } from "../../../src/api/jobs/skips.js";
import { type Account, type Harness, startAccountHarness } from "../../support/account-api-harness.js";

let clock = new Date("2026-12-03T01:00:00Z");
let h: Harness;
let donor: Account;
let other: Account;
let weekly: string;

const FIELDS =
  "changed message gift { status nextChargeDate endDate paidCount chargeCount scheduleTotalCents skippedCount canSkip afterSkip { nextChargeDate endDate } }";
const skip = async (id: string, date: string, token = donor.access) =>
  (
    await h.gql(
      `mutation($id: ID!, $date: String!) { skipRegularGiftCharge(id: $id, date: $date) { ${FIELDS} } }`,
      { id, date },
      token,
    )
  ).json;
const act = async (mutation: string, id: string) =>
  (await h.gql(`mutation($id: ID!) { ${mutation} }`, { id }, donor.access)).json;
const gift = async (id: string) =>
  (
    (await h.gql(`{ regularGifts { id ${FIELDS.slice(FIELDS.indexOf("gift {") + 6, -1)} } }`, {}, donor.access)).json
      .data.regularGifts as { id: string; [k: string]: unknown }[]
  ).find((g) => g.id === id)!;
const jobRows = (id: string) =>
  h.service.db
    .withTables<{ scheduled_charges: { donation_id: string; charge_date: string; status: string } }>()
    .selectFrom("scheduled_charges")
    .select(["charge_date", "status"])
    .where("donation_id", "=", id.slice(5))
    .orderBy("charge_date")
    .execute();
/** The days Stripe took a payment of this gift (the job's charges are keyed and dated). */
const chargedAtStripe = async (id: string) =>
  (await h.service.deps.stripe!.paymentIntents.search({ query: `metadata['donation_id']:'${id.slice(5)}'` })).data
    .filter((pi) => pi.status === "succeeded")
    .map((pi) => pi.metadata.charge_date)
    .sort();
/** The job twice on each day (noon in Sydney) from the clock's day to `last`. */
async function runDaysTo(last: string) {
  for (;;) {
    await runScheduledCharges(h.service.deps);
    await runScheduledCharges(h.service.deps);
    await h.service.stripe.settled();
    const next = new Date(clock.getTime() + 86_400_000);
    if (next.toISOString().slice(0, 10) > last) break;
    clock = next;
  }
}

beforeAll(async () => {
  h = await startAccountHarness({ now: () => clock });
  donor = await h.signUp("maryam@example.com");
  other = await h.signUp("yusuf@example.com");
  weekly = `gift_${await h.donate(
    { fund: "jumuah-giving", amountCents: 1_000, frequency: "weekly-friday" },
    "succeeded",
    donor.access,
  )}`;
}, 120_000);

afterAll(async () => {
  await h?.stop();
});

describe("skip the next payment of a plan the job charges", () => {
  it("every Friday: offered, with the date after it", async () => {
    expect(await gift(weekly)).toMatchObject({
      status: "ACTIVE",
      nextChargeDate: "2026-12-04",
      canSkip: true,
      afterSkip: { nextChargeDate: "2026-12-11", endDate: null },
    });
  });

  it("refuses another donor's token, a date that is not the next, a forged one; records nothing", async () => {
    expect((await skip(weekly, "2026-12-04", other.access)).errors[0].extensions.code).toBe("GIFT_NOT_FOUND");
    expect((await skip(weekly, "2026-12-11")).errors[0].extensions.code).toBe("SKIP_DATE_CHANGED");
    expect((await skip(weekly, "2026-12-03")).errors[0].extensions.code).toBe("SKIP_DATE_CHANGED");
    expect((await skip(weekly, "2026-12-04' or '1'='1")).errors[0].extensions.code).toBe("INVALID_DATE");
    expect(await jobRows(weekly)).toEqual([]);
  });

  it("skips next Friday: the job charges nothing that day and the Friday after as usual; a repeat changes nothing", async () => {
    const res = await skip(weekly, "2026-12-04");
    expect(res.data.skipRegularGiftCharge).toMatchObject({
      changed: true,
      message: "The payment of 4 December 2026 is skipped: nothing is charged then. The next is on 11 December 2026.",
      gift: { nextChargeDate: "2026-12-11", skippedCount: 1, afterSkip: { nextChargeDate: "2026-12-18" } },
    });
    const again = await skip(weekly, "2026-12-04");
    expect(again.data.skipRegularGiftCharge).toMatchObject({ changed: false, gift: { nextChargeDate: "2026-12-11" } });
    expect(again.data.skipRegularGiftCharge.message).toMatch(/already skipped/);
    expect(await jobRows(weekly)).toEqual([{ charge_date: "2026-12-04", status: "skipped" }]);

    await runDaysTo("2026-12-10");
    expect(await chargedAtStripe(weekly)).toEqual([]);
    expect(await gift(weekly)).toMatchObject({ nextChargeDate: "2026-12-11", paidCount: 0 });
    await runDaysTo("2026-12-12");
    expect(await chargedAtStripe(weekly)).toEqual(["2026-12-11"]);
    expect(await jobRows(weekly)).toEqual([
      { charge_date: "2026-12-04", status: "skipped" },
      { charge_date: "2026-12-11", status: "succeeded" },
    ]);
    const history = (await h.gql("{ donations { regularGiftId date status } }", {}, donor.access)).json.data.donations;
    expect(history).toEqual([{ regularGiftId: weekly, date: "2026-12-11", status: "SUCCEEDED" }]);
    expect(await gift(weekly)).toMatchObject({ nextChargeDate: "2026-12-18", paidCount: 1 });
  });

  it("a date the job already claimed cannot be skipped any more", async () => {
    clock = new Date("2026-12-17T14:00:00Z"); // 1 am on Friday 18 December in Sydney
    await runScheduledCharges(h.service.deps);
    await h.service.stripe.settled();
    await expect(skipScheduledCharge(h.service.deps, weekly.slice(5), "2026-12-18", 1_000)).rejects.toMatchObject({
      code: "SKIP_TOO_LATE",
    });
    expect((await jobRows(weekly)).at(-1)).toEqual({ charge_date: "2026-12-18", status: "succeeded" });
  });

  it("a skipped Friday stays skipped across a pause and a resume before it", async () => {
    clock = new Date("2026-12-20T01:00:00Z");
    expect((await skip(weekly, "2026-12-25")).data.skipRegularGiftCharge.changed).toBe(true);
    expect((await act("pauseRegularGift(id: $id) { changed }", weekly)).data.pauseRegularGift.changed).toBe(true);
    await runDaysTo("2026-12-21");
    const resumed = await act("resumeRegularGift(id: $id) { gift { nextChargeDate } }", weekly);
    expect(resumed.data.resumeRegularGift.gift.nextChargeDate).toBe("2027-01-01");
    await runDaysTo("2027-01-02");
    expect(await chargedAtStripe(weekly)).toEqual(["2026-12-11", "2026-12-18", "2027-01-01"]);
    expect(await gift(weekly)).toMatchObject({ nextChargeDate: "2027-01-08", skippedCount: 2 });
    // Done with it: a cancelled gift is not charged while the clock moves on to Ramadan.
    expect((await act("cancelRegularGift(id: $id, confirm: true) { changed }", weekly)).data).toBeTruthy();
  });

  it("Ramadan's last ten nights: the skipped night is not charged, the others stay on their nights", async () => {
    const season = { start: "2027-02-08", length: 30 };
    h.service.deps.seasons = { ramadan: { ...season } };
    clock = new Date("2027-02-26T01:00:00Z");
    const nights = `gift_${await h.donate(
      { fund: "ramadan", amountCents: 1_000, frequency: "ramadan-last-ten", season },
      "succeeded",
      donor.access,
    )}`;
    expect(await gift(nights)).toMatchObject({
      nextChargeDate: "2027-02-28",
      endDate: "2027-03-09",
      chargeCount: 10,
      scheduleTotalCents: 10_000,
      canSkip: true,
      afterSkip: { nextChargeDate: "2027-03-01", endDate: "2027-03-09" },
    });
    const res = await skip(nights, "2027-02-28");
    expect(res.data.skipRegularGiftCharge).toMatchObject({
      changed: true,
      message:
        "The payment of 28 February 2027 is skipped: nothing is charged then. The next is on 1 March 2027, and the last on 9 March 2027.",
      gift: { nextChargeDate: "2027-03-01", endDate: "2027-03-09", chargeCount: 9, scheduleTotalCents: 9_000 },
    });
    await runDaysTo("2027-03-02");
    expect(await chargedAtStripe(nights)).toEqual(["2027-03-01", "2027-03-02"]);
    expect(await gift(nights)).toMatchObject({ paidCount: 2, chargeCount: 9, nextChargeDate: "2027-03-03" });
    const history = (
      (await h.gql("{ donations { regularGiftId date chargeNumber chargeCount } }", {}, donor.access)).json.data
        .donations as { regularGiftId: string }[]
    ).filter((d) => d.regularGiftId === nights);
    expect(history).toEqual([
      { regularGiftId: nights, date: "2027-03-02", chargeNumber: 2, chargeCount: 9 },
      { regularGiftId: nights, date: "2027-03-01", chargeNumber: 1, chargeCount: 9 },
    ]);
    // The weekly gift was cancelled: nothing charged since.
    expect(await chargedAtStripe(weekly)).toEqual(["2026-12-11", "2026-12-18", "2027-01-01"]);
  });

  it("a skipped day stays skipped when the editors move the season; the season's other days are charged", async () => {
    const season = { start: "2027-05-17", length: 10 };
    h.service.deps.seasons = { dhulHijjah: { ...season } };
    clock = new Date("2027-05-15T02:00:00Z");
    const days = `gift_${await h.donate(
      { fund: "dhul-hijjah", amountCents: 1_000, frequency: "dhul-hijjah-ten-days", season },
      "succeeded",
      donor.access,
    )}`;
    expect((await skip(days, "2027-05-17")).data.skipRegularGiftCharge.changed).toBe(true);
    // The moon is sighted a day early: the ten days are 16 to 25 May.
    h.service.deps.seasons = { dhulHijjah: { start: "2027-05-16", length: 10 } };
    clock = new Date("2027-05-16T02:00:00Z");
    await runDaysTo("2027-05-18");
    expect(await chargedAtStripe(days)).toEqual(["2027-05-16", "2027-05-18"]);
    expect(await gift(days)).toMatchObject({ chargeCount: 9, endDate: "2027-05-25", nextChargeDate: "2027-05-19" });
  });
});
