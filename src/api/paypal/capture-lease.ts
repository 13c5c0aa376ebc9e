/**
 * One capture call to PayPal at a time per donation. A donor who approves the same order in two
 * tabs sends two captures at once; PayPal's PayPal-Request-Id makes a retry safe, but "when you
 * send two simultaneous API requests with the same PayPal-Request-Id, PayPal processes the first
 * request and might fail the second" (PayPal's idempotency guide). So the first request takes a
 * lease on the donation (a row in `idempotency_keys`, scope `paypal-capture`, claimed atomically
 * by the database: two service instances agree) and the second waits for its answer instead of
 * asking PayPal. The lease is given back when the call ends, whatever its outcome (a decline may
 * be tried again), and lapses after a minute if the holder crashed, so a retry is never locked out.
 */
import type { Kysely } from "kysely";
import type { ApiDatabase } from "../db/schema.js";

const SCOPE = "paypal-capture";
/** Longer than one capture call (the SDK's 20 s timeout) and API Gateway's 29 s. */
export const CAPTURE_LEASE_MS = 60_000;

/** True when this request now holds the donation's capture lease. */
export async function takeCaptureLease(db: Kysely<ApiDatabase>, donationId: string, now: Date): Promise<boolean> {
  const lapsed = new Date(now.getTime() - CAPTURE_LEASE_MS);
  const result = await db
    .insertInto("idempotency_keys")
    .values({
      scope: SCOPE,
      key: donationId,
      body_hash: "",
      status: 0,
      response: "",
      donation_id: donationId,
      created_at: now,
    })
    .onConflict((c) =>
      c.columns(["scope", "key"]).doUpdateSet({ created_at: now }).where("idempotency_keys.created_at", "<=", lapsed),
    )
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0n) > 0;
}

export async function giveBackCaptureLease(db: Kysely<ApiDatabase>, donationId: string): Promise<void> {
  await db.deleteFrom("idempotency_keys").where("scope", "=", SCOPE).where("key", "=", donationId).execute();
}
