/**
 * The scheduled charges job: every charge date the page showed the donor is charged on that date,
 * off session, with the saved card. Locally a timer in `nzf-build api` runs it; in production the
 * Lambda's scheduled invocation does (src/api/lambda.ts, `runJobs`). Idempotent per (plan, date):
 * each date is claimed in `scheduled_charges` before Stripe is asked, and the PaymentIntent's
 * idempotency key is `<donation>/charge/<date>`, so a second run, or a run after a crash between
 * the claim and Stripe's answer, gets the same intent and never a second charge. A paused or
 * cancelled plan (the account's) is not charged. The payment's receipt comes from its webhook.
 */
import type Stripe from "stripe";
import { todayIn } from "../../payments/schedules.js";
import type { DonationStatus } from "../../payments/types.js";
import type { ApiDeps } from "../deps.js";
import { metadataOf } from "../stripe/intents.js";
import { dueCharges, JOB_FREQUENCIES } from "./due-charges.js";

const TIME_ZONE = "Australia/Sydney";

type JobTables = {
  scheduled_charges: {
    donation_id: string;
    charge_date: string;
    amount_cents: number;
    status: string;
    payment_intent_id: string | null;
    error: string | null;
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

export interface JobReport {
  /** Dates charged by this run: `<donation>/<date>`. */
  charged: string[];
  failed: string[];
}

export async function runScheduledCharges(deps: ApiDeps): Promise<JobReport> {
  const report: JobReport = { charged: [], failed: [] };
  const stripe = deps.stripe;
  if (!stripe) return report;
  const now = (deps.now ?? (() => new Date()))();
  const today = todayIn(TIME_ZONE, now);
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
    if (plan?.paused || plan?.cancelled) continue;
    for (const due of dueCharges(gift, today)) {
      // The donor's new amount per charge (the account's), with the fee as first covered.
      const amount = plan?.amount_cents ? plan.amount_cents + gift.fee_cents : due.amountCents;
      const claimed = await db
        .insertInto("scheduled_charges")
        .values({
          donation_id: gift.id,
          charge_date: due.date,
          amount_cents: amount,
          status: "claimed",
          created_at: now,
          updated_at: now,
        })
        .onConflict((oc) => oc.columns(["donation_id", "charge_date"]).doNothing())
        .returning("amount_cents")
        .executeTakeFirst();
      let chargeCents = claimed?.amount_cents;
      if (chargeCents === undefined) {
        // Already claimed: charged, or a run that died before Stripe answered (then ask again, same key).
        const earlier = await db
          .selectFrom("scheduled_charges")
          .selectAll()
          .where("donation_id", "=", gift.id)
          .where("charge_date", "=", due.date)
          .executeTakeFirstOrThrow();
        if (earlier.status !== "claimed") continue;
        chargeCents = earlier.amount_cents;
      }
      const key = `${gift.id}/${due.date}`;
      try {
        const intent = await stripe.paymentIntents.create(
          {
            amount: chargeCents,
            currency: "aud",
            customer: gift.stripe_customer_id!,
            payment_method: gift.stripe_payment_method_id!,
            off_session: true,
            confirm: true,
            description: `NZF ${gift.fund} ${gift.reference} ${due.date}`,
            metadata: { ...metadataOf(gift), charge_date: due.date, total_cents: String(chargeCents) },
          },
          { idempotencyKey: `${gift.id}/charge/${due.date}` },
        );
        await db
          .updateTable("scheduled_charges")
          .set({
            status:
              intent.status === "succeeded" ? "succeeded" : intent.status === "processing" ? "processing" : "failed",
            payment_intent_id: intent.id,
            updated_at: now,
          })
          .where("donation_id", "=", gift.id)
          .where("charge_date", "=", due.date)
          .execute();
        (intent.status === "succeeded" || intent.status === "processing" ? report.charged : report.failed).push(key);
      } catch (error) {
        const stripeError = error as Stripe.errors.StripeError;
        // A decline is an answer: recorded, not asked again by this job (the donor is told; see docs).
        if (stripeError.type === "StripeCardError") {
          await db
            .updateTable("scheduled_charges")
            .set({
              status: "failed",
              payment_intent_id: stripeError.payment_intent?.id ?? null,
              error: stripeError.message.slice(0, 500),
              updated_at: now,
            })
            .where("donation_id", "=", gift.id)
            .where("charge_date", "=", due.date)
            .execute();
          report.failed.push(key);
          continue;
        }
        // Stripe unreachable: the claim stays, and the next run asks again with the same key.
        deps.logger?.warn("api", `scheduled charge ${key} not made yet: ${(error as Error).message}`);
        report.failed.push(key);
      }
    }
  }
  return report;
}
