/**
 * `POST /stripe/webhook`: the only way a card donation becomes succeeded, failed, refunded or
 * disputed. The signature is checked with the SDK (`Stripe-Signature`, 300 s tolerance) over the
 * raw body; an unsigned, stale or mis-signed request is 400 and changes nothing. Each event id is
 * recorded once, in the same transaction as the change it makes, so a redelivered event (Stripe
 * retries until it gets a 2xx) changes nothing the second time, and a failed change (500) leaves
 * no record, so Stripe's retry tries it again.
 */
import Stripe from "stripe";
import type { ApiDeps } from "../deps.js";
import { errorReply, type Reply } from "../errors.js";
import { applyEvent } from "./apply-event.js";

export const SIGNATURE_TOLERANCE_SECONDS = 300;

export async function receiveWebhook(deps: ApiDeps, raw: string, signature: string | undefined): Promise<Reply> {
  if (!signature) return errorReply(400, "signature_missing", "A Stripe-Signature header is required.");
  let event: Stripe.Event;
  try {
    // Against the real time, not the service's clock: a test clock must not widen the window.
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
  return { status: 200, body: { received: true, ...(changed.duplicate ? { duplicate: true } : {}) } };
}
