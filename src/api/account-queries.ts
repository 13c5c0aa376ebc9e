/**
 * The seam for the account API (src/account-api/), which moves into this service on the same
 * database: a signed-in donor's history is their paid donations (never-paid ones are not history)
 * and the charges each has made, by the verified `sub` recorded when the gift was created.
 */
import type { Kysely } from "kysely";
import type { DonationStatus, Frequency, Fund } from "../payments/types.js";
import type { ApiDatabase } from "./db/schema.js";

export interface AccountDonation {
  donationId: string;
  reference: string;
  fund: Fund;
  frequency: Frequency;
  status: DonationStatus;
  amountCents: number;
  feeCents: number;
  totalCents: number;
  openEnded: boolean;
  createdAt: Date;
  /** A monthly gift's Stripe subscription (or an instalment plan's schedule): the regular gift. */
  planId: string | null;
  charges: { id: string; amountCents: number; chargedAt: Date }[];
}

/** Donations of `sub` that moved money or saved a card for a schedule, newest first. */
export async function donationsOfSub(db: Kysely<ApiDatabase>, sub: string): Promise<AccountDonation[]> {
  const rows = await db
    .selectFrom("donations")
    .selectAll()
    .where("user_sub", "=", sub)
    .where("status", "in", ["succeeded", "processing", "refunded", "disputed"])
    .orderBy("created_at", "desc")
    .execute();
  if (rows.length === 0) return [];
  const charges = await db
    .selectFrom("charges")
    .selectAll()
    .where(
      "donation_id",
      "in",
      rows.map((r) => r.id),
    )
    .orderBy("charged_at")
    .execute();
  return rows.map((row) => ({
    donationId: row.id,
    reference: row.reference,
    fund: row.fund as Fund,
    frequency: row.frequency as Frequency,
    status: row.status,
    amountCents: row.amount_cents,
    feeCents: row.fee_cents,
    totalCents: row.total_cents,
    openEnded: row.open_ended,
    createdAt: new Date(row.created_at),
    planId: row.stripe_schedule_id ?? row.stripe_subscription_id,
    charges: charges
      .filter((c) => c.donation_id === row.id)
      .map((c) => ({ id: c.id, amountCents: c.amount_cents, chargedAt: new Date(c.charged_at) })),
  }));
}
