/** The donation request the payments tests send (a one-off $50 zakat gift by one test donor), and the donor typed into the form. */
import type { Page } from "playwright-core";
import type { DonationRequest, Donor } from "../../src/payments/types.js";

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

/** Types a donor's name, e-mail and phone into the donation form on `page`, as a donor would. */
export async function fillDonor(page: Page, donor: Donor = TEST_DONOR): Promise<void> {
  await page.getByLabel("First name").fill(donor.firstName);
  await page.getByLabel("Last name").fill(donor.lastName);
  await page.getByLabel("E-mail address", { exact: true }).fill(donor.email);
  await page.getByLabel("Phone number").fill(donor.phone);
}
