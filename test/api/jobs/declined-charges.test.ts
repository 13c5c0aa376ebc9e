/**
 * A declined scheduled charge, from the donor's side, through the Stripe stand-in's declining test
 * cards: the charge is tried again on the stated schedule (the day after, then 3 and 7 days after
 * its date), the donor gets one e-mail saying what happened and what to do, the plan pauses after
 * the last retry (with a second e-mail), and the donor's charges history shows it all. A retry
 * with a card the donor changed takes the charge: the same history row becomes paid, with a receipt.
 */
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createDbRecords } from "../../../src/account-api/db-records.js";
import { giftView, historyOf } from "../../../src/account-api/facts.js";
import { RETRY_AFTER_DAYS, retryDatesAfter } from "../../../src/api/jobs/retries.js";
import { runScheduledCharges } from "../../../src/api/jobs/scheduled-charges.js";
import { receiptsOf } from "../../../src/api/receipts/issue.js";
import { declinedChargeNotice } from "../../../src/receipts/charge-notices.js";
import { noticeText } from "../../../src/receipts/notice.js";
import type { SmtpCatcher } from "../../../src/stand-ins/smtp/catcher.js";
import { donationRequest } from "../../support/donation-request.js";
import { TEST_PUBLISHABLE_KEY, type TestPaymentsService } from "../../support/payments-service.js";
import { type MailingService, startMailingService } from "../../support/mailing-service.js";

// Thursday 3 December 2026, noon in Sydney.
const THURSDAY = new Date("2026-12-03T01:00:00Z");
const DAY = 86_400_000;
let clock = THURSDAY;
let service: TestPaymentsService;
let catcher: SmtpCatcher;
let mailing: MailingService;

beforeAll(async () => {
  mailing = await startMailingService({
    start: clock,
    now: () => clock,
    settings: { NZF_DONOR_CARE_EMAIL: undefined },
  });
  ({ service, catcher } = mailing);
});
afterAll(async () => {
  await mailing?.stop();
});
beforeEach(async () => {
  clock = THURSDAY;
  await service.reset();
  catcher.clear();
});

/** "Every Friday" chosen on Thursday by a donor with a unique e-mail, the card saved as Stripe.js saves it. */
async function everyFriday(amountCents: number, card: string): Promise<{ donationId: string; email: string }> {
  const email = `donor-${randomUUID()}@example.com`;
  const res = await fetch(`${service.url}/donations`, {
    method: "POST",
    headers: { "Content-Type": "application/json", "Idempotency-Key": randomUUID() },
    body: JSON.stringify(
      donationRequest({
        fund: "jumuah-giving",
        amountCents,
        frequency: "weekly-friday",
        donor: { firstName: "Aisha", lastName: "Rahman", email, phone: "0412 345 678" },
      }),
    ),
  });
  expect(res.status).toBe(201);
  const created = (await res.json()) as { donationId: string; clientSecret: string; intentType: string };
  expect(created.intentType).toBe("setup");
  const confirmed = await fetch(
    `${service.stripe.url}/v1/setup_intents/${created.clientSecret.split("_secret_")[0]}/confirm`,
    {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({
        key: TEST_PUBLISHABLE_KEY,
        client_secret: created.clientSecret,
        payment_method: card,
      }),
    },
  );
  expect(confirmed.status).toBe(200);
  await service.stripe.settled();
  return { donationId: created.donationId, email };
}

/** The job twice on each day from `from` to `to` (Sydney noon), as the 15-minute timer would. */
async function runDays(from: string, to: string) {
  for (let t = Date.parse(`${from}T01:00:00Z`); t <= Date.parse(`${to}T01:00:00Z`); t += DAY) {
    clock = new Date(t);
    await runScheduledCharges(service.deps);
    await runScheduledCharges(service.deps);
    await service.stripe.settled();
  }
}

const rowsOf = (donationId: string) =>
  service.db
    .withTables<{
      scheduled_charges: { donation_id: string; charge_date: string; status: string; attempts: number };
    }>()
    .selectFrom("scheduled_charges")
    .select(["charge_date", "status", "attempts"])
    .where("donation_id", "=", donationId)
    .orderBy("charge_date")
    .execute();

/** The job's requests to Stripe for one gift: each is keyed `<donation>/charge/<date>[/try/<n>]`. */
const tries = (donationId: string) =>
  service.stripe.requests().filter((r) => r.idempotencyKey?.startsWith(`${donationId}/charge/`));

