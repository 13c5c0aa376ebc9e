/**
 * A season moved after donors scheduled gifts for it: the editors change Ramadan's first night
 * (the moon was sighted a day later) and its length (29 nights), and the charges still to come
 * move to the dates the page now shows; the job then charges exactly those. Also the pure move
 * (charges made stay, the first one taken at checkout stays) and the seasons read from the content.
 */
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createRulesSource, type ContentDocument } from "../../../src/api/fund-rules-source.js";
import { movedSchedule } from "../../../src/api/jobs/season-moves.js";
import { runScheduledCharges } from "../../../src/api/jobs/scheduled-charges.js";
import { computeSchedule } from "../../../src/payments/schedules.js";
import type { SmtpCatcher } from "../../../src/stand-ins/smtp/catcher.js";
import { donationRequest } from "../../support/donation-request.js";
import { TEST_PUBLISHABLE_KEY, type TestPaymentsService } from "../../support/payments-service.js";
import { type MailingService, startMailingService } from "../../support/mailing-service.js";

const DAY = 86_400_000;
const SIGHTED = { start: "2027-02-08", length: 30 };
const RESIGHTED = { start: "2027-02-09", length: 29 };
let clock = new Date("2027-01-20T01:00:00Z");
let service: TestPaymentsService;
let catcher: SmtpCatcher;
let mailing: MailingService;

beforeAll(async () => {
  mailing = await startMailingService({
    start: clock,
    now: () => clock,
    settings: { NZF_RECEIPT_CONTACT_EMAIL: undefined, NZF_DONOR_CARE_EMAIL: undefined, SITE_URL: undefined },
  });
  ({ service, catcher } = mailing);
});
afterAll(async () => {
  await mailing?.stop();
});
beforeEach(async () => {
  clock = new Date("2027-01-20T01:00:00Z");
  service.deps.seasons = { ramadan: { ...SIGHTED } };
  await service.reset();
  catcher.clear();
});

const dates = (season: { start: string; length: number }, today: string) => {
  const planned = computeSchedule({ frequency: "ramadan-last-ten", today, chargeCents: 1_000, season });
  if (!planned.ok) throw new Error(planned.message);
  return planned.schedule.charges.map((c) => c.date);
};

describe("a season that moves", () => {
  it("moves the last ten nights' charges to the dates the page now shows, and the job charges exactly those", async () => {
    const res = await fetch(`${service.url}/donations`, {
      method: "POST",
      headers: { "Content-Type": "application/json", "Idempotency-Key": randomUUID() },
      body: JSON.stringify(
        donationRequest({ fund: "ramadan", amountCents: 1_000, frequency: "ramadan-last-ten", season: SIGHTED }),
      ),
    });
    expect(res.status).toBe(201);
    const created = (await res.json()) as { donationId: string; clientSecret: string; schedule: { date: string }[] };
    // What the page showed: nights 21 to 30 of a Ramadan from 8 February.
    expect(created.schedule.map((c) => c.date)).toEqual(dates(SIGHTED, "2027-01-20"));
    expect(created.schedule[0]!.date).toBe("2027-02-28");
    const confirmed = await fetch(
      `${service.stripe.url}/v1/setup_intents/${created.clientSecret.split("_secret_")[0]}/confirm`,
      {
        method: "POST",
        headers: { "Content-Type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({
          key: TEST_PUBLISHABLE_KEY,
          client_secret: created.clientSecret,
          payment_method: "pm_card_visa",
        }),
      },
    );
    expect(confirmed.status).toBe(200);
    await service.stripe.settled();

    // The moon is sighted a day later and the month has 29 nights: the editors change the page.
    service.deps.seasons = { ramadan: { ...RESIGHTED } };
    const shownNow = dates(RESIGHTED, "2027-02-07");
    expect(shownNow).toEqual([
      "2027-03-01",
      "2027-03-02",
      "2027-03-03",
      "2027-03-04",
      "2027-03-05",
      "2027-03-06",
      "2027-03-07",
      "2027-03-08",
      "2027-03-09",
    ]);
    clock = new Date("2027-02-07T01:00:00Z");
    const first = await runScheduledCharges(service.deps);
    const again = await runScheduledCharges(service.deps);
    expect(first.moved).toEqual([created.donationId]);
    expect(again.moved).toEqual([]);
    const row = await service.db
      .selectFrom("donations")
      .selectAll()
      .where("id", "=", created.donationId)
      .executeTakeFirstOrThrow();
    expect(row.schedule.map((c) => c.date)).toEqual(shownNow);
    expect(row.season).toEqual(RESIGHTED);
    expect(row.schedule_total_cents).toBe(9 * 1_000);
    // What GET /donations/{id} says now.
    const state = (await (await fetch(`${service.url}/donations/${created.donationId}`)).json()) as {
      schedule: { date: string }[];
    };
    expect(state.schedule.map((c) => c.date)).toEqual(shownNow);

    // The donor is told once.
    const mail = await catcher.waitFor((m) => m.subject === "New dates for your Ramadan gift to Ramadan");
    expect(mail.text).toContain("Ramadan now begins on 9 February 2027");
    expect(mail.text).toContain("9 charges of $10.00, from 1 March 2027 to 9 March 2027");

    // Through the season, once a day: charged on exactly the new nights, not on 28 February.
    for (let t = Date.parse("2027-02-27T01:00:00Z"); t <= Date.parse("2027-03-11T01:00:00Z"); t += DAY) {
      clock = new Date(t);
      await runScheduledCharges(service.deps);
      await service.stripe.settled();
    }
    const charged = await service.db
      .withTables<{ scheduled_charges: { donation_id: string; charge_date: string; status: string } }>()
      .selectFrom("scheduled_charges")
      .select(["charge_date", "status"])
      .where("donation_id", "=", created.donationId)
      .orderBy("charge_date")
      .execute();
    expect(charged.map((c) => c.charge_date)).toEqual(shownNow);
    expect(new Set(charged.map((c) => c.status))).toEqual(new Set(["succeeded"]));
    const atStripe = (
      await service.deps.stripe!.paymentIntents.search({ query: `metadata['donation_id']:'${created.donationId}'` })
    ).data.filter((pi) => pi.status === "succeeded");
    expect(atStripe.map((pi) => pi.amount)).toEqual(Array(9).fill(1_000));
    expect(catcher.messages().filter((m) => m.subject.startsWith("New dates"))).toHaveLength(1);
  });
});

