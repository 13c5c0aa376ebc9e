/**
 * `PATCH /donations/{id}`: "Change my gift or details" changes the pending donation (same id, same
 * reference) instead of making another. The caller proves it is the browser that made the
 * donation with `Donation-Key` (the Idempotency-Key of its last creation or change, which only that
 * browser has); only a donation not yet paid can change. The old intent is recorded for
 * cancellation in the change's own transaction and cancelled before the new one is made under the
 * next revision's idempotency keys (src/api/stripe/cancellations.ts): a crash between the steps, or
 * a retry, never leaves two payable intents.
 */
import * as clock from "../../core/clock.js";
import { timingSafeEqual } from "node:crypto";
import type Stripe from "stripe";
import { canonicalJson } from "../../payments/canonical-json.js";
import { IDEMPOTENCY_KEY_PATTERN } from "../../payments/idempotency.js";
import { validateDonationRequest } from "../../payments/validate.js";
import type { DonationRow } from "../db/schema.js";
import type { ApiDeps } from "../deps.js";
import { errorReply, errors, type Reply } from "../errors.js";
import { bodyHash, claimKey, findKey, PENDING, storeResponse } from "../idempotency-store.js";
import { finishCancellations, recordCancellation } from "../stripe/cancellations.js";
import { openCardIntent, PENDING_LIFETIME_MS } from "./create.js";
import { planRequest } from "./plan.js";
import { createdBody } from "./rows.js";

const scopeOf = (donationId: string) => `PATCH /donations/${donationId}`;

const sameKey = (a: string, b: string) => a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b));

export const NOT_PENDING =
  "This gift has already been paid or has ended, so it cannot be changed. Nothing more was charged. Start a new gift instead.";

export async function updateDonation(
  deps: ApiDeps,
  input: { donationId: string; donationKey: string | undefined; key: string; body: unknown },
): Promise<Reply & { replayed?: boolean }> {
  const now = clock.now();
  const scope = scopeOf(input.donationId);
  if (!input.donationKey || !IDEMPOTENCY_KEY_PATTERN.test(input.donationKey))
    return errorReply(
      400,
      "donation_key_missing",
      "Send the Donation-Key header: the Idempotency-Key that made this donation.",
    );
  const hash = bodyHash(canonicalJson(input.body));
  const stored = await findKey(deps.db, scope, input.key, now);
  if (stored && stored.bodyHash !== hash) return errors.keyReused();
  if (stored && stored.status !== PENDING) return { status: stored.status, raw: stored.response, replayed: true };

  let row = await deps.db.selectFrom("donations").selectAll().where("id", "=", input.donationId).executeTakeFirst();
  // The same answer for "no such donation" and "not yours": the id alone tells an attacker nothing.
  if (!row) return errors.notFound();
  const resuming = stored !== undefined && row.idempotency_key === input.key;
  if (!resuming && !sameKey(row.idempotency_key, input.donationKey)) return errors.notFound();
  if (row.status !== "requires_payment_method" || row.paypal_id)
    return errorReply(409, "donation_not_pending", NOT_PENDING);

  const validation = validateDonationRequest(input.body, deps.rulesForRequest?.(input.body) ?? deps.rulesFor);
  if (!validation.ok) return errors.validation(validation.errors);
  if (!resuming) {
    const planned = planRequest(validation.request, now, deps.seasons);
    if (!planned.ok) return planned.reply;
    const previous: DonationRow = row;
    const changed = await deps.db.transaction().execute(async (trx) => {
      if (!(await claimKey(trx, { scope, key: input.key, bodyHash: hash, donationId: previous.id }, now))) return null;
      await recordCancellation(trx, previous, now);
      return trx
        .updateTable("donations")
        .set({
          ...planned.columns,
          revision: previous.revision + 1,
          idempotency_key: input.key,
          client_secret: "",
          stripe_intent_id: null,
          stripe_subscription_id: null,
          updated_at: now,
          expires_at: new Date(now.getTime() + PENDING_LIFETIME_MS),
        })
        .where("id", "=", previous.id)
        .where("revision", "=", previous.revision)
        .where("status", "=", "requires_payment_method")
        .returningAll()
        .executeTakeFirst();
    });
    if (!changed) return updateDonation(deps, input);
    row = changed;
  }
  // Every old intent of this donation is cancelled before a new one exists (also when the gift
  // moved to PayPal). Its cancellation event finds the donation at a newer revision and changes
  // nothing (apply-event's isCurrent).
  if (deps.stripe) await finishCancellations(deps, deps.stripe as Stripe, row.id);
  if (row.payment_method === "card" && !row.client_secret) {
    if (!deps.stripe) return errors.unavailable();
    row = await openCardIntent(deps, deps.stripe as Stripe, row);
  }
  const body = JSON.stringify(createdBody(row));
  await storeResponse(deps.db, scope, input.key, 200, body);
  return { status: 200, raw: body };
}