const historyFor = async (email: string) => {
  const [facts] = await createDbRecords(service.db as never).guestsLike(email);
  return { history: historyOf(facts!), gift: giftView(facts!, "2026-12-20") };
};

describe("a declined scheduled charge", () => {
  it("is tried again on the stated schedule, the donor told once, and the plan paused after the last retry", async () => {
    expect(RETRY_AFTER_DAYS).toEqual([1, 3, 7]);
    const { donationId, email } = await everyFriday(1_000, "pm_card_chargeCustomerFail");
    // The account shows a declined charge's tries to come, each gone once tried, none once paused.
    const retriesShown = async () => (await historyFor(email)).history.map((h) => [h.status, h.retryDates]);
    await runDays("2026-12-03", "2026-12-04");
    expect(await retriesShown()).toEqual([["FAILED", ["2026-12-05", "2026-12-07", "2026-12-11"]]]);
    await runDays("2026-12-05", "2026-12-06");
    expect(await retriesShown()).toEqual([["FAILED", ["2026-12-07", "2026-12-11"]]]);
    await runDays("2026-12-07", "2026-12-19");
    expect(await retriesShown()).toEqual([["FAILED", []]]);

    // One charge (4 December), four tries: 4, 5, 7 and 11 December; later Fridays skipped while paused.
    expect(await rowsOf(donationId)).toEqual([
      { charge_date: "2026-12-04", status: "failed", attempts: 4 },
      { charge_date: "2026-12-11", status: "skipped", attempts: 0 },
      { charge_date: "2026-12-18", status: "skipped", attempts: 0 },
    ]);
    const [intent, ...others] = (
      await service.deps.stripe!.paymentIntents.search({ query: `metadata['donation_id']:'${donationId}'` })
    ).data;
    expect(others).toEqual([]);
    expect(intent!.status).toBe("requires_payment_method");
    // The create, then one confirm per retry: each try asked Stripe once although the job ran twice a day.
    expect(tries(donationId).map((r) => [r.path, r.idempotencyKey, r.status])).toEqual([
      ["/v1/payment_intents", `${donationId}/charge/2026-12-04`, 402],
      [`/v1/payment_intents/${intent!.id}/confirm`, `${donationId}/charge/2026-12-04/try/2`, 402],
      [`/v1/payment_intents/${intent!.id}/confirm`, `${donationId}/charge/2026-12-04/try/3`, 402],
      [`/v1/payment_intents/${intent!.id}/confirm`, `${donationId}/charge/2026-12-04/try/4`, 402],
    ]);

    // The plan is paused, not cancelled.
    const plan = await service.db
      .withTables<{ account_plans: { donation_id: string; paused: boolean; cancelled: boolean } }>()
      .selectFrom("account_plans")
      .select(["paused", "cancelled"])
      .where("donation_id", "=", donationId)
      .executeTakeFirstOrThrow();
    expect(plan).toEqual({ paused: true, cancelled: false });

    // Two e-mails: the decline (what happened, the retry dates, what to do) and the pause.
    await catcher.waitFor(() => catcher.messages().length >= 2);
    const mail = catcher.messages();
    expect(mail.map((m) => [m.to, m.subject])).toEqual([
      [email, "Your $10.00 gift to Jumu'ah giving did not go through"],
      [email, "We have paused your gift to Jumu'ah giving"],
    ]);
    const declined = mail[0]!.text;
    expect(declined).toContain("On 4 December 2026 we tried to charge $10.00 for your every-Friday gift");
    expect(declined).toContain("The bank declined the payment without giving a reason.");
    expect(declined).toContain("We will try again on 5 December 2026, 7 December 2026 and 11 December 2026.");
    expect(declined).toContain("Change card");
    expect(declined).toContain("https://nzf.org.au/account/");
    expect(mail[0]!.html).toContain('href="https://nzf.org.au/account/"');
    expect(mail[1]!.text).toContain("(4 December 2026, 5 December 2026, 7 December 2026 and 11 December 2026)");
    expect(mail[1]!.text).toContain("it is not cancelled");

    // The donor's history: the charge, failed; the plan, paused; no receipt.
    const { history, gift } = await historyFor(email);
    expect(history.map((h) => [h.date, h.totalCents, h.status, h.receipt])).toEqual([
      ["2026-12-04", 1_000, "FAILED", null],
    ]);
    expect(gift.status).toBe("PAUSED");
    expect(await receiptsOf(service.db, donationId)).toEqual([]);
  });

  it("is taken by a retry once the donor changed the card: the same history row is paid, with a receipt", async () => {
    const { donationId, email } = await everyFriday(2_500, "pm_card_chargeCustomerFail");
    await runDays("2026-12-03", "2026-12-04");
    const first = await catcher.waitFor((m) => m.subject.includes("did not go through"));
    expect(first.text).toContain("We will try again on 5 December 2026,");
    expect((await historyFor(email)).history.map((h) => h.status)).toEqual(["FAILED"]);

    // The donor changes the card (the account's card page saves a new one to the gift).
    const donation = await service.db
      .selectFrom("donations")
      .selectAll()
      .where("id", "=", donationId)
      .executeTakeFirstOrThrow();
    const card = await service.deps.stripe!.paymentMethods.attach("pm_card_visa", {
      customer: donation.stripe_customer_id!,
    });
    await service.db
      .updateTable("donations")
      .set({ stripe_payment_method_id: card.id })
      .where("id", "=", donationId)
      .execute();

    await runDays("2026-12-05", "2026-12-11");
    expect(await rowsOf(donationId)).toEqual([
      { charge_date: "2026-12-04", status: "succeeded", attempts: 2 },
      { charge_date: "2026-12-11", status: "succeeded", attempts: 1 },
    ]);
    const { history, gift } = await historyFor(email);
    expect(history.map((h) => [h.date, h.totalCents, h.status, h.receipt?.number])).toEqual([
      ["2026-12-11", 2_500, "SUCCEEDED", "2026-27/000002"],
      // The charge of 4 December, paid by the retry of the 5th: the row that showed FAILED.
      ["2026-12-05", 2_500, "SUCCEEDED", "2026-27/000001"],
    ]);
    expect(gift.status).toBe("ACTIVE");
    await catcher.waitFor(() => catcher.messages().length >= 3);
    expect(catcher.messages().map((m) => m.subject)).toEqual([
      "Your $25.00 gift to Jumu'ah giving did not go through",
      "Your receipt 2026-27/000001 for your gift",
      "Your receipt 2026-27/000002 for your gift",
    ]);
  });

  it("takes no receipt number: another donor's receipts run on without a gap through every declined try", async () => {
    const declining = await everyFriday(1_000, "pm_card_chargeCustomerFail");
    const paying = await everyFriday(2_000, "pm_card_visa");
    // The declining gift is tried on 4, 5, 7 and 11 December; the paying one is charged on 4, 11 and 18.
    await runDays("2026-12-03", "2026-12-18");
    expect((await rowsOf(declining.donationId)).map((r) => r.status)).toEqual(["failed", "skipped", "skipped"]);
    expect(await receiptsOf(service.db, declining.donationId)).toEqual([]);
    const numbers = (await receiptsOf(service.db, paying.donationId)).map((r) => r.number);
    expect(numbers).toEqual(["2026-27/000001", "2026-27/000002", "2026-27/000003"]);
    const { history } = await historyFor(paying.email);
    expect(history.map((h) => h.receipt?.number)).toEqual([...numbers].reverse());
  });

  it("charges no later date in the run that pauses the plan, and the words say why when the bank does", async () => {
    const { donationId } = await everyFriday(1_000, "pm_card_chargeCustomerFail");
    // The last retry of 4 December falls on the next Friday, the 11th: declined, so the 11th is not tried.
    await runDays("2026-12-03", "2026-12-11");
    expect(await rowsOf(donationId)).toEqual([
      { charge_date: "2026-12-04", status: "failed", attempts: 4 },
      { charge_date: "2026-12-11", status: "skipped", attempts: 0 },
    ]);
    await catcher.waitFor(() => catcher.messages().length >= 2);
    expect(catcher.messages().map((m) => m.subject)).toEqual([
      "Your $10.00 gift to Jumu'ah giving did not go through",
      "We have paused your gift to Jumu'ah giving",
    ]);
    const words = declinedChargeNotice({
      gift: {
        donationId,
        reference: "NZF-TEST",
        fund: "ramadan",
        frequency: "ramadan-nightly",
        donorFirstName: "Aisha",
        donorEmail: "a@example.com",
      },
      chargeDate: "2027-02-08",
      amountCents: 1_000,
      declineCode: "insufficient_funds",
      retryDates: retryDatesAfter("2027-02-08", 1),
      issuer: { name: "National Zakat Foundation Australia", abn: "51 824 753 556" },
    });
    expect(noticeText(words)).toContain(
      "for your gift for every night of Ramadan, and your bank declined it. The bank said there were not enough funds on the card.",
    );
    expect(noticeText(words)).toContain("We will try again on 9 February 2027, 11 February 2027 and 15 February 2027.");
  });
});
