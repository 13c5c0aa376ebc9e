/** A receipt for tests: the third of twelve zakat instalments, paid by card. */
import type { Receipt } from "../../src/receipts/receipt.js";

export const zakatReceipt: Receipt = {
  kind: "receipt",
  number: "2026-27/000123",
  issuedAt: "2026-11-27T03:00:00Z",
  issuer: { name: "National Zakat Foundation Australia", abn: "51 824 753 556", contactEmail: "info@nzf.org.au" },
  donor: { name: "Aisha Rahman", email: "aisha@example.org" },
  amountCents: 3_812,
  feeCents: 0,
  fund: "zakat",
  taxDeductible: false,
  paymentMethod: { brand: "Visa", last4: "4242" },
  donationReference: "NZF-7K3Q-92",
  instalment: { index: 3, count: 12 },
};
