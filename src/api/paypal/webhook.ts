/**
 * `POST /paypal/webhook`: how a PayPal gift becomes paid, refunded or disputed. PayPal signs each
 * delivery (PAYPAL-TRANSMISSION-* headers); the service asks PayPal whether the event is genuine
 * (POST /v1/notifications/verify-webhook-signature, with the event exactly as it arrived) and
 * refuses it (400) unless PayPal says SUCCESS. Each event id is applied once, in the same
 * transaction as its change; a receipt is issued or voided after that, as for Stripe.
 *
 * PAYMENT.CAPTURE.COMPLETED (a one-off order) and PAYMENT.SALE.COMPLETED (a subscription's payment)
 * mark the donation paid and record the charge; PAYMENT.CAPTURE.REFUNDED and CUSTOMER.DISPUTE.CREATED
 * mark it refunded or disputed and void the receipt; BILLING.SUBSCRIPTION.UPDATED (the payer agreed
 * to a new amount) makes the account's pending amount the plan's; BILLING.SUBSCRIPTION.PAYMENT.FAILED
 * (PayPal could not take a subscription's payment) is a failed charge in the donor's history, one
 * per failed try (keyed by the subscription and the time PayPal gives). The donation is found by `custom_id` (the
 * donation id the provider put there) or by its PayPal id.
 */
import * as clock from "../../core/clock.js";
import type { DonationRow } from "../db/schema.js";
import type { ApiDeps } from "../deps.js";
import { errorReply, type Reply } from "../errors.js";
import { type EventChange, recordCharge, setStatus } from "../stripe/apply-event.js";
import { settleRevision } from "./plan-provider.js";
import type { PayPalApi } from "./sdk.js";

type PayPalEventsTables = {
  paypal_events: { id: string; type: string; donation_id: string | null; processed_at: Date };
};

interface PayPalEvent {
  id: string;
  event_type: string;
  resource: Record<string, any>;
}

const HEADERS = [
  "paypal-transmission-id",
  "paypal-transmission-time",
  "paypal-transmission-sig",
  "paypal-cert-url",
  "paypal-auth-algo",
] as const;

/** Cents of PayPal's "10.00" (never through floating point). */
export function centsOf(value: unknown): number | null {
  const match = typeof value === "string" ? /^(\d{1,13})(?:\.(\d{1,2}))?$/.exec(value) : null;
  return match ? Number(match[1]) * 100 + Number((match[2] ?? "").padEnd(2, "0")) : null;
}

async function verify(
  api: PayPalApi,
  headers: Record<string, string | undefined>,
  event: unknown,
): Promise<"SUCCESS" | "FAILURE" | "UNAVAILABLE"> {
  try {
    const answer = await api.rest("POST", "/v1/notifications/verify-webhook-signature", {
      auth_algo: headers["paypal-auth-algo"],
      cert_url: headers["paypal-cert-url"],
      transmission_id: headers["paypal-transmission-id"],
      transmission_sig: headers["paypal-transmission-sig"],
      transmission_time: headers["paypal-transmission-time"],
      webhook_id: api.settings.webhookId,
      webhook_event: event,
    });
    if (answer.status >= 500) return "UNAVAILABLE";
    return answer.status === 200 && answer.body?.verification_status === "SUCCESS" ? "SUCCESS" : "FAILURE";
  } catch {
    return "UNAVAILABLE";
  }
}

