/**
 * Idempotency records in the database (docs/payments-api.md, "Idempotency"): per scope and key, the
 * SHA-256 of the canonical body and, once the work succeeded, the exact response text. Kept 24 hours.
 * A record with status 0 is work begun and not finished (a crash, or Stripe failing): the same key
 * and body carry on with the same donation, so the Stripe idempotency keys derived from it match.
 */
import { createHash } from "node:crypto";
import type { Kysely } from "kysely";
import type { ApiDatabase } from "./db/schema.js";

export const IDEMPOTENCY_TTL_MS = 24 * 60 * 60 * 1000;
export const PENDING = 0;

export const bodyHash = (canonical: string) => createHash("sha256").update(canonical).digest("hex");

export interface StoredKey {
  bodyHash: string;
  status: number;
  response: string;
  donationId: string | null;
}

export async function findKey(
  db: Kysely<ApiDatabase>,
  scope: string,
  key: string,
  now: Date,
): Promise<StoredKey | undefined> {
  const row = await db
    .selectFrom("idempotency_keys")
    .select(["body_hash", "status", "response", "donation_id"])
    .where("scope", "=", scope)
    .where("key", "=", key)
    .where("created_at", ">", new Date(now.getTime() - IDEMPOTENCY_TTL_MS))
    .executeTakeFirst();
  return row && { bodyHash: row.body_hash, status: row.status, response: row.response, donationId: row.donation_id };
}

/**
 * Claims the key for this body (a record of work begun). False when another request holds it
 * (a live one, within 24 hours); an expired record is taken over.
 */
export async function claimKey(
  db: Kysely<ApiDatabase>,
  claim: { scope: string; key: string; bodyHash: string; donationId: string | null },
  now: Date,
): Promise<boolean> {
  const cutoff = new Date(now.getTime() - IDEMPOTENCY_TTL_MS);
  const result = await db
    .insertInto("idempotency_keys")
    .values({
      scope: claim.scope,
      key: claim.key,
      body_hash: claim.bodyHash,
      status: PENDING,
      response: "",
      donation_id: claim.donationId,
      created_at: now,
    })
    .onConflict((c) =>
      c
        .columns(["scope", "key"])
        .doUpdateSet({
          body_hash: claim.bodyHash,
          status: PENDING,
          response: "",
          donation_id: claim.donationId,
          created_at: now,
        })
        .where("idempotency_keys.created_at", "<=", cutoff),
    )
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0n) > 0;
}

export async function storeResponse(
  db: Kysely<ApiDatabase>,
  scope: string,
  key: string,
  status: number,
  response: string,
): Promise<void> {
  await db
    .updateTable("idempotency_keys")
    .set({ status, response })
    .where("scope", "=", scope)
    .where("key", "=", key)
    .execute();
}

/** Forgets records older than 24 hours (the expiry sweep calls it). */
export async function dropExpiredKeys(db: Kysely<ApiDatabase>, now: Date): Promise<number> {
  const result = await db
    .deleteFrom("idempotency_keys")
    .where("created_at", "<=", new Date(now.getTime() - IDEMPOTENCY_TTL_MS))
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}
