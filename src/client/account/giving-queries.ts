/**
 * What the account island asks the account API (schema: docs/account-api.graphql) and the shapes
 * it gets back. Kept apart from the markup so the words and the queries can be tested alone.
 */
import { fundName } from "../../payments/fund-names.js";
import { formatDollarsAndCents } from "../../payments/money.js";
import { MONTHS } from "../../core/months.js";

export interface ReceiptData {
  number: string;
  donationId: string;
  donorName: string;
  fund: string;
  date: string;
  totalCents: number;
  taxDeductible: boolean;
  financialYear: number;
}

export type DonationStatusName =
  | "SUCCEEDED"
  | "PROCESSING"
  | "REQUIRES_PAYMENT_METHOD"
  | "FAILED"
  | "REFUNDED"
  | "DISPUTED";

export interface DonationData {
  id: string;
  donationId: string;
  reference: string;
  fund: string;
  schedule: string;
  amountCents: number;
  feeCents: number;
  totalCents: number;
  date: string;
  status: DonationStatusName;
  regularGiftId: string | null;
  /** Which charge of its schedule: 1 for the first. */
  chargeNumber: number;
  /** Charges in all of a finite schedule; null for one-off and open-ended gifts. */
  chargeCount: number | null;
  /** A failed charge the service will try again: those days (Sydney), soonest first; else empty. */
  retryDates: string[];
  receipt: ReceiptData | null;
}

export type GiftStatusName = "PENDING" | "ACTIVE" | "PAUSED" | "CANCELLED" | "COMPLETED";

export interface GiftData {
  id: string;
  reference: string;
  fund: string;
  schedule: string;
  openEnded: boolean;
  amountCents: number;
  feeCents: number;
  totalCents: number;
  coversFees: boolean;
  status: GiftStatusName;
  nextChargeDate: string | null;
  endDate: string | null;
  startDate: string;
  paidCount: number;
  chargeCount: number | null;
  scheduleTotalCents: number | null;
  /** A new amount waiting for the donor's consent at PayPal. */
  pendingAmountCents: number | null;
  canSkip: boolean;
  /** False for card instalments whose Stripe schedule does not bill yet: Pause would be refused. */
  canPause: boolean;
  /** Where the payments would stand if the next were skipped (the skip question says so). */
  afterSkip: { nextChargeDate: string | null; endDate: string | null } | null;
  paymentMethod: "card" | "paypal";
  /** "Visa ending 4242, expires 12/2034", "PayPal", or "Card" while Stripe has not told us. */
  paidWith: string;
}

export interface TaxSummaryData {
  financialYear: number;
  from: string;
  to: string;
  deductibleTotalCents: number;
  nonDeductibleTotalCents: number;
  funds: { fund: string; totalCents: number; count: number }[];
  receipts: ReceiptData[];
}

const RECEIPT_FIELDS = "number donationId donorName fund date totalCents taxDeductible financialYear";
const GIFT_FIELDS =
  "id reference fund schedule openEnded amountCents feeCents totalCents coversFees status nextChargeDate endDate startDate paidCount chargeCount scheduleTotalCents pendingAmountCents canSkip canPause afterSkip { nextChargeDate endDate } paymentMethod paidWith";

/** The regular gifts alone: read again after a new card, until Stripe's webhook has saved it. */
export const REGULAR_GIFTS_QUERY = `query RegularGifts { regularGifts { ${GIFT_FIELDS} } }`;

export const GIVING_QUERY = `query Giving {
  donations { id donationId reference fund schedule amountCents feeCents totalCents date status regularGiftId chargeNumber chargeCount retryDates receipt { ${RECEIPT_FIELDS} } }
  regularGifts { ${GIFT_FIELDS} }
  claimableGuestGifts
}`;

/** Adds the gifts given as a guest with the account's verified e-mail (the donor pressed the button). */
export const CLAIM_GUEST_GIFTS = `mutation Claim { claim: claimGuestGifts(confirm: true) { claimed message } }`;

export const TAX_SUMMARY_QUERY = `query TaxSummary($year: Int!) {
  taxSummary(financialYear: $year) { financialYear from to deductibleTotalCents nonDeductibleTotalCents
    funds { fund totalCents count } receipts { ${RECEIPT_FIELDS} } }
}`;

export type GiftAction = "pause" | "resume" | "change" | "card" | "skip" | "cancel";

const MUTATIONS: Record<GiftAction, string> = {
  pause: "pauseRegularGift(id: $id)",
  resume: "resumeRegularGift(id: $id)",
  change: "changeRegularGiftAmount(id: $id, amountCents: $amountCents)",
  card: "changeRegularGiftCard(id: $id)",
  skip: "skipRegularGiftCharge(id: $id, date: $date)",
  cancel: "cancelRegularGift(id: $id, confirm: true)",
};

