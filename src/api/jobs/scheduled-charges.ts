/**
 * The scheduled charges job: every charge date the page showed the donor is charged on that date,
 * off session, with the saved card. Locally a timer in `nzf-build api` runs it; in production the
 * Lambda's scheduled invocation does (src/api/lambda.ts, `runJobs`). Idempotent per (plan, date):
 * each date is claimed in `scheduled_charges` before Stripe is asked, and the PaymentIntent's
 * idempotency key is `<donation>/charge/<date>`, so a second run, or a run after a crash between
 * the claim and Stripe's answer, gets the same intent and never a second charge. A paused or
 * cancelled plan is not charged; the dates that fall due while a plan is paused are recorded as
 * skipped, so resuming it does not charge them all at once. A date the donor skipped in the account
 * is already there as `skipped` (skips.ts): the claim finds it taken, and nothing is charged that
 * day. The payment's receipt comes from its webhook.
 *
 * A declined charge (retries.ts) is tried again on the same PaymentIntent on a stated schedule,
 * each try claimed and keyed (`<donation>/charge/<date>/try/<n>`) the same way. The first decline
 * e-mails the donor what happened, when we try again and what to do; the charge shows as failed in
 * the donor's history until a retry takes it; after the last retry the plan is paused and the
 * donor told so.
 */
import * as clock from "../../core/clock.js";
import type Stripe from "stripe";
import { todayIn } from "../../payments/schedules.js";
import type { DonationStatus } from "../../payments/types.js";
import { declinedChargeNotice, pausedPlanNotice, type ChargeNoticeGift } from "../../receipts/charge-notices.js";
import type { DonationRow } from "../db/schema.js";
import type { ApiDeps } from "../deps.js";
import { metadataOf } from "../stripe/intents.js";
import { dueCharges, JOB_FREQUENCIES } from "./due-charges.js";
import { MAX_ATTEMPTS, nextAttemptOn, retryDatesAfter, triedOn } from "./retries.js";
import { moveSeasonCharges } from "./season-moves.js";

const TIME_ZONE = "Australia/Sydney";

/** claimed (a try in flight) → succeeded | processing | retrying (declined, tried again on next_attempt_on) | failed; skipped: due while paused. */
export type ChargeStatus = "claimed" | "succeeded" | "processing" | "retrying" | "failed" | "skipped";

export type JobTables = {
  scheduled_charges: {
    donation_id: string;
    charge_date: string;
    amount_cents: number;
    status: ChargeStatus;
    payment_intent_id: string | null;
    error: string | null;
    attempts: number;
    next_attempt_on: string | null;
    decline_code: string | null;
    created_at: Date;
    updated_at: Date;
  };
  account_plans: {
    donation_id: string;
    amount_cents: number | null;
    paused: boolean;
    cancelled: boolean;
    updated_at: Date;
  };
};

type ChargeRow = JobTables["scheduled_charges"];

export interface JobReport {
  /** Dates charged by this run: `<donation>/<date>`. */
  charged: string[];
  failed: string[];
  /** Plans paused by this run, after a charge's last retry was declined. */
  paused: string[];
  /** Seasonal gifts whose remaining charges moved with their season (season-moves.ts). */
  moved: string[];
}

