/**
 * Works out what a valid request charges (the shared `planGift`, with "today" in Sydney) after the
 * season check: the row the donation is stored as, or the contract's 422.
 */
import { planGift } from "../../payments/plan.js";
import { todayIn } from "../../payments/schedules.js";
import type { DonationRequest, Season } from "../../payments/types.js";
import type { NewDonation } from "../db/schema.js";
import { errorReply, type Reply } from "../errors.js";

export const TIME_ZONE = "Australia/Sydney";

/** The columns that follow from the request: amounts, schedule, donor. */
export type PlannedColumns = Omit<
  NewDonation,
  "id" | "reference" | "idempotency_key" | "client_secret" | "status" | "created_at" | "updated_at" | "expires_at"
>;

export function planRequest(
  request: DonationRequest,
  now: Date,
  seasons: { ramadan?: Season; dhulHijjah?: Season } = {},
): { ok: true; columns: PlannedColumns } | { ok: false; reply: Reply } {
  const configured = request.frequency.startsWith("ramadan")
    ? seasons.ramadan
    : request.frequency === "dhul-hijjah-ten-days"
      ? seasons.dhulHijjah
      : undefined;
  if (
    configured &&
    request.season &&
    (configured.start !== request.season.start || configured.length !== request.season.length)
  ) {
    return {
      ok: false,
      reply: errorReply(
        422,
        "season_mismatch",
        "The dates on this page are out of date. Please reload the page and try again.",
        { field: "season" },
      ),
    };
  }
  const result = planGift({
    frequency: request.frequency,
    today: todayIn(TIME_ZONE, now),
    giftCents: request.amountCents,
    coverFees: request.coverFees,
    season: request.season,
    instalmentCount: request.instalments?.count,
    // A monthly card gift is dated as Stripe bills it from now, as the page previewed it.
    ...(request.paymentMethod === "paypal" ? {} : { cardAnchor: now }),
  });
  if (!result.ok)
    return {
      ok: false,
      reply: errorReply(422, result.code, result.message, {
        field: result.code === "instalments_required" ? "instalments.count" : "season",
      }),
    };
  const { charge, schedule, instalments } = result.plan;
  const { donor } = request;
  return {
    ok: true,
    columns: {
      fund: request.fund,
      frequency: request.frequency,
      payment_method: request.paymentMethod === "paypal" ? "paypal" : "card",
      intent_type: schedule.firstChargeToday ? "payment" : "setup",
      amount_cents: charge.amountCents,
      fee_cents: charge.feeCents,
      total_cents: charge.totalCents,
      schedule_total_cents: schedule.totalCents,
      open_ended: schedule.openEnded,
      schedule: JSON.stringify(schedule.charges),
      instalments: instalments ? JSON.stringify(instalments) : null,
      quantity: request.quantity ? JSON.stringify(request.quantity) : null,
      season: request.season ? JSON.stringify(request.season) : null,
      donor_first_name: donor.firstName,
      donor_last_name: donor.lastName,
      donor_email: donor.email,
      donor_phone: donor.phone,
      donor_address: donor.address ? JSON.stringify(donor.address) : null,
      anonymous: request.anonymous,
      dedication: request.dedication ?? null,
      cover_fees: request.coverFees,
    },
  };
}
