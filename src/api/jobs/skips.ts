/**
 * A donor's "skip the next payment" for a plan the service's job charges (every Friday, the
 * seasons): the date is recorded in `scheduled_charges` as `skipped`, keyed by (plan, date) like
 * every charge the job makes, so the job (scheduled-charges.ts) finds it taken and charges nothing
 * that day, and the next date as usual. Idempotent: a second skip of that date finds it skipped
 * and changes nothing. A date the job has already claimed (the day came while the donor was
 * deciding) is not skipped: the donor is told it is already being charged.
 */
import * as clock from "../../core/clock.js";
import type { Kysely } from "kysely";
import { AccountError } from "../../account-api/store.js";
import type { ApiDeps } from "../deps.js";
import type { JobTables } from "./scheduled-charges.js";

export async function skipScheduledCharge(
  deps: Pick<ApiDeps, "db">,
  donationId: string,
  date: string,
  amountCents: number,
): Promise<void> {
  const db = deps.db as unknown as Kysely<JobTables>;
  const now = clock.now();
  const skipped = await db
    .insertInto("scheduled_charges")
    .values({
      donation_id: donationId,
      charge_date: date,
      amount_cents: amountCents,
      status: "skipped",
      attempts: 0,
      created_at: now,
      updated_at: now,
    })
    .onConflict((oc) => oc.columns(["donation_id", "charge_date"]).doNothing())
    .returning("status")
    .executeTakeFirst();
  if (skipped) return;
  const earlier = await db
    .selectFrom("scheduled_charges")
    .select("status")
    .where("donation_id", "=", donationId)
    .where("charge_date", "=", date)
    .executeTakeFirstOrThrow();
  if (earlier.status === "skipped") return;
  throw new AccountError(
    "SKIP_TOO_LATE",
    "That payment is already being taken, so it cannot be skipped. Reload the page to see your gift as it is now.",
  );
}