export async function runScheduledCharges(deps: ApiDeps): Promise<JobReport> {
  const report: JobReport = { charged: [], failed: [], paused: [], moved: [] };
  const stripe = deps.stripe;
  if (!stripe) return report;
  const now = clock.now();
  const today = todayIn(TIME_ZONE, now);
  // First: a season the editors moved moves the charges still to come (before any is charged today).
  report.moved = await moveSeasonCharges(deps, today);
  const db = deps.db.withTables<JobTables>();
  const gifts = await db
    .selectFrom("donations")
    .selectAll()
    .where("frequency", "in", [...JOB_FREQUENCIES])
    .where("status", "=", "succeeded" satisfies DonationStatus)
    .where("payment_method", "=", "card")
    .where("stripe_payment_method_id", "is not", null)
    .where("stripe_customer_id", "is not", null)
    .execute();
  const plans = gifts.length
    ? await db
        .selectFrom("account_plans")
        .selectAll()
        .where(
          "donation_id",
          "in",
          gifts.map((g) => g.id),
        )
        .execute()
    : [];
  const planOf = new Map(plans.map((p) => [p.donation_id, p]));
  for (const gift of gifts) {
    const plan = planOf.get(gift.id);
    if (plan?.cancelled) continue;
    let paused = plan?.paused === true;
    for (const due of dueCharges(gift, today)) {
      // The donor's new amount per charge (the account's), with the fee as first covered.
      const amount = plan?.amount_cents ? plan.amount_cents + gift.fee_cents : due.amountCents;
      const claimed = await db
        .insertInto("scheduled_charges")
        .values({
          donation_id: gift.id,
          charge_date: due.date,
          amount_cents: amount,
          status: paused ? "skipped" : "claimed",
          attempts: paused ? 0 : 1,
          created_at: now,
          updated_at: now,
        })
        .onConflict((oc) => oc.columns(["donation_id", "charge_date"]).doNothing())
        .returningAll()
        .executeTakeFirst();
      if (paused) continue;
      let row: ChargeRow | undefined = claimed;
      if (!row) {
        const earlier = await db
          .selectFrom("scheduled_charges")
          .selectAll()
          .where("donation_id", "=", gift.id)
          .where("charge_date", "=", due.date)
          .executeTakeFirstOrThrow();
        // Skipped by the donor or while paused, or charged already: nothing to do. Otherwise:
        // a run that died before Stripe answered: the same try again, with the same key.
        if (earlier.status === "claimed") row = earlier;
        // A declined charge whose next try is due: claimed for that try (one run wins).
        else if (earlier.status === "retrying" && earlier.next_attempt_on !== null && earlier.next_attempt_on <= today)
          row = await claimRetry(deps, earlier, now);
      }
      if (row) await attempt(deps, stripe, gift, row, { now, today, report });
      // Paused by this try's last decline: the later dates of this run are skipped like any paused plan's.
      paused = report.paused.includes(gift.id);
    }
  }
  return report;
}

async function claimRetry(deps: ApiDeps, row: ChargeRow, now: Date): Promise<ChargeRow | undefined> {
  return deps.db
    .withTables<JobTables>()
    .updateTable("scheduled_charges")
    .set({ status: "claimed", attempts: row.attempts + 1, next_attempt_on: null, updated_at: now })
    .where("donation_id", "=", row.donation_id)
    .where("charge_date", "=", row.charge_date)
    .where("status", "=", "retrying")
    .where("attempts", "=", row.attempts)
    .returningAll()
    .executeTakeFirst();
}

interface RunContext {
  now: Date;
  today: string;
  report: JobReport;
}

/** One try of one charge: the first creates the PaymentIntent, a retry confirms it again. */
async function attempt(deps: ApiDeps, stripe: Stripe, gift: DonationRow, row: ChargeRow, run: RunContext) {
  const db = deps.db.withTables<JobTables>();
  const tryNumber = Math.max(1, row.attempts);
  const key = `${gift.id}/${row.charge_date}`;
  const where = { donation_id: gift.id, charge_date: row.charge_date };
  const update = (values: Partial<ChargeRow>) =>
    db
      .updateTable("scheduled_charges")
      .set({ ...values, updated_at: run.now })
      .where("donation_id", "=", where.donation_id)
      .where("charge_date", "=", where.charge_date)
      .execute();
  try {
    const intent =
      tryNumber === 1 || !row.payment_intent_id
        ? await stripe.paymentIntents.create(
            {
              amount: row.amount_cents,
              currency: "aud",
              customer: gift.stripe_customer_id!,
              payment_method: gift.stripe_payment_method_id!,
              off_session: true,
              confirm: true,
              description: `NZF ${gift.fund} ${gift.reference} ${row.charge_date}`,
              metadata: {
                ...metadataOf(gift),
                charge_date: row.charge_date,
                total_cents: String(row.amount_cents),
              },
            },
            { idempotencyKey: `${gift.id}/charge/${row.charge_date}` },
          )
        : // The card the gift has now (the donor may have changed it since the decline).
          await stripe.paymentIntents.confirm(
            row.payment_intent_id,
            { payment_method: gift.stripe_payment_method_id!, off_session: true },
            { idempotencyKey: `${gift.id}/charge/${row.charge_date}/try/${tryNumber}` },
          );
    if (intent.status === "succeeded" || intent.status === "processing") {
      await update({
        status: intent.status === "succeeded" ? "succeeded" : "processing",
        payment_intent_id: intent.id,
        error: null,
        next_attempt_on: null,
      });
      run.report.charged.push(key);
      return;
    }
    // Not thrown, but not paid either (an authentication the donor cannot give off session).
    const lastError = intent.last_payment_error;
    await declined(deps, gift, row, tryNumber, run, {
      intentId: intent.id,
      code: lastError?.decline_code ?? lastError?.code ?? intent.status,
      message: lastError?.message ?? `The payment is ${intent.status}.`,
    });
  } catch (error) {
    const stripeError = error as Stripe.errors.StripeError;
    if (stripeError.type === "StripeCardError") {
      await declined(deps, gift, row, tryNumber, run, {
        intentId: stripeError.payment_intent?.id ?? row.payment_intent_id,
        code: stripeError.decline_code ?? stripeError.code ?? "card_declined",
        message: stripeError.message,
      });
      return;
    }
    // Stripe unreachable: the claim stays, and the next run asks again with the same key.
    deps.logger?.warn("api", `scheduled charge ${key} not made yet: ${(error as Error).message}`);
    run.report.failed.push(key);
  }
}