describe("moving a schedule (pure)", () => {
  const nightly = (start: string, length: number, today: string) => {
    const planned = computeSchedule({
      frequency: "ramadan-nightly",
      today,
      chargeCents: 500,
      season: { start, length },
    });
    if (!planned.ok) throw new Error(planned.message);
    return planned.schedule.charges;
  };

  it("keeps the nights charged and drops the 30th when the month has 29 nights", () => {
    const schedule = nightly("2027-02-08", 30, "2027-02-08");
    const claimed = new Set(schedule.slice(1, 20).map((c) => c.date));
    const moved = movedSchedule({
      frequency: "ramadan-nightly",
      intentType: "payment",
      schedule,
      claimed,
      chargeCents: 500,
      season: { start: "2027-02-08", length: 29 },
      today: "2027-02-28",
    });
    expect(moved).toHaveLength(29);
    expect(moved.slice(0, 20)).toEqual(schedule.slice(0, 20));
    expect(moved.at(-1)!.date).toBe("2027-03-08");
  });

  it("keeps the first night paid at checkout and moves the rest a day later", () => {
    const schedule = nightly("2027-02-08", 30, "2027-02-08");
    const moved = movedSchedule({
      frequency: "ramadan-nightly",
      intentType: "payment",
      schedule,
      claimed: new Set(),
      chargeCents: 500,
      season: { start: "2027-02-09", length: 30 },
      today: "2027-02-08",
    });
    expect(moved[0]).toEqual({ date: "2027-02-08", amountCents: 500 });
    expect(moved[1]!.date).toBe("2027-02-09");
    expect(moved.at(-1)!.date).toBe("2027-03-10");
    expect(moved).toHaveLength(31);
  });
});

describe("the seasons from the content", () => {
  it("are the English pages' dates, updated in place when the content changes, and a broken one is left out", async () => {
    const page = (type: string, lang: string, start: unknown, length: unknown): ContentDocument => ({
      type,
      lang,
      data: { season_start: start, season_length: length },
    });
    let documents: ContentDocument[] = [
      page("ramadan", "ar-ae", "2027-02-07", 30),
      page("ramadan", "en-au", "2027-02-08", 30),
      page("dhul_hijjah", "en-au", "2027-05-07", 10),
    ];
    const source = createRulesSource({ load: async () => documents });
    await source.ready;
    const held = source.seasons;
    expect(held).toEqual({ ramadan: SIGHTED, dhulHijjah: { start: "2027-05-07", length: 10 } });
    documents = [page("ramadan", "en-au", "2027-02-09", 29), page("dhul_hijjah", "en-au", "2027-05-07", 11)];
    await source.refresh();
    expect(held).toEqual({ ramadan: RESIGHTED });
    source.stop();
  });
});
