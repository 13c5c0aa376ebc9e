/**
 * "Change my gift or details" after a donation was made: the pending donation takes the new gift
 * (PATCH /donations/{id}, same reference), so an abandoned first try does not linger as a second
 * donation. When it can no longer change (paid in another tab, expired), a new one is made.
 */
import type { PaymentsClient } from "../../payments/client.js";
import { PaymentsApiError } from "../../payments/errors.js";
import type { DonationCreated, DonationRequest } from "../../payments/types.js";

export async function changeOrCreate(
  client: PaymentsClient,
  pending: { key: string; created: DonationCreated },
  body: DonationRequest,
  key: string,
): Promise<DonationCreated> {
  try {
    return await client.updateDonation(pending.created.donationId, pending.key, body, key);
  } catch (error) {
    // Also an API without PATCH (405): the gift is then made anew, as before this call existed.
    const gone =
      error instanceof PaymentsApiError &&
      (error.code === "donation_not_pending" || error.code === "not_found" || error.status === 405);
    if (!gone) throw error;
    return client.createDonation(body, key);
  }
}