const giftOf = (gift: DonationRow): ChargeNoticeGift => ({
  donationId: gift.id,
  reference: gift.reference,
  fund: gift.fund,
  frequency: gift.frequency,
  donorFirstName: gift.donor_first_name,
  donorEmail: gift.donor_email,
});

/** A declined try: recorded where the donor sees it, tried again later, or the plan paused after the last. */
async function declined(
  deps: ApiDeps,
  gift: DonationRow,
  row: ChargeRow,
  tryNumber: number,
  run: RunContext,
  decline: { intentId: string | null; code: string; message: string },
) {
  const db = deps.db.withTables<JobTables>();
  const next = tryNumber < MAX_ATTEMPTS ? nextAttemptOn(row.charge_date, tryNumber) : null;
  // Already retrying elsewhere in this plan: the donor has been told once; no e-mail per charge.
  const othersRetrying = await db
    .selectFrom("scheduled_charges")
    .select("charge_date")
    .where("donation_id", "=", gift.id)
    .where("charge_date", "<>", row.charge_date)
    .where("status", "=", "retrying")
    .execute();
  await db
    .updateTable("scheduled_charges")
    .set({
      status: next ? "retrying" : "failed",
      payment_intent_id: decline.intentId,
      error: decline.message.slice(0, 500),
      decline_code: decline.code.slice(0, 100),
      next_attempt_on: next,
      updated_at: run.now,
    })
    .where("donation_id", "=", gift.id)
    .where("charge_date", "=", row.charge_date)
    .execute();
  // The donor's history: the charge, failed until a retry takes it (the webhook then marks it paid).
  if (decline.intentId)
    await deps.db
      .insertInto("charges")
      .values({
        id: decline.intentId,
        donation_id: gift.id,
        amount_cents: row.amount_cents,
        status: "failed",
        charged_at: run.now,
      })
      .onConflict((oc) => oc.column("id").doNothing())
      .execute();
  run.report.failed.push(`${gift.id}/${row.charge_date}`);
  const mail = deps.receipts;
  if (next) {
    if (tryNumber === 1 && othersRetrying.length === 0 && mail)
      await mail.notify(
        declinedChargeNotice({
          gift: giftOf(gift),
          chargeDate: row.charge_date,
          amountCents: row.amount_cents,
          declineCode: decline.code,
          retryDates: retryDatesAfter(row.charge_date, tryNumber),
          issuer: mail.issuer,
          ...(mail.accountUrl ? { accountUrl: mail.accountUrl } : {}),
        }),
        { kind: "charge-declined", donationId: gift.id },
      );
    return;
  }
  // The last retry was declined: pause the plan (the account's own record), give up the other retries.
  await db
    .insertInto("account_plans")
    .values({ donation_id: gift.id, amount_cents: null, paused: true, cancelled: false, updated_at: run.now })
    .onConflict((oc) => oc.column("donation_id").doUpdateSet({ paused: true, updated_at: run.now }))
    .execute();
  await db
    .updateTable("scheduled_charges")
    .set({ status: "failed", next_attempt_on: null, updated_at: run.now })
    .where("donation_id", "=", gift.id)
    .where("status", "=", "retrying")
    .execute();
  run.report.paused.push(gift.id);
  if (mail)
    await mail.notify(
      pausedPlanNotice({
        gift: giftOf(gift),
        chargeDate: row.charge_date,
        amountCents: row.amount_cents,
        declineCode: decline.code,
        triedOn: triedOn(row.charge_date, tryNumber),
        issuer: mail.issuer,
        ...(mail.accountUrl ? { accountUrl: mail.accountUrl } : {}),
      }),
      { kind: "plan-paused", donationId: gift.id },
    );
}