export async function receivePayPalWebhook(
  deps: ApiDeps,
  raw: string,
  headers: Record<string, string | undefined>,
): Promise<Reply> {
  const api = deps.paypalApi;
  if (!api) return errorReply(503, "unavailable", "PayPal is not configured on this service.");
  if (HEADERS.some((h) => !headers[h]))
    return errorReply(400, "signature_missing", "PayPal's PAYPAL-TRANSMISSION-* headers are required.");
  let event: PayPalEvent;
  try {
    event = JSON.parse(raw) as PayPalEvent;
    if (
      typeof event?.id !== "string" ||
      typeof event.event_type !== "string" ||
      typeof event.resource !== "object" ||
      event.resource === null
    )
      throw new Error("not an event");
  } catch {
    return errorReply(400, "signature_invalid", "The body is not a PayPal webhook event.");
  }
  const verdict = await verify(api, headers, event);
  if (verdict === "UNAVAILABLE")
    return errorReply(503, "unavailable", "PayPal could not confirm this event now; PayPal will send it again.");
  if (verdict === "FAILURE") {
    deps.logger?.warn("api", `PayPal webhook ${event.id} refused: PayPal did not verify its signature`);
    return errorReply(400, "signature_invalid", "PayPal did not confirm this event's signature.");
  }
  const db = deps.db.withTables<PayPalEventsTables>();
  const changed = await db.transaction().execute(async (trx) => {
    const first = await trx
      .insertInto("paypal_events")
      .values({ id: event.id, type: event.event_type, processed_at: new Date() })
      .onConflict((c) => c.column("id").doNothing())
      .executeTakeFirst();
    if (Number(first.numInsertedOrUpdatedRows ?? 0n) === 0) return { duplicate: true as const };
    const change = await applyPayPalEvent({ ...deps, db: trx as unknown as ApiDeps["db"] }, event);
    if (change)
      await trx
        .updateTable("paypal_events")
        .set({ donation_id: change.donationId })
        .where("id", "=", event.id)
        .execute();
    return { duplicate: false as const, change };
  });
  if (!changed.duplicate && changed.change) {
    if (changed.change.status) await deps.onStatusChanged?.(changed.change.donationId, changed.change.status);
    await paypalReceipts(deps, changed.change);
  }
  return { status: 200, body: { received: true, ...(changed.duplicate ? { duplicate: true } : {}) } };
}

async function donationOf(deps: ApiDeps, customId: unknown, paypalId: unknown): Promise<DonationRow | undefined> {
  if (typeof customId === "string" && customId) {
    const row = await deps.db.selectFrom("donations").selectAll().where("id", "=", customId).executeTakeFirst();
    if (row) return row;
  }
  if (typeof paypalId === "string" && paypalId)
    return deps.db.selectFrom("donations").selectAll().where("paypal_id", "=", paypalId).executeTakeFirst();
  return undefined;
}

