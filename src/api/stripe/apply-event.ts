/**
 * What each signed Stripe event does to a donation. Events may arrive in any order and more than
 * once (each id is applied once, src/api/stripe/webhook.ts): a paid donation is never set back to
 * unpaid, and only refunds and disputes follow a payment.
 */
import * as clock from "../../core/clock.js";
import { NzfError } from "../../core/errors.js";
import { sql } from "kysely";
import type Stripe from "stripe";
import type { DonationStatus } from "../../payments/types.js";
import type { DonationRow } from "../db/schema.js";
import type { ApiDeps } from "../deps.js";
import { applyCardChange, CARD_CHANGE } from "./card-change.js";
import { rememberCard } from "./card-details.js";
import { startInstalmentSchedule } from "./intents.js";
import { PAUSED_BY_ACCOUNT } from "./plan-provider.js";

export interface EventChange {
  donationId: string;
  status?: DonationStatus;
  /** A payment that took money: its receipt is issued once the event is recorded (src/api/receipts/). */
  paid?: { chargeId: string; amountCents: number; paymentMethodId: string | null };
  /** A refund or dispute: the payment's receipt is voided (and corrected for what was kept). */
  voided?: { chargeId: string; causeId: string; keptCents: number; reason: string };
}

type Db = ApiDeps["db"];

const idOf = (value: string | { id: string } | null | undefined) =>
  typeof value === "string" ? value : (value?.id ?? null);

export async function findDonation(
  db: Db,
  by: { donationId?: string | null; intentId?: string | null; subscriptionId?: string | null },
): Promise<DonationRow | undefined> {
  if (by.donationId) {
    const row = await db.selectFrom("donations").selectAll().where("id", "=", by.donationId).executeTakeFirst();
    if (row) return row;
  }
  if (by.intentId) {
    const row = await db
      .selectFrom("donations")
      .selectAll()
      .where("stripe_intent_id", "=", by.intentId)
      .executeTakeFirst();
    if (row) return row;
  }
  if (by.subscriptionId)
    return db
      .selectFrom("donations")
      .selectAll()
      .where("stripe_subscription_id", "=", by.subscriptionId)
      .executeTakeFirst();
  return undefined;
}

/** Whether an intent's event is about the donation as it is now, not a version changed since. */
function isCurrent(row: DonationRow, intentId: string, metadata: Stripe.Metadata | null | undefined): boolean {
  if (row.stripe_intent_id === intentId) return true;
  return metadata?.revision === undefined ? row.stripe_intent_id === null : metadata.revision === String(row.revision);
}

/** Which statuses may follow which: paid stays paid except for refunds and disputes. */
function allowed(from: DonationStatus, to: DonationStatus): boolean {
  if (from === to) return false;
  if (from === "succeeded") return to === "refunded" || to === "disputed";
  if (from === "refunded" || from === "disputed") return to === "refunded" || to === "disputed";
  if (from === "failed") return to === "succeeded" || to === "processing";
  return true;
}

export async function setStatus(
  deps: ApiDeps,
  row: DonationRow,
  status: DonationStatus,
  extra: { payment_method?: string | null } = {},
): Promise<EventChange> {
  if (!allowed(row.status, status)) return { donationId: row.id };
  const paid = status === "succeeded" || status === "processing";
  await deps.db
    .updateTable("donations")
    .set({
      status,
      updated_at: new Date(),
      // A paid donation is history: it no longer expires.
      ...(paid ? { expires_at: null } : {}),
      ...(extra.payment_method ? { stripe_payment_method_id: extra.payment_method } : {}),
    })
    .where("id", "=", row.id)
    .execute();
  return { donationId: row.id, status };
}

export async function recordCharge(deps: ApiDeps, row: DonationRow, id: string, amountCents: number): Promise<void> {
  // The service's clock (src/core/clock.ts), as every date it keeps, not the database's now().
  const now = clock.now();
  await deps.db
    .insertInto("charges")
    .values({ id, donation_id: row.id, amount_cents: amountCents, status: "succeeded", charged_at: now })
    // A scheduled charge the bank declined first (src/api/jobs/) is the same intent, paid on a retry.
    .onConflict((c) =>
      c
        .column("id")
        .doUpdateSet({ status: "succeeded", amount_cents: amountCents, charged_at: now })
        .where("charges.status", "=", "failed"),
    )
    .execute();
}

/** A plan's later payment that failed: shown as failed until a retry pays the same invoice. */
async function recordFailedCharge(deps: ApiDeps, row: DonationRow, id: string, amountCents: number): Promise<void> {
  const now = clock.now();
  await deps.db
    .insertInto("charges")
    .values({ id, donation_id: row.id, amount_cents: amountCents, status: "failed", charged_at: now })
    .onConflict((c) => c.column("id").doNothing())
    .execute();
}

