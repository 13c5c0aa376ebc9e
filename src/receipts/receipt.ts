/**
 * What one receipt says: everything an Australian charity's receipt must carry (the foundation's
 * name and ABN, the receipt number, the date, the donor, the amount, whether it is a tax-deductible
 * gift) plus what the donor needs to recognise the payment (fund, card or PayPal, the instalment).
 * The e-mail (receipt-html.tsx, receipt-text.ts) and the printable copy read this one shape, so
 * they cannot disagree. Browser-safe.
 *
 * A receipt is never changed once issued. A refund or dispute voids it (a "void" notice quoting the
 * original), and a partial refund also issues a "correction": a new number for what was kept, which
 * names the receipt it replaces.
 */
import { fundName } from "../payments/fund-names.js";
import { formatAbn, isValidAbn } from "./abn.js";
import { parseReceiptNumber, sydneyDate } from "./financial-year.js";

export interface ReceiptIssuer {
  /** The foundation's legal name, as registered with the ACNC. */
  name: string;
  /** Its ABN (checked: receipts/settings.ts). */
  abn: string;
  /** Where a donor writes about a receipt (printed at the foot). */
  contactEmail?: string;
}

export interface PaymentMethodShown {
  /** "Visa", "Mastercard", "PayPal"… as the provider reports it. */
  brand: string;
  /** The card's last four digits; absent for PayPal (its account e-mail is not repeated). */
  last4?: string;
}

export type ReceiptKind = "receipt" | "void" | "correction";

export interface Receipt {
  kind: ReceiptKind;
  /** `2026-27/000123`. For "void", the number of the receipt voided. */
  number: string;
  /** When the payment succeeded (for "void": when it was voided). ISO instant. */
  issuedAt: string;
  issuer: ReceiptIssuer;
  donor: { name: string; email: string };
  /** What the donor paid in this payment, fee cover included, in cents. */
  amountCents: number;
  /** The part of amountCents that covered card fees (0 when the donor did not cover them). */
  feeCents: number;
  fund: string;
  taxDeductible: boolean;
  paymentMethod: PaymentMethodShown;
  /** The donation's reference, as the thank-you page and the account show it. */
  donationReference: string;
  /** Instalment plans: "3 of 12". */
  instalment?: { index: number; count: number };
  /** "void" and "correction": why (the refund or the dispute), in words for the donor. */
  reason?: string;
  /** "void": the amount the voided receipt was for. "correction": the number of the receipt it replaces. */
  voids?: { number: string; amountCents: number };
}

/** A receipt whose fields cannot be printed as given (caught before anything is sent). */
export class ReceiptInvalid extends Error {
  constructor(
    readonly field: string,
    message: string,
  ) {
    super(`Receipt field ${field}: ${message}`);
    this.name = "ReceiptInvalid";
  }
}

/** Checks the fields a receipt must carry; throws ReceiptInvalid naming the first wrong one. */
export function checkReceipt(r: Receipt): Receipt {
  const fail = (field: string, message: string): never => {
    throw new ReceiptInvalid(field, message);
  };
  if (!["receipt", "void", "correction"].includes(r.kind)) fail("kind", `"${r.kind}" is not a kind of receipt`);
  if (!parseReceiptNumber(r.number)) fail("number", `"${r.number}" is not a receipt number such as 2026-27/000123`);
  if (Number.isNaN(Date.parse(r.issuedAt))) fail("issuedAt", `"${r.issuedAt}" is not a time`);
  if (r.issuer.name.trim() === "") fail("issuer.name", "the foundation's name is empty");
  if (!isValidAbn(r.issuer.abn)) fail("issuer.abn", `"${r.issuer.abn}" is not a valid ABN`);
  if (r.donor.name.trim() === "") fail("donor.name", "the donor's name is empty");
  if (!/^[^\s@]+@[^\s@]+$/.test(r.donor.email)) fail("donor.email", "not an e-mail address");
  if (!Number.isSafeInteger(r.amountCents) || r.amountCents < 0) fail("amountCents", "not a whole number of cents");
  if (!Number.isSafeInteger(r.feeCents) || r.feeCents < 0 || r.feeCents > r.amountCents)
    fail("feeCents", "not a whole number of cents within the amount");
  if (r.paymentMethod.last4 !== undefined && !/^\d{4}$/.test(r.paymentMethod.last4))
    fail("paymentMethod.last4", "not four digits");
  if (r.instalment) {
    const { index, count } = r.instalment;
    if (!Number.isInteger(count) || count < 2 || !Number.isInteger(index) || index < 1 || index > count)
      fail("instalment", `${index} of ${count} is not an instalment of a plan`);
  }
  if (r.kind !== "receipt") {
    if (!r.reason?.trim()) fail("reason", `a ${r.kind} says why`);
    if (!r.voids || !parseReceiptNumber(r.voids.number)) fail("voids", `a ${r.kind} names the receipt it voids`);
  }
  if (r.kind === "correction" && r.voids?.number === r.number) fail("voids", "a correction has a number of its own");
  return r;
}

