/**
 * Never-paid donations are not the donor's history: 24 hours after they were made (or last
 * changed) their intents are cancelled and the rows deleted, with the idempotency records older
 * than 24 hours. Run by a timer in `nzf-build api` and watch mode, and by a schedule in Lambda.
 * A donation a webhook is paying right now is safe: a paid one has no `expires_at`, and the delete
 * re-checks it.
 */
import * as clock from "../../core/clock.js";
import type { ApiDeps } from "../deps.js";
import { dropExpiredKeys } from "../idempotency-store.js";
import { finishCancellations } from "../stripe/cancellations.js";
import { cancelIntent } from "../stripe/intents.js";

export interface SweepResult {
  expired: number;
  keysDropped: number;
}

export async function sweepExpiredDonations(deps: Pick<ApiDeps, "db" | "stripe" | "logger">): Promise<SweepResult> {
  const now = clock.now();
  // What a change left when the process stopped between saving it and cancelling the old intent.
  if (deps.stripe)
    await finishCancellations(deps, deps.stripe).catch((error) =>
      deps.logger?.warn("api", `expiry: old intents of changed gifts not cancelled yet: ${(error as Error).message}`),
    );
  const due = await deps.db
    .selectFrom("donations")
    .selectAll()
    .where("expires_at", "<=", now)
    .where("status", "in", ["requires_payment_method", "failed"])
    .limit(200)
    .execute();
  let expired = 0;
  for (const row of due) {
    try {
      if (deps.stripe && row.payment_method === "card") await cancelIntent(deps.stripe, row);
    } catch (error) {
      deps.logger?.warn(
        "api",
        `expiry: could not cancel ${row.stripe_intent_id} of ${row.id}: ${(error as Error).message}`,
      );
      continue;
    }
    const gone = await deps.db
      .deleteFrom("donations")
      .where("id", "=", row.id)
      .where("expires_at", "<=", now)
      .where("status", "in", ["requires_payment_method", "failed"])
      .where(({ not, exists, selectFrom }) =>
        not(exists(selectFrom("charges").select("charges.id").whereRef("charges.donation_id", "=", "donations.id"))),
      )
      .executeTakeFirst();
    expired += Number(gone.numDeletedRows);
  }
  return { expired, keysDropped: await dropExpiredKeys(deps.db, now) };
}