export function giftMutation(action: GiftAction): string {
  const args =
    action === "change" ? "$id: ID!, $amountCents: Int!" : action === "skip" ? "$id: ID!, $date: String!" : "$id: ID!";
  const result = action === "card" ? "clientSecret message" : "changed message url";
  return `mutation Gift(${args}) { change: ${MUTATIONS[action]} { ${result} gift { ${GIFT_FIELDS} } } }`;
}

export interface GiftChangeData {
  change: { changed?: boolean; url?: string | null; clientSecret?: string | null; message: string; gift: GiftData };
}

/** Words for the donor. */
export const money = formatDollarsAndCents;
export { fundName };

const SCHEDULES: Record<string, string> = {
  once: "One-off",
  monthly: "Monthly",
  "monthly-instalments": "Monthly instalments",
  "weekly-friday": "Every Friday",
  "ramadan-nightly": "Every night of Ramadan",
  "ramadan-last-ten": "Last ten nights of Ramadan",
  "dhul-hijjah-ten-days": "First ten days of Dhul Hijjah",
};
export const scheduleName = (schedule: string) => SCHEDULES[schedule] ?? schedule;

const DONATION_STATUS: Record<DonationStatusName, string> = {
  SUCCEEDED: "Paid",
  PROCESSING: "Processing",
  REQUIRES_PAYMENT_METHOD: "Not paid: the payment was not completed",
  FAILED: "Failed: nothing was charged",
  REFUNDED: "Refunded to you",
  DISPUTED: "Contested by your bank",
};
/** A plan's failed payment says what happens next and what the donor can do. */
export const donationStatusName = (status: DonationStatusName, ofPlan = false) =>
  status === "FAILED" && ofPlan
    ? "Failed: nothing was charged. Your bank declined this payment; if your card has changed, use Change card under Regular gifts."
    : (DONATION_STATUS[status] ?? status);

const GIFT_STATUS: Record<GiftStatusName, string> = {
  PENDING: "Waiting for the first payment",
  ACTIVE: "Active",
  PAUSED: "Paused",
  CANCELLED: "Cancelled",
  COMPLETED: "Complete: every payment made",
};
export const giftStatusName = (status: GiftStatusName) => GIFT_STATUS[status] ?? status;

/** "monthly gift", "weekly gift", "instalment plan", "scheduled gift" */
export function giftKind(schedule: string): string {
  if (schedule === "monthly") return "monthly gift";
  if (schedule === "weekly-friday") return "weekly gift";
  if (schedule === "monthly-instalments") return "instalment plan";
  return "scheduled gift";
}

/** "a month" / "a week" / "each time" */
export function giftPer(schedule: string): string {
  if (schedule === "monthly" || schedule === "monthly-instalments") return "a month";
  if (schedule === "weekly-friday") return "a week";
  return "each time";
}

/** "3 of 12 paid", or "3 paid so far" for an open-ended gift. */
export const giftProgress = (g: Pick<GiftData, "paidCount" | "chargeCount">) =>
  g.chargeCount === null ? `${g.paidCount} paid so far` : `${g.paidCount} of ${g.chargeCount} paid`;

/** "Payment 3 of 12" for a finite schedule's charge; null for a one-off or open-ended one. */
export const chargeOf = (d: Pick<DonationData, "chargeNumber" | "chargeCount">) =>
  d.chargeCount === null ? null : `Payment ${d.chargeNumber} of ${d.chargeCount}`;

/** "2026-07-01" → "1 July 2026" (the API's dates are already Sydney days; no time zone maths here). */
export function longDate(iso: string): string {
  const [y, m, d] = iso.split("-").map(Number);
  if (!y || !m || !d) return iso;
  return `${d} ${MONTHS[m - 1]} ${y}`;
}

/** The Australian financial year a Sydney day falls in, named by the year it ends. */
export function financialYearOf(iso: string): number {
  const [y, m] = iso.split("-").map(Number);
  return m! >= 7 ? y! + 1 : y!;
}

/** 2026 → "1 July 2025 to 30 June 2026" */
export const financialYearName = (year: number) => `1 July ${year - 1} to 30 June ${year}`;

/** "12.50" or "$1,200" → cents; null when it is not an amount. */
export function parseDollars(text: string): number | null {
  const clean = text.trim().replace(/^\$/, "").replace(/,/g, "");
  if (!/^\d+(\.\d{1,2})?$/.test(clean)) return null;
  return Math.round(Number(clean) * 100);
}