function subscriptionOfInvoice(invoice: Stripe.Invoice): { subscriptionId: string | null; donationId: string | null } {
  const details = invoice.parent?.subscription_details;
  const legacy = invoice as unknown as { subscription?: string | { id: string } | null };
  return {
    subscriptionId: idOf(details?.subscription ?? legacy.subscription ?? null),
    donationId: details?.metadata?.donation_id ?? invoice.metadata?.donation_id ?? null,
  };
}

/**
 * The subscription invoice an intent paid, when it paid one (a monthly gift's or an instalment's
 * payment), asked of Stripe: in this API version neither the charge nor the intent names its
 * invoice, and the receipt of such a payment is keyed by the invoice (`invoice.paid`).
 */
async function invoiceOfIntent(
  deps: ApiDeps,
  intentId: string | null,
): Promise<{ invoiceId: string; subscriptionId: string | null; donationId: string | null } | null> {
  if (!intentId || !deps.stripe) return null;
  const payments = await deps.stripe.invoicePayments.list({
    payment: { type: "payment_intent", payment_intent: intentId },
    limit: 1,
  });
  const invoiceRef = payments.data[0]?.invoice;
  if (!invoiceRef) return null;
  const invoice = typeof invoiceRef === "string" ? await deps.stripe.invoices.retrieve(invoiceRef) : invoiceRef;
  if (!invoice.id) return null;
  return { invoiceId: invoice.id, ...subscriptionOfInvoice(invoice as Stripe.Invoice) };
}

/** "$30.00", as a refund's reason says it. */
const dollars = (cents: number) =>
  `$${Math.floor(cents / 100).toLocaleString("en-AU")}.${String(cents % 100).padStart(2, "0")}`;

