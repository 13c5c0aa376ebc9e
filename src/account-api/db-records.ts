/**
 * The account's records in the payments service's database (PostgreSQL, or PGlite), through
 * Kysely: donations by `user_sub`, their charges (one row per paid intent or invoice), the
 * receipts the service issued for them, and the donor's plan choices (`account_plans`, migration
 * 0003). The tables are named here by the columns read, so this folder needs nothing from the
 * service's code (the service imports this one, not the other way round).
 */
import * as clock from "../core/clock.js";
import type { ColumnType, Kysely, Selectable } from "kysely";
import { retryDatesAfter } from "../payments/retry-schedule.js";
import { todayIn } from "../payments/schedules.js";
import type { DonationStatus, Fund, InstalmentPlan, ScheduledCharge } from "../payments/types.js";
import type { ChargeFacts, DonationFacts, PlanState } from "./facts.js";
import type { AccountRecords } from "./store.js";

type Timestamp = ColumnType<Date, Date | string, Date | string>;
type Json<T> = ColumnType<T, string | T, string | T>;

/** The columns of the service's tables that the account reads or writes. */
export interface AccountTables {
  donations: {
    id: string;
    reference: string;
    fund: string;
    frequency: string;
    payment_method: string;
    intent_type: "payment" | "setup";
    currency: string;
    amount_cents: number;
    fee_cents: number;
    total_cents: number;
    schedule_total_cents: number | null;
    open_ended: boolean;
    schedule: Json<ScheduledCharge[]>;
    instalments: Json<InstalmentPlan> | null;
    status: DonationStatus;
    donor_first_name: string;
    donor_last_name: string;
    donor_email: string;
    cover_fees: boolean;
    user_sub: string | null;
    stripe_subscription_id: string | null;
    stripe_billing_anchor: Timestamp | null;
    stripe_anchor_skips: number;
    stripe_anchor_charge: number;
    card_brand: string | null;
    card_last4: string | null;
    card_exp_month: number | null;
    card_exp_year: number | null;
    created_at: Timestamp;
    updated_at: Timestamp;
  };
  charges: { id: string; donation_id: string; amount_cents: number; status: string; charged_at: Timestamp };
  receipts: {
    number: string;
    kind: string;
    donation_id: string;
    charge_id: string;
    body: Json<{ taxDeductible?: boolean }>;
    voided_at: Timestamp | null;
  };
  /** The job's charges of scheduled gifts: a declined one is `retrying` until its last try; `skipped` is never charged. */
  scheduled_charges: {
    donation_id: string;
    charge_date: string;
    status: string;
    payment_intent_id: string | null;
    attempts: number;
  };
  account_plans: {
    donation_id: string;
    amount_cents: number | null;
    paused: boolean;
    cancelled: boolean;
    pending_amount_cents: number | null;
    pending_total_cents: number | null;
    skips: number;
    updated_at: Timestamp;
  };
}

const TIME_ZONE = "Australia/Sydney";

/**
 * Where Stripe's billing of a card plan is anchored (src/payments/billing-dates.ts): kept since
 * migration 0010; before it, a monthly gift's subscription was made with the donation, and an
 * instalment plan's schedule started at midnight in Sydney on its second date.
 */
function billingAnchorOf(
  r: Pick<
    Row,
    "frequency" | "payment_method" | "stripe_billing_anchor" | "stripe_subscription_id" | "created_at" | "schedule"
  >,
): string | null {
  if (r.payment_method !== "card") return null;
  if (r.stripe_billing_anchor) return new Date(r.stripe_billing_anchor).toISOString();
  if (r.frequency === "monthly" && r.stripe_subscription_id) return new Date(r.created_at).toISOString();
  const second = r.frequency === "monthly-instalments" ? r.schedule[1]?.date : undefined;
  return second ? new Date(`${second}T00:00:00+10:00`).toISOString() : null;
}
/** A guest's e-mail is looked up case-blind; at most this many candidates are checked exactly. */
const GUEST_CANDIDATES = 200;

type Row = Selectable<AccountTables["donations"]>;

