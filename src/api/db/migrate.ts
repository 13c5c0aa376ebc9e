/**
 * Applies the versioned migrations (src/api/db/migrations/) at start, with Kysely's Migrator, which
 * takes a lock and records each one in kysely_migration, so two processes starting together apply
 * each once. The list is static (not a folder read at run time) because the CLI and the Lambda are
 * bundled into single files.
 */
import { type Kysely, type Migration, type MigrationProvider, Migrator } from "kysely";
import { NzfError } from "../../core/errors.js";
import * as initial from "./migrations/0001-donations.js";
import * as receipts from "./migrations/0002-receipts.js";
import * as accountPlans from "./migrations/0003-account-plans.js";
import * as paypalEvents from "./migrations/0004-paypal-events.js";
import * as scheduledCharges from "./migrations/0005-scheduled-charges.js";
import * as declinedCharges from "./migrations/0006-declined-charges.js";
import * as enquiriesAndUpdates from "./migrations/0007-enquiries-and-updates.js";
import * as intentCancellations from "./migrations/0008-intent-cancellations.js";
import * as accountPlanChanges from "./migrations/0009-account-plan-changes.js";
import * as stripeBillingAnchor from "./migrations/0010-stripe-billing-anchor.js";
import * as giftCard from "./migrations/0011-gift-card.js";
import * as stripeAnchorSkips from "./migrations/0012-stripe-anchor-skips.js";
import * as stripeAnchorCharge from "./migrations/0013-stripe-anchor-charge.js";

export const MIGRATIONS: Record<string, Migration> = {
  "0001-donations": initial,
  "0002-receipts": receipts,
  "0003-account-plans": accountPlans,
  "0004-paypal-events": paypalEvents,
  "0005-scheduled-charges": scheduledCharges,
  "0006-declined-charges": declinedCharges,
  "0007-enquiries-and-updates": enquiriesAndUpdates,
  "0008-intent-cancellations": intentCancellations,
  "0009-account-plan-changes": accountPlanChanges,
  "0010-stripe-billing-anchor": stripeBillingAnchor,
  "0011-gift-card": giftCard,
  "0012-stripe-anchor-skips": stripeAnchorSkips,
  "0013-stripe-anchor-charge": stripeAnchorCharge,
};

const provider: MigrationProvider = { getMigrations: async () => MIGRATIONS };

export async function migrateToLatest(db: Kysely<unknown>): Promise<string[]> {
  const migrator = new Migrator({ db, provider });
  const { error, results } = await migrator.migrateToLatest();
  if (error) {
    const failed = results?.find((r) => r.status === "Error")?.migrationName ?? "(before any migration)";
    throw new NzfError(
      "API_DATABASE_FAILED",
      `The database migration ${failed} failed, so the payments API did not start.`,
      {
        subject: failed,
        cause: error,
      },
    );
  }
  return (results ?? []).filter((r) => r.status === "Success").map((r) => r.migrationName);
}
