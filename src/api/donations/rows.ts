/** A donation row as the contract's bodies (`DonationCreated`, `DonationState`): one mapping, both routes. */
import type { DonationCharges, DonationCreated, DonationState, Frequency, Fund } from "../../payments/types.js";
import type { DonationRow } from "../db/schema.js";

function chargesOf(row: DonationRow): DonationCharges {
  return {
    donationId: row.id,
    reference: row.reference,
    currency: "AUD",
    frequency: row.frequency as Frequency,
    amountCents: row.amount_cents,
    feeCents: row.fee_cents,
    totalCents: row.total_cents,
    schedule: row.schedule,
    openEnded: row.open_ended,
    scheduleTotalCents: row.schedule_total_cents,
    ...(row.instalments ? { instalments: row.instalments } : {}),
  };
}

export function createdBody(row: DonationRow): DonationCreated {
  const charges = chargesOf(row);
  const { instalments, ...rest } = charges;
  // The key order of the dev server's answers, which the pages' tests and stored replays compare.
  return {
    donationId: rest.donationId,
    reference: rest.reference,
    clientSecret: row.client_secret,
    ...(row.payment_method === "paypal" ? { paymentMethod: "paypal" as const } : {}),
    intentType: row.intent_type,
    currency: rest.currency,
    frequency: rest.frequency,
    amountCents: rest.amountCents,
    feeCents: rest.feeCents,
    totalCents: rest.totalCents,
    schedule: rest.schedule,
    openEnded: rest.openEnded,
    scheduleTotalCents: rest.scheduleTotalCents,
    ...(instalments ? { instalments } : {}),
  };
}

export function stateBody(row: DonationRow): DonationState {
  const { donationId, reference, frequency, currency, amountCents, feeCents, totalCents, schedule, openEnded } =
    chargesOf(row);
  return {
    donationId,
    reference,
    status: row.status,
    fund: row.fund as Fund,
    frequency,
    currency,
    amountCents,
    feeCents,
    totalCents,
    schedule,
    openEnded,
    scheduleTotalCents: row.schedule_total_cents,
    ...(row.instalments ? { instalments: row.instalments } : {}),
    ...(row.payment_method === "paypal" ? { paymentMethod: "paypal" as const } : {}),
    createdAt: new Date(row.created_at).toISOString(),
  };
}
