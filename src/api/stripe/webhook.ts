/**
 * `POST /stripe/webhook`: the only way a card donation becomes succeeded, failed, refunded or
 * disputed. The signature is checked with the SDK (`Stripe-Signature`, 300 s tolerance) over the
 * raw body; an unsigned, stale or mis-signed request is 400 and changes nothing. Each event id is
 * recorded once, in the same transaction as the change it makes, so a redelivered event (Stripe
 * retries until it gets a 2xx) changes nothing the second time, and a failed change (500) leaves
 * no record, so Stripe's retry tries it again.
 */
import * as clock from "../../core/clock.js";
import Stripe from "stripe";
import type { ApiDeps } from "../deps.js";
import { errorReply, type Reply } from "../errors.js";
import { cardOf } from "../receipts/card.js";
import { applyEvent, type EventChange } from "./apply-event.js";

export const SIGNATURE_TOLERANCE_SECONDS = 300;

export async function receiveWebhook(deps: ApiDeps, raw: string, signature: string | undefined): Promise<Reply> {
  if (!signature) return errorReply(400, "signature_missing", "A Stripe-Signature header is required.");
  let event: Stripe.Event;
  try {
    // The SDK checks the signature's age against the system time (Date.now), as Stripe signs by it.
    event = Stripe.webhooks.constructEvent(raw, signature, deps.webhookSecret, SIGNATURE_TOLERANCE_SECONDS);
  } catch (error) {
    deps.logger?.warn("api", `webhook refused: ${(error as Error).message.split("\n")[0]}`);
    return errorReply(400, "signature_invalid", "The Stripe-Signature does not match this body, or it is too old.");
  }
  const changed = await deps.db.transaction().execute(async (trx) => {
    const first = await trx
      .insertInto("stripe_events")
      .values({ id: event.id, type: event.type, processed_at: new Date() })
      .onConflict((c) => c.column("id").doNothing())
      .executeTakeFirst();
    if (Number(first.numInsertedOrUpdatedRows ?? 0n) === 0) return { duplicate: true as const };
    const change = await applyEvent({ ...deps, db: trx }, event);
    if (change)
      await trx
        .updateTable("stripe_events")
        .set({ donation_id: change.donationId })
        .where("id", "=", event.id)
        .execute();
    return { duplicate: false as const, change };
  });
  if (!changed.duplicate && changed.change?.status)
    await deps.onStatusChanged?.(changed.change.donationId, changed.change.status);
  if (!changed.duplicate && changed.change) await receiptsFor(deps, changed.change);
  return { status: 200, body: { received: true, ...(changed.duplicate ? { duplicate: true } : {}) } };
}

/**
 * After the event is recorded: the payment's receipt, or the void of it. A failure here is logged,
 * not answered with a 500 (the event is applied; the outbox job sends what was not sent).
 */
async function receiptsFor(deps: ApiDeps, change: EventChange): Promise<void> {
  if (!deps.receipts) return;
  const at = clock.now();
  try {
    if (change.paid)
      await deps.receipts.paid({
        donationId: change.donationId,
        chargeId: change.paid.chargeId,
        amountCents: change.paid.amountCents,
        paidAt: at,
        paymentMethod: await cardOf(deps.stripe, change.paid.paymentMethodId),
      });
    if (change.voided) await deps.receipts.voided({ ...change.voided, at });
  } catch (error) {
    deps.logger?.error(
      "api",
      `receipt for ${change.donationId} not issued: ${(error as Error).stack ?? String(error)}`,
    );
  }
}