export function createDbRecords(anyDb: Kysely<never>): AccountRecords {
  const db = anyDb as unknown as Kysely<AccountTables>;

  async function factsOf(rows: Row[]): Promise<DonationFacts[]> {
    if (rows.length === 0) return [];
    const ids = rows.map((r) => r.id);
    const [charges, receipts, plans, jobRows] = await Promise.all([
      db.selectFrom("charges").selectAll().where("donation_id", "in", ids).orderBy("charged_at").execute(),
      db
        .selectFrom("receipts")
        .select(["number", "charge_id", "body", "voided_at"])
        .where("donation_id", "in", ids)
        .where("kind", "=", "receipt")
        .execute(),
      db.selectFrom("account_plans").selectAll().where("donation_id", "in", ids).execute(),
      db
        .selectFrom("scheduled_charges")
        .select(["donation_id", "payment_intent_id", "charge_date", "attempts", "status"])
        .where("donation_id", "in", ids)
        .where("status", "in", ["retrying", "skipped"])
        .execute(),
    ]);
    const retrying = jobRows.filter((x) => x.status === "retrying");
    return rows.map((r) => {
      const fee = r.cover_fees ? r.fee_cents : 0;
      const paid: ChargeFacts[] = charges
        .filter((c) => c.donation_id === r.id)
        .map((c, i) => {
          const receipt = receipts.find((x) => x.charge_id === c.id);
          // A declined charge the job tries again (on the same intent): the tries still to come.
          const retry = c.status === "failed" ? retrying.find((x) => x.payment_intent_id === c.id) : undefined;
          // A one-off gift refunded or disputed: its one charge went back.
          const status: DonationStatus =
            r.frequency === "once" && (r.status === "refunded" || r.status === "disputed")
              ? r.status
              : (c.status as DonationStatus);
          return {
            n: i + 1,
            id: c.id,
            date: todayIn(TIME_ZONE, new Date(c.charged_at)),
            amountCents: c.amount_cents - fee,
            feeCents: fee,
            totalCents: c.amount_cents,
            status,
            ...(retry ? { retryDates: retryDatesAfter(retry.charge_date, retry.attempts) } : {}),
            // The receipt as the service issued it; a voided one is no longer a receipt.
            ...(receipt
              ? {
                  receipt: receipt.voided_at
                    ? null
                    : { number: receipt.number, taxDeductible: receipt.body.taxDeductible === true },
                }
              : {}),
          };
        });
      // No paid charge yet: the first payment's own state, when it happened (failed, processing).
      const first: ChargeFacts[] =
        paid.length === 0 && r.intent_type === "payment" && r.status !== "requires_payment_method"
          ? [
              {
                n: 1,
                date: todayIn(TIME_ZONE, new Date(r.created_at)),
                amountCents: r.amount_cents,
                feeCents: r.fee_cents,
                totalCents: r.total_cents,
                status: r.status === "succeeded" ? "processing" : r.status,
              },
            ]
          : [];
      const plan = plans.find((p) => p.donation_id === r.id);
      const state: PlanState = plan
        ? {
            amountCents: plan.amount_cents,
            paused: plan.paused,
            cancelled: plan.cancelled,
            pendingAmountCents: plan.pending_amount_cents,
            pendingTotalCents: plan.pending_total_cents,
            skips: plan.skips,
          }
        : {
            amountCents: null,
            paused: false,
            cancelled: false,
            pendingAmountCents: null,
            pendingTotalCents: null,
            skips: 0,
          };
      // The schedule's anchor holds every skip made before it started, and is written by the Stripe
      // step before the plan's own record: a skip whose record was never written (the service
      // stopped between the two) is still counted, so the dates shown are those Stripe bills.
      state.skips = Math.max(state.skips ?? 0, r.stripe_anchor_skips);
      return {
        donationId: r.id,
        reference: r.reference,
        fund: r.fund as Fund,
        frequency: r.frequency,
        paymentMethod: r.payment_method === "paypal" ? "paypal" : "card",
        intentType: r.intent_type,
        openEnded: r.open_ended,
        schedule: r.schedule,
        instalments: r.instalments,
        scheduleTotalCents: r.schedule_total_cents,
        amountCents: r.amount_cents,
        coverFees: r.cover_fees,
        currency: r.currency,
        date: todayIn(TIME_ZONE, new Date(r.created_at)),
        status: r.status,
        donorName: `${r.donor_first_name} ${r.donor_last_name}`.trim(),
        donorEmail: r.donor_email,
        sub: r.user_sub,
        charges: [...first, ...paid],
        plan: state,
        billingAnchor: billingAnchorOf(r),
        billingAnchorSkips: r.stripe_anchor_skips,
        billingAnchorCharge: r.stripe_anchor_charge,
        card: r.card_brand
          ? { brand: r.card_brand, last4: r.card_last4, expMonth: r.card_exp_month, expYear: r.card_exp_year }
          : null,
        // The job's dates it will not charge: skipped by the donor, or due while paused.
        skippedDates: jobRows.filter((x) => x.donation_id === r.id && x.status === "skipped").map((x) => x.charge_date),
      };
    });
  }

  const donationColumns = [
    "id",
    "reference",
    "fund",
    "frequency",
    "payment_method",
    "intent_type",
    "currency",
    "amount_cents",
    "fee_cents",
    "total_cents",
    "schedule_total_cents",
    "open_ended",
    "schedule",
    "instalments",
    "status",
    "donor_first_name",
    "donor_last_name",
    "donor_email",
    "cover_fees",
    "user_sub",
    "stripe_subscription_id",
    "stripe_billing_anchor",
    "stripe_anchor_skips",
    "stripe_anchor_charge",
    "card_brand",
    "card_last4",
    "card_exp_month",
    "card_exp_year",
    "created_at",
    "updated_at",
  ] as const;

  return {
    async ofSub(sub) {
      const rows = await db
        .selectFrom("donations")
        .select(donationColumns)
        .where("user_sub", "=", sub)
        .orderBy("created_at")
        .orderBy("id")
        .execute();
      return factsOf(rows);
    },

    async guestsLike(email) {
      // Case-blind and in both normal forms: a superset of same-mailbox matches, checked exactly after.
      const forms = [...new Set([email.normalize("NFC"), email.normalize("NFD")].map((e) => e.trim().toLowerCase()))];
      const rows = await db
        .selectFrom("donations")
        .select(donationColumns)
        .where("user_sub", "is", null)
        .where((eb) => eb(eb.fn("lower", ["donor_email"]), "in", forms))
        .orderBy("created_at")
        .limit(GUEST_CANDIDATES)
        .execute();
      return factsOf(rows);
    },

    async claim(ids, sub) {
      if (ids.length === 0) return;
      await db
        .updateTable("donations")
        .set({ user_sub: sub, updated_at: clock.now() })
        .where("id", "in", ids)
        .where("user_sub", "is", null)
        .execute();
    },

    async savePlan(donationId, state, change) {
      const values = {
        amount_cents: state.amountCents,
        paused: state.paused,
        cancelled: state.cancelled,
        pending_amount_cents: state.pendingAmountCents ?? null,
        pending_total_cents: state.pendingTotalCents ?? null,
        skips: state.skips ?? 0,
        updated_at: clock.now(),
      };
      // Only what this change set: the rest as read may be stale (a pause and a new amount, or a
      // skip, at once; the webhook's cancel), and writing it back would undo the other change.
      const changed = {
        ...("amountCents" in change ? { amount_cents: values.amount_cents } : {}),
        ...("paused" in change ? { paused: values.paused } : {}),
        ...("cancelled" in change ? { cancelled: values.cancelled } : {}),
        ...("pendingAmountCents" in change ? { pending_amount_cents: values.pending_amount_cents } : {}),
        ...("pendingTotalCents" in change ? { pending_total_cents: values.pending_total_cents } : {}),
        ...("skips" in change ? { skips: values.skips } : {}),
        updated_at: values.updated_at,
      };
      await db
        .insertInto("account_plans")
        .values({ donation_id: donationId, ...values })
        .onConflict((c) => c.column("donation_id").doUpdateSet(changed))
        .execute();
    },
  };
}