/** The capture a refund belongs to: its `up` link, /v2/payments/captures/<id>. */
function captureOfRefund(resource: Record<string, any>): string | null {
  const up = (resource.links as { rel?: string; href?: string }[] | undefined)?.find((l) => l.rel === "up")?.href;
  return up ? (/\/v2\/payments\/captures\/([^/?#]+)/.exec(up)?.[1] ?? null) : null;
}

export async function applyPayPalEvent(deps: ApiDeps, event: PayPalEvent): Promise<EventChange | undefined> {
  const r = event.resource;
  switch (event.event_type) {
    case "PAYMENT.CAPTURE.COMPLETED":
    case "PAYMENT.SALE.COMPLETED": {
      const sale = event.event_type === "PAYMENT.SALE.COMPLETED";
      const row = sale
        ? await donationOf(deps, r.custom, r.billing_agreement_id)
        : await donationOf(deps, r.custom_id, r.supplementary_data?.related_ids?.order_id);
      const cents = centsOf(sale ? r.amount?.total : r.amount?.value);
      if (!row || cents === null || typeof r.id !== "string") return undefined;
      await recordCharge(deps, row, r.id, cents);
      const change: EventChange = await setStatus(deps, row, "succeeded");
      change.paid = { chargeId: r.id, amountCents: cents, paymentMethodId: null };
      return change;
    }
    case "PAYMENT.CAPTURE.REFUNDED": {
      const captureId = captureOfRefund(r);
      const row = await donationOf(deps, r.custom_id, null);
      if (!row || !captureId) return undefined;
      const charge = await deps.db.selectFrom("charges").selectAll().where("id", "=", captureId).executeTakeFirst();
      const refunded = centsOf(r.seller_payable_breakdown?.total_refunded_amount?.value) ?? centsOf(r.amount?.value);
      if (!charge || refunded === null) return { donationId: row.id };
      const kept = Math.max(0, charge.amount_cents - refunded);
      const change: EventChange = kept === 0 ? await setStatus(deps, row, "refunded") : { donationId: row.id };
      change.voided = {
        chargeId: captureId,
        causeId: `${captureId}:${refunded}`,
        keptCents: kept,
        reason: `${dollars(refunded)} of this payment was refunded through PayPal.`,
      };
      return change;
    }
    case "CUSTOMER.DISPUTE.CREATED": {
      const captureId = (r.disputed_transactions as { seller_transaction_id?: string }[] | undefined)?.[0]
        ?.seller_transaction_id;
      if (!captureId) return undefined;
      const charge = await deps.db.selectFrom("charges").selectAll().where("id", "=", captureId).executeTakeFirst();
      const row = charge
        ? await deps.db.selectFrom("donations").selectAll().where("id", "=", charge.donation_id).executeTakeFirst()
        : undefined;
      if (!row) return undefined;
      const change: EventChange = await setStatus(deps, row, "disputed");
      change.voided = {
        chargeId: captureId,
        causeId: String(r.dispute_id ?? event.id),
        keptCents: 0,
        reason: "The payment was disputed with PayPal.",
      };
      return change;
    }
    case "BILLING.SUBSCRIPTION.PAYMENT.FAILED": {
      // The resource is the subscription; its billing_info says which payment failed.
      const row = await donationOf(deps, r.custom_id, r.id);
      // Only the subscription the donation is billed by (custom_id names the donation, r.id the subscription).
      if (!row || row.payment_method !== "paypal" || typeof r.id !== "string" || row.paypal_id !== r.id)
        return undefined;
      const failed = r.billing_info?.last_failed_payment as
        | { amount?: { value?: unknown }; time?: unknown; reason_code?: unknown }
        | undefined;
      const time = typeof failed?.time === "string" && !Number.isNaN(Date.parse(failed.time)) ? failed.time : null;
      const cents = centsOf(failed?.amount?.value) ?? row.total_cents;
      // One row per failed try: PayPal's time of it, else this event (each event is applied once).
      const id = `${r.id}:failed:${time ?? event.id}`.slice(0, 200);
      await deps.db
        .insertInto("charges")
        .values({
          id,
          donation_id: row.id,
          amount_cents: cents,
          status: "failed",
          charged_at: time ? new Date(time) : clock.now(),
        })
        .onConflict((c) => c.column("id").doNothing())
        .execute();
      return { donationId: row.id };
    }
    default: {
      // BILLING.SUBSCRIPTION.* are recorded (the event table) for the account's regular gifts.
      const row = await donationOf(deps, r.custom_id, r.id);
      // A revise the payer agreed to: the account's pending amount is the plan's once PayPal bills it.
      if (row && event.event_type === "BILLING.SUBSCRIPTION.UPDATED" && deps.paypalApi)
        await settleRevision(deps, deps.paypalApi, row.id);
      return row ? { donationId: row.id } : undefined;
    }
  }
}

const dollars = (cents: number) =>
  `$${Math.floor(cents / 100).toLocaleString("en-AU")}.${String(cents % 100).padStart(2, "0")}`;

async function paypalReceipts(deps: ApiDeps, change: EventChange): Promise<void> {
  if (!deps.receipts) return;
  const at = clock.now();
  try {
    if (change.paid)
      await deps.receipts.paid({
        donationId: change.donationId,
        chargeId: change.paid.chargeId,
        amountCents: change.paid.amountCents,
        paidAt: at,
        paymentMethod: { brand: "PayPal" },
      });
    if (change.voided) await deps.receipts.voided({ ...change.voided, at });
  } catch (error) {
    deps.logger?.error(
      "api",
      `receipt for ${change.donationId} not issued: ${(error as Error).stack ?? String(error)}`,
    );
  }
}