export async function applyEvent(deps: ApiDeps, event: Stripe.Event): Promise<EventChange | undefined> {
  switch (event.type) {
    case "payment_intent.succeeded":
    case "payment_intent.processing":
    case "payment_intent.payment_failed":
    case "payment_intent.canceled": {
      const intent = event.data.object;
      const row = await findDonation(deps.db, { intentId: intent.id, donationId: intent.metadata?.donation_id });
      if (!row) return undefined;
      const status: DonationStatus =
        event.type === "payment_intent.succeeded"
          ? "succeeded"
          : event.type === "payment_intent.processing"
            ? "processing"
            : event.type === "payment_intent.canceled"
              ? "failed"
              : "requires_payment_method";
      // An intent the donation no longer uses (the gift was changed) only counts if it was paid.
      const current = isCurrent(row, intent.id, intent.metadata);
      if (status !== "succeeded") return current ? setStatus(deps, row, status) : { donationId: row.id };
      const paymentMethod = idOf(intent.payment_method);
      // A subscription's first payment is recorded from its invoice; a plain intent's here.
      if (!row.stripe_subscription_id)
        await recordCharge(deps, row, intent.id, intent.amount_received || intent.amount);
      const change: EventChange = await setStatus(deps, row, status, { payment_method: paymentMethod });
      await rememberCard(deps, deps.stripe, row.id, paymentMethod);
      if (!row.stripe_subscription_id)
        change.paid = {
          chargeId: intent.id,
          amountCents: intent.amount_received || intent.amount,
          paymentMethodId: paymentMethod,
        };
      if (row.frequency === "monthly-instalments" && !row.stripe_schedule_id && deps.stripe && row.stripe_customer_id) {
        const started = await startInstalmentSchedule(deps.stripe, row, row.stripe_customer_id, paymentMethod);
        if (started)
          await deps.db
            .updateTable("donations")
            .set({ stripe_schedule_id: started.scheduleId, stripe_billing_anchor: new Date(started.anchor * 1000) })
            .where("id", "=", row.id)
            .execute();
      }
      return change;
    }
    case "setup_intent.succeeded":
    case "setup_intent.setup_failed":
    case "setup_intent.canceled": {
      const intent = event.data.object;
      // A regular gift's new card (the account page): never the donation's own payment.
      if (intent.metadata?.purpose === CARD_CHANGE) {
        const row = await findDonation(deps.db, { donationId: intent.metadata.donation_id });
        if (!row) return undefined;
        if (event.type === "setup_intent.succeeded") await applyCardChange(deps, row, intent);
        return { donationId: row.id };
      }
      const row = await findDonation(deps.db, { intentId: intent.id, donationId: intent.metadata?.donation_id });
      if (!row) return undefined;
      const status: DonationStatus =
        event.type === "setup_intent.succeeded"
          ? "succeeded"
          : event.type === "setup_intent.canceled"
            ? "failed"
            : "requires_payment_method";
      if (status !== "succeeded" && !isCurrent(row, intent.id, intent.metadata)) return { donationId: row.id };
      const saved = await setStatus(deps, row, status, { payment_method: idOf(intent.payment_method) });
      if (status === "succeeded") await rememberCard(deps, deps.stripe, row.id, idOf(intent.payment_method));
      return saved;
    }
    case "invoice.paid":
    case "invoice.payment_succeeded":
    case "invoice.payment_failed": {
      const invoice = event.data.object;
      const row = await findDonation(deps.db, subscriptionOfInvoice(invoice));
      if (!row) return undefined;
      if (event.type === "invoice.payment_failed") {
        // A later payment of a plan already started: a failed charge in the donor's history (one
        // row per invoice; paid on Stripe's retry, recordCharge makes the same row succeeded).
        if (row.status === "succeeded" && invoice.id) {
          await recordFailedCharge(deps, row, invoice.id, invoice.amount_due);
          return { donationId: row.id };
        }
        return setStatus(deps, row, "requires_payment_method");
      }
      if (invoice.id && invoice.amount_paid > 0) await recordCharge(deps, row, invoice.id, invoice.amount_paid);
      const paid: EventChange = await setStatus(deps, row, "succeeded");
      if (invoice.id && invoice.amount_paid > 0)
        paid.paid = {
          chargeId: invoice.id,
          amountCents: invoice.amount_paid,
          paymentMethodId: row.stripe_payment_method_id,
        };
      return paid;
    }
    case "charge.refunded": {
      const charge = event.data.object;
      const intentId = idOf(charge.payment_intent);
      // A subscription's payment (monthly, instalments): its receipt is the invoice's.
      const invoice = await invoiceOfIntent(deps, intentId);
      const row = invoice
        ? await findDonation(deps.db, invoice)
        : await findDonation(deps.db, { intentId, donationId: charge.metadata?.donation_id });
      const paidId = invoice?.invoiceId ?? intentId;
      const voided =
        row && paidId && charge.amount_refunded > 0
          ? {
              chargeId: paidId,
              causeId: `${charge.id}:${charge.amount_refunded}`,
              keptCents: Math.max(0, charge.amount - charge.amount_refunded),
              reason: `${dollars(charge.amount_refunded)} of this payment was refunded.`,
            }
          : undefined;
      if (row && invoice && charge.refunded) {
        // One month refunded: that charge went back; the plan itself goes on.
        await deps.db.updateTable("charges").set({ status: "refunded" }).where("id", "=", invoice.invoiceId).execute();
        return { donationId: row.id, ...(voided ? { voided } : {}) };
      }
      if (!row || !charge.refunded) return row ? { donationId: row.id, ...(voided ? { voided } : {}) } : undefined;
      return { ...(await setStatus(deps, row, "refunded")), ...(voided ? { voided } : {}) };
    }
    case "charge.dispute.created": {
      const dispute = event.data.object;
      const intentId = idOf(dispute.payment_intent);
      const invoice = await invoiceOfIntent(deps, intentId);
      const row = await findDonation(deps.db, invoice ?? { intentId });
      if (!row) return undefined;
      const change: EventChange = invoice ? { donationId: row.id } : await setStatus(deps, row, "disputed");
      if (invoice)
        await deps.db.updateTable("charges").set({ status: "disputed" }).where("id", "=", invoice.invoiceId).execute();
      const paidId = invoice?.invoiceId ?? intentId;
      if (paidId)
        change.voided = {
          chargeId: paidId,
          causeId: dispute.id,
          keptCents: 0,
          reason: "The payment was disputed with your bank.",
        };
      return change;
    }
    case "subscription_schedule.canceled":
    case "subscription_schedule.released": {
      const schedule = event.data.object;
      const row = await findDonation(deps.db, { donationId: schedule.metadata?.donation_id });
      if (!row) return undefined;
      // Only the schedule the plan is billed by now: one it no longer uses says nothing of the plan.
      if (row.stripe_schedule_id !== schedule.id) return { donationId: row.id };
      // The account's pause: the plan reads paused, and its resume lays a new schedule (plan-provider.ts).
      if (schedule.metadata?.[PAUSED_BY_ACCOUNT]) return { donationId: row.id };
      const releasedTo = event.type === "subscription_schedule.released" ? idOf(schedule.released_subscription) : null;
      if (releasedTo) {
        // Its subscription now bills on its own, with no last payment: only a person can decide
        // what the donor agreed to, so the plan is left as it is and the operator told.
        const report = new NzfError(
          "API_SCHEDULE_RELEASED",
          `The Stripe schedule ${schedule.id} of instalment plan ${row.reference} (donation ${row.id}) was released: its subscription ${releasedTo} now bills every month with no end.`,
          { subject: row.id },
        );
        deps.logger?.warn("api", `[${report.code}] ${report.message} ${report.hint}`);
        return { donationId: row.id };
      }
      // Cancelled at Stripe (its dashboard, or the account's own cancel): nothing more is charged, so
      // the plan reads cancelled. A state, set once: a replay or the account's own write agree.
      await sql`insert into account_plans (donation_id, cancelled, updated_at)
        values (${row.id}, true, ${clock.now()})
        on conflict (donation_id) do update set cancelled = true, updated_at = excluded.updated_at
        where not account_plans.cancelled`.execute(deps.db);
      return { donationId: row.id };
    }
    default:
      return undefined;
  }
}
