/**
 * The crash gap of "Change my gift" (PATCH /donations/{id}): the old intent must not stay payable
 * beside the new one. The change records the old Stripe object in `intent_cancellations` in the
 * same transaction that changes the donation; before any new intent is opened for the donation,
 * every pending cancellation of it is carried out (Stripe, with the old revision's idempotency key)
 * and marked done. A crash at any point leaves either the old intent live and the new one not yet
 * made, or the old one cancelled: never two payable. The retry of the change, the next change, and
 * the expiry sweep finish what a crash left.
 */
import * as clock from "../../core/clock.js";
import type { Kysely } from "kysely";
import type Stripe from "stripe";
import type { ApiDatabase, DonationRow } from "../db/schema.js";
import type { ApiDeps } from "../deps.js";
import { cancelIntent } from "./intents.js";

/** Records what `previous` holds at Stripe, to be cancelled (inside the change's transaction). */
export async function recordCancellation(trx: Kysely<ApiDatabase>, previous: DonationRow, now: Date): Promise<void> {
  const objectId = previous.stripe_subscription_id ?? previous.stripe_intent_id;
  if (previous.payment_method !== "card" || !objectId) return;
  await trx
    .insertInto("intent_cancellations")
    .values({ object_id: objectId, donation_id: previous.id, revision: previous.revision, created_at: now })
    .onConflict((oc) => oc.column("object_id").doNothing())
    .execute();
}

/** Cancels the pending objects of one donation (before a new intent), or of all (the sweep). */
export async function finishCancellations(
  deps: Pick<ApiDeps, "db">,
  stripe: Stripe,
  donationId?: string,
): Promise<number> {
  let query = deps.db.selectFrom("intent_cancellations").selectAll().where("done_at", "is", null);
  if (donationId) query = query.where("donation_id", "=", donationId);
  const pending = await query.orderBy("created_at").limit(200).execute();
  for (const job of pending) {
    const subscription = job.object_id.startsWith("sub_");
    // Only what cancelIntent reads: the object, and the revision its idempotency key names.
    await cancelIntent(stripe, {
      id: job.donation_id,
      revision: job.revision,
      stripe_subscription_id: subscription ? job.object_id : null,
      stripe_intent_id: subscription ? null : job.object_id,
    } as DonationRow);
    await deps.db
      .updateTable("intent_cancellations")
      .set({ done_at: clock.now() })
      .where("object_id", "=", job.object_id)
      .execute();
  }
  return pending.length;
}