/** The words both versions share, so HTML and text say the same. */
export interface ReceiptWords {
  subject: string;
  heading: string;
  /** What the document is, in one sentence under the heading. */
  lead: string;
  issuerLine: string;
  rows: { label: string; value: string }[];
  /** The deductibility sentence. */
  deductibility: string;
  footer: string;
}

const LONG_DATE = new Intl.DateTimeFormat("en-AU", {
  timeZone: "Australia/Sydney",
  day: "numeric",
  month: "long",
  year: "numeric",
});

/** "$1,234.50": receipts always show cents. */
export function receiptMoney(cents: number): string {
  const dollars = Math.floor(cents / 100)
    .toString()
    .replace(/\B(?=(\d{3})+(?!\d))/g, ",");
  return `$${dollars}.${String(cents % 100).padStart(2, "0")}`;
}

/** "Visa ending 4242", "PayPal". */
export function paymentMethodText(method: PaymentMethodShown): string {
  return method.last4 ? `${method.brand} ending ${method.last4}` : method.brand;
}

/**
 * The sentence on deductibility. A gift to a deductible fund says "tax-deductible gift" (the words
 * the ATO looks for) and that nothing was received for it; any other fund says plainly it is not
 * deductible, as the fund's pay page does ("Zakat payments are not tax-deductible").
 */
export function deductibilityText(r: Pick<Receipt, "kind" | "fund" | "taxDeductible">): string {
  if (r.kind === "void") return "This receipt is void: it can no longer be used for a tax claim.";
  if (r.taxDeductible)
    return "This is a tax-deductible gift: no goods or services were received in return. Keep this receipt with your tax records.";
  return `Gifts to ${fundName(r.fund)} are not tax-deductible, so this receipt is for your records only.`;
}

/** Control characters and line breaks as one space: a name cannot add a line to the text receipt. */
const oneLine = (text: string) => text.replace(/[\u0000-\u001f\u007f\u2028\u2029]+/g, " ").trim();

export function receiptWords(receipt: Receipt): ReceiptWords {
  const checked = checkReceipt(receipt);
  const r: Receipt = {
    ...checked,
    donor: { ...checked.donor, name: oneLine(checked.donor.name) },
    reason: checked.reason === undefined ? undefined : oneLine(checked.reason),
    issuer: { ...checked.issuer, name: oneLine(checked.issuer.name) },
    donationReference: oneLine(checked.donationReference),
    paymentMethod: { ...checked.paymentMethod, brand: oneLine(checked.paymentMethod.brand) },
  };
  const date = LONG_DATE.format(new Date(r.issuedAt));
  const issuerLine = `${r.issuer.name} · ABN ${formatAbn(r.issuer.abn)}`;
  const fund = fundName(r.fund);
  const rows: { label: string; value: string }[] = [];
  let subject: string;
  let heading: string;
  let lead: string;
  if (r.kind === "void") {
    subject = `Receipt ${r.number} is void`;
    heading = `Receipt ${r.number} is void`;
    lead = `We have voided your receipt for ${receiptMoney(r.voids!.amountCents)} to ${fund}. ${r.reason!.trim()}`;
    rows.push(
      { label: "Receipt voided", value: r.number },
      { label: "Voided on", value: date },
      { label: "Donor", value: r.donor.name },
      { label: "Amount of the voided receipt", value: receiptMoney(r.voids!.amountCents) },
      { label: "Fund", value: fund },
      { label: "Reason", value: r.reason!.trim() },
      { label: "Donation reference", value: r.donationReference },
    );
  } else {
    const corrected = r.kind === "correction";
    subject = corrected ? `Corrected receipt ${r.number} for your gift` : `Your receipt ${r.number} for your gift`;
    heading = corrected ? "Corrected receipt" : "Receipt for your gift";
    lead = corrected
      ? `This receipt replaces receipt ${r.voids!.number}, which is void. ${r.reason!.trim()}`
      : `Thank you for your gift to ${fund}. This is your receipt.`;
    rows.push(
      { label: "Receipt number", value: r.number },
      { label: "Date", value: date },
      { label: "Received from", value: r.donor.name },
      { label: "Amount", value: receiptMoney(r.amountCents) },
    );
    if (r.feeCents > 0) rows.push({ label: "Of which covers card fees", value: receiptMoney(r.feeCents) });
    rows.push({ label: "Fund", value: fund });
    if (r.instalment) rows.push({ label: "Instalment", value: `${r.instalment.index} of ${r.instalment.count}` });
    rows.push(
      { label: "Paid with", value: paymentMethodText(r.paymentMethod) },
      { label: "Donation reference", value: r.donationReference },
    );
    if (corrected) rows.push({ label: "Replaces receipt", value: r.voids!.number });
  }
  const contact = r.issuer.contactEmail ? ` Questions about this receipt: ${r.issuer.contactEmail}.` : "";
  return {
    subject,
    heading,
    lead,
    issuerLine,
    rows,
    deductibility: deductibilityText(r),
    footer: `Issued by ${r.issuer.name} (ABN ${formatAbn(r.issuer.abn)}) on ${sydneyDate(new Date(r.issuedAt))}.${contact}`,
  };
}
