/**
 * Rate limits of the contact and updates endpoints, counted in the database (`rate_events`), so
 * every Lambda instance counts the same: at most `limit` accepted attempts per bucket (an address, a
 * client IP) in the last hour. Old events are pruned as new ones are written.
 */
import type { Kysely } from "kysely";

type RateTables = { rate_events: { bucket: string; at: Date | string } };
// biome-ignore lint/suspicious/noExplicitAny: any database that has the rate_events table
type AnyDb = Kysely<any>;

export const WINDOW_MS = 60 * 60_000;

export interface Limit {
  bucket: string;
  limit: number;
}

/** True when every bucket is under its limit; then one attempt is counted in each. */
export async function takeAttempt(db: AnyDb, limits: Limit[], now: Date): Promise<boolean> {
  const rdb = db as unknown as Kysely<RateTables>;
  const since = new Date(now.getTime() - WINDOW_MS);
  for (const { bucket, limit } of limits) {
    const row = await rdb
      .selectFrom("rate_events")
      .select((eb) => eb.fn.countAll().as("n"))
      .where("bucket", "=", bucket)
      .where("at", ">", since)
      .executeTakeFirstOrThrow();
    if (Number(row.n) >= limit) return false;
  }
  await rdb
    .insertInto("rate_events")
    .values(limits.map((l) => ({ bucket: l.bucket, at: now })))
    .execute();
  await rdb
    .deleteFrom("rate_events")
    .where("at", "<", new Date(now.getTime() - 24 * WINDOW_MS))
    .execute();
  return true;
}
