/** The donation request the payments tests send: a one-off $50 zakat gift by one test donor. */
import type { DonationRequest } from "../../src/payments/types.js";

export const TEST_DONOR = { firstName: "Aisha", lastName: "Rahman", email: "aisha@example.com", phone: "0412 345 678" };

export const donationRequest = (over: Partial<DonationRequest> = {}): DonationRequest => ({
  fund: "zakat",
  amountCents: 5000,
  currency: "AUD",
  frequency: "once",
  donor: TEST_DONOR,
  anonymous: false,
  coverFees: false,
  ...over,
});
