/**
 * What the account knows of one donation, whichever store holds it (memory for --watch and the
 * dev server, the payments service's database in production), and the views worked out from it:
 * the history's rows (one per charge that happened), the receipts, and the plan. Pure: the
 * stores map their storage into `DonationFacts`; everything the donor reads is decided here once.
 */
import { skippedBeforeStart, stripeBillingDate } from "../payments/billing-dates.js";
import { chargeFor } from "../payments/fees.js";
import { FUND_NAMES } from "../payments/fund-names.js";
import { isTaxDeductible } from "../payments/fund-rules.js";
import {
  type DonationStatus,
  FUNDS,
  type Fund,
  type InstalmentPlan,
  SEASONAL_FREQUENCIES,
  type ScheduledCharge,
} from "../payments/types.js";

/**
 * Funds whose gifts are tax-deductible: the one setting, `taxDeductible` in the fund rules
 * (src/payments/fund-rules.ts), which the donation page and the receipts read too. A receipt the
 * service issued says what it said when issued (`ChargeFacts.receipt`).
 */
export const TAX_DEDUCTIBLE_FUNDS: Readonly<Record<Fund, boolean>> = Object.fromEntries(
  FUNDS.map((fund) => [fund, isTaxDeductible(fund)]),
) as Record<Fund, boolean>;

export interface ChargeFacts {
  /** 1 for the first charge of the schedule. */
  n: number;
  /** The provider's id of the payment, when there is one (receipts are keyed by it). */
  id?: string;
  /** YYYY-MM-DD in Sydney. */
  date: string;
  amountCents: number;
  feeCents: number;
  totalCents: number;
  status: DonationStatus;
  /** A declined scheduled charge the job will try again: those days (Sydney), soonest first. */
  retryDates?: string[];
  /** The receipt the service issued for it, as issued; absent: worked out here (memory store). */
  receipt?: { number: string; taxDeductible: boolean } | null;
}

/** The donor's choices about a plan, kept by the account (the provider was told first). */
export interface PlanState {
  /** The gift per charge before fees; null: as given. */
  amountCents: number | null;
  paused: boolean;
  cancelled: boolean;
  /** A new gift per charge waiting for the payer's consent at the provider (PayPal); null: none. */
  pendingAmountCents?: number | null;
  /** What the provider will bill for the pending amount (the gift and any covered fee). */
  pendingTotalCents?: number | null;
  /** Charges the donor skipped: every charge still to come is this many periods later. */
  skips?: number;
}

export interface DonationFacts {
  donationId: string;
  reference: string;
  fund: Fund;
  frequency: string;
  /** How it is paid: by card (Stripe) or through PayPal. */
  paymentMethod?: "card" | "paypal";
  intentType: "payment" | "setup";
  openEnded: boolean;
  schedule: ScheduledCharge[];
  instalments?: InstalmentPlan | null;
  scheduleTotalCents: number | null;
  amountCents: number;
  coverFees: boolean;
  currency: string;
  /** The day it was made, YYYY-MM-DD in Sydney. */
  date: string;
  /** The first payment's status (for a SetupIntent: whether the card was saved). */
  status: DonationStatus;
  donorName: string;
  donorEmail: string;
  /** The account it belongs to; null for a guest gift not yet claimed. */
  sub: string | null;
  /** Every charge that the store knows of, in any order. */
  charges: ChargeFacts[];
  plan: PlanState;
  /**
   * Dates of a schedule the service's job charges (every Friday, the seasons) that it will not
   * charge: skipped by the donor, or due while the plan was paused (`scheduled_charges`).
   */
  skippedDates?: string[];
  /**
   * Where Stripe's monthly billing of a card plan is anchored (an ISO moment: a monthly gift's
   * subscription's billing_cycle_anchor, the start of an instalment plan's schedule); its dates
   * come from it as Stripe works them out (src/payments/billing-dates.ts). Absent: the schedule's.
   */
  billingAnchor?: string | null;
  /** The skips the anchor already holds (an instalment schedule moved before it started). */
  billingAnchorSkips?: number;
  /**
   * Which payment (1: the first) an instalment plan's anchor is the date of: 2 for the schedule
   * made after the first payment, the next one still to come for a schedule laid on resume.
   */
  billingAnchorCharge?: number;
  /** The card it is charged to, as Stripe described it (the webhook kept it); null: not known. */
  card?: CardFacts | null;
}

export interface CardFacts {
  /** "Visa", "Mastercard", … or "Card". */
  brand: string;
  last4: string | null;
  expMonth: number | null;
  expYear: number | null;
}

export interface Receipt {
  number: string;
  donationId: string;
  donorName: string;
  fund: Fund;
  date: string;
  totalCents: number;
  taxDeductible: boolean;
  financialYear: number;
}

export type GiftStatus = "PENDING" | "ACTIVE" | "PAUSED" | "CANCELLED" | "COMPLETED";

export interface GiftView {
  id: string;
  donationId: string;
  reference: string;
  fund: Fund;
  schedule: string;
  openEnded: boolean;
  amountCents: number;
  feeCents: number;
  totalCents: number;
  coversFees: boolean;
  status: GiftStatus;
  nextChargeDate: string | null;
  /** The last date of a finite schedule; null when open-ended. */
  endDate: string | null;
  paidCount: number;
  /** Payments made or tried (paid, failed, on their way, returned): the next one's number less one. */
  madeCount: number;
  /** Charges in all of a finite schedule; null when open-ended. */
  chargeCount: number | null;
  scheduleTotalCents: number | null;
  startDate: string;
  /** A new amount asked for, waiting for the donor's consent at PayPal; null when none. */
  pendingAmountCents: number | null;
  /** Charges skipped so far (each moved the rest one period later). */
  skippedCount: number;
  /** Whether the next charge can be skipped (card gifts: monthly, instalments, every Friday, the seasons). */
  canSkip: boolean;
  /**
   * Whether a pause is taken: false only for card instalments whose Stripe schedule is not made yet
   * (no first payment), which nothing at Stripe could hold.
   */
  canPause: boolean;
  /** Where the payments stand if the next is skipped: the one after it, and the last (null: open-ended or none). */
  afterSkip: { nextChargeDate: string | null; endDate: string | null } | null;
  /** How it is paid: "card" (Stripe) or "paypal" (its card is changed in PayPal). */
  paymentMethod: "card" | "paypal";
  /** The card it is charged to (card gifts, once Stripe told us); null for PayPal or not known yet. */
  card: CardFacts | null;
  /** "Visa ending 4242, expires 12/2034", "PayPal", or "Card" when not known yet. */
  paidWith: string;
}

/** The Australian financial year a date falls in, named by the year it ends: 2025-07-01 → 2026. */
export function financialYearOf(date: string): number {
  const year = Number(date.slice(0, 4));
  return Number(date.slice(5, 7)) >= 7 ? year + 1 : year;
}

/** A payment that counts: paid, failed, on its way, or paid then returned. Never-paid checkouts are not history. */
const HAPPENED = new Set<DonationStatus>(["succeeded", "failed", "processing", "refunded", "disputed"]);
const PAID = new Set<DonationStatus>(["succeeded"]);

export const isPlan = (f: DonationFacts) => f.frequency !== "once";
export const planId = (f: DonationFacts) => `gift_${f.donationId}`;

export const chargeId = (f: DonationFacts, n: number) => (n === 1 ? f.donationId : `${f.donationId}-${n}`);

export const shownCharges = (f: DonationFacts) =>
  [...f.charges].filter((c) => HAPPENED.has(c.status)).sort((a, b) => a.n - b.n);

/** A donation is the donor's once a payment happened, or (first charge later) the card was saved. */
export const counts = (f: DonationFacts) =>
  shownCharges(f).length > 0 || (f.intentType === "setup" && f.status === "succeeded");

/** Paid at some time (a refunded or disputed charge was paid, and its receipt took its number). */
const WAS_PAID = new Set<DonationStatus>(["succeeded", "refunded", "disputed"]);

/**
 * The account's own receipt number of a paid charge (the memory store's; the service issues its
 * own): the reference, then -02, -03… counted over paid charges, so a failed charge takes none.
 */
function ownNumber(f: DonationFacts, c: ChargeFacts): string {
  const k = f.charges.filter((x) => x.n <= c.n && WAS_PAID.has(x.status)).length;
  return k <= 1 ? f.reference : `${f.reference}-${String(k).padStart(2, "0")}`;
}

export function receiptOf(f: DonationFacts, c: ChargeFacts): Receipt | null {
  if (!PAID.has(c.status)) return null;
  if (c.receipt === null) return null;
  return {
    number: c.receipt?.number ?? ownNumber(f, c),
    donationId: chargeId(f, c.n),
    donorName: f.donorName,
    fund: f.fund,
    date: c.date,
    totalCents: c.totalCents,
    taxDeductible: c.receipt?.taxDeductible ?? TAX_DEDUCTIBLE_FUNDS[f.fund],
    financialYear: financialYearOf(c.date),
  };
}

/** The history's rows of one donation: one per charge that happened, newest first. */
export function historyOf(f: DonationFacts) {
  return shownCharges(f)
    .reverse()
    .map((c) => ({
      id: chargeId(f, c.n),
      donationId: f.donationId,
      reference: f.reference,
      fund: f.fund,
      schedule: f.frequency,
      amountCents: c.amountCents,
      feeCents: c.feeCents,
      totalCents: c.totalCents,
      currency: f.currency,
      date: c.date,
      status: c.status.toUpperCase(),
      regularGiftId: isPlan(f) ? planId(f) : null,
      chargeNumber: c.n,
      chargeCount: f.openEnded || f.frequency === "once" ? null : asCharged(f).schedule.length,
      retryDates: c.status === "failed" ? (c.retryDates ?? []) : [],
      receipt: receiptOf(f, c),
    }));
}

/**
 * The whole gift of a finite schedule: as given, or (after a new amount) what was paid plus the
 * payments still to come at the new amount.
 */
function scheduleTotal(f: DonationFacts, charges: ChargeFacts[], amountCents: number): number | null {
  if (f.plan.amountCents === null || f.plan.amountCents === undefined) return f.scheduleTotalCents;
  const paid = charges.filter((c) => c.status === "succeeded");
  return paid.reduce((s, c) => s + c.amountCents, 0) + Math.max(0, f.schedule.length - paid.length) * amountCents;
}

export function giftView(given: DonationFacts, today: string): GiftView {
  const f = asCharged(given, today);
  const amountCents = f.plan.amountCents ?? f.amountCents;
  const { feeCents, totalCents } = chargeFor(amountCents, f.coverFees);
  const charges = shownCharges(f);
  const paidCount = charges.filter((c) => c.status === "succeeded").length;
  const chargeCount = f.openEnded ? null : f.schedule.length;
  const first = charges[0];
  const started = first ? first.status === "succeeded" || first.status === "processing" : f.status === "succeeded";
  const status: GiftStatus = f.plan.cancelled
    ? "CANCELLED"
    : chargeCount !== null && paidCount >= chargeCount
      ? "COMPLETED"
      : f.plan.paused
        ? "PAUSED"
        : started
          ? "ACTIVE"
          : "PENDING";
  const { next, end } = datesOf(f, today);
  const nextChargeDate = status === "ACTIVE" || status === "PENDING" ? next : null;
  const canSkip =
    (SKIP_PERIOD[f.frequency] !== undefined || JOB_CHARGED.has(f.frequency)) && f.paymentMethod !== "paypal";
  return {
    id: planId(f),
    donationId: f.donationId,
    reference: f.reference,
    fund: f.fund,
    schedule: f.frequency,
    openEnded: f.openEnded,
    amountCents,
    feeCents,
    totalCents,
    coversFees: f.coverFees,
    status,
    nextChargeDate,
    endDate: end,
    paidCount,
    madeCount: charges.length,
    chargeCount,
    scheduleTotalCents: f.openEnded ? null : scheduleTotal(f, charges, amountCents),
    startDate: f.date,
    pendingAmountCents: f.plan.pendingAmountCents ?? null,
    skippedCount: f.plan.skips ?? 0,
    canSkip,
    canPause: !instalmentsWithoutSchedule(f),
    afterSkip:
      canSkip && status === "ACTIVE" && nextChargeDate
        ? (({ next: n, end: e }) => ({ nextChargeDate: n, endDate: e }))(
            datesOf(asCharged(withSkipped(given, nextChargeDate), today), today),
          )
        : null,
    paymentMethod: f.paymentMethod ?? "card",
    card: f.paymentMethod === "paypal" ? null : (f.card ?? null),
    paidWith: paidWith(f),
  };
}

/** How the donor reads the way a gift is paid: the card's brand, last digits and expiry, or PayPal. */
export function paidWith(f: Pick<DonationFacts, "paymentMethod" | "card">): string {
  if (f.paymentMethod === "paypal") return "PayPal";
  const card = f.card;
  if (!card) return "Card";
  const ending = card.last4 ? ` ending ${card.last4}` : "";
  const expires =
    card.expMonth && card.expYear ? `, expires ${String(card.expMonth).padStart(2, "0")}/${card.expYear}` : "";
  return `${card.brand}${ending}${expires}`;
}

/** The next charge date and the last (null when open-ended) of a plan as charged (asCharged). */
function datesOf(f: DonationFacts, today: string): { next: string | null; end: string | null } {
  const attempted = shownCharges(f).length;
  const count = f.openEnded ? Number.POSITIVE_INFINITY : f.schedule.length;
  // The i-th charge's date (0: the first), with the skips of a plan Stripe bills.
  const dateOf = chargeDates(f);
  let next: string | null = null;
  // A paused plan's periods pass uncharged: the first date still to come (a bounded search).
  for (let i = attempted; i < count && i < attempted + MAX_PERIODS_AHEAD; i++) {
    const date = dateOf(i);
    if (date === null) break;
    if (date > today || (attempted === 0 && date >= today)) {
      next = date;
      break;
    }
  }
  if (f.openEnded || f.schedule.length === 0) return { next, end: null };
  const end = attempted >= f.schedule.length ? (f.instalments?.endDate ?? f.schedule.at(-1)!.date) : dateOf(count - 1);
  return { next, end };
}

/** How far ahead of the charges made the next date is looked for (a plan paused for 50 years). */
const MAX_PERIODS_AHEAD = 600;

/**
 * The date of each charge of a plan (0: the first): from Stripe's billing anchor for a card plan
 * Stripe bills (each skip voided one period; the anchor stays), else the schedule's own dates
 * (each skip a period later), and the job's dates as they are (asCharged dropped the skipped).
 */
function chargeDates(f: DonationFacts): (i: number) => string | null {
  const skips = JOB_CHARGED.has(f.frequency) ? 0 : (f.plan.skips ?? 0);
  const anchor = f.billingAnchor;
  if (anchor && f.paymentMethod !== "paypal") {
    // A monthly gift's first charge is the anchor; an instalment plan's schedule starts on its second.
    if (f.frequency === "monthly") return (i) => stripeBillingDate(anchor, i + skips);
    if (f.frequency === "monthly-instalments") {
      // The anchor is the date of payment `billingAnchorCharge` (index one less).
      const at = (f.billingAnchorCharge ?? 2) - 1;
      return (i) =>
        i === 0
          ? (f.schedule[0]?.date ?? null)
          : stripeBillingDate(anchor, i - at + Math.max(0, skips - (f.billingAnchorSkips ?? 0)));
    }
  }
  return (i) => {
    const s = f.schedule[i];
    return s ? movedBy(f.frequency, s.date, skips) : null;
  };
}

/**
 * The plan with the charge of `date` skipped: for a plan the job charges, that date dropped; for
 * one Stripe bills, every charge still to come a period later; for an instalment schedule that has
 * not started, its start moved a month on by the very rule the service moves it with
 * (`skippedBeforeStart`), so the skip's preview (afterSkip) and the account after it agree.
 */
export function withSkipped(f: DonationFacts, date: string): DonationFacts {
  if (JOB_CHARGED.has(f.frequency)) return { ...f, skippedDates: [...(f.skippedDates ?? []), date] };
  const skips = f.plan.skips ?? 0;
  if (scheduleNotStarted(f, date)) {
    const moved = skippedBeforeStart(f.billingAnchor!, skips);
    return {
      ...f,
      plan: { ...f.plan, skips: moved.skips },
      billingAnchor: new Date(moved.anchor * 1000).toISOString(),
      billingAnchorSkips: moved.skips,
    };
  }
  return { ...f, plan: { ...f.plan, skips: skips + 1 } };
}

/**
 * Card instalments whose Stripe schedule is not made yet: it is made, with the plan's billing
 * anchor, by the first payment's webhook. Until then there is nothing at Stripe a pause could hold.
 */
export function instalmentsWithoutSchedule(f: DonationFacts): boolean {
  return (
    f.frequency === "monthly-instalments" &&
    f.paymentMethod !== "paypal" &&
    (shownCharges(f).length === 0 || !f.billingAnchor)
  );
}

/**
 * Whether `date`, the next charge of a card instalment plan, is its Stripe schedule's start: no
 * payment after the first has happened and the anchor holds every skip. The schedule starts at
 * 00:00 UTC of a day still to come in Sydney, so Stripe has not started it either.
 */
function scheduleNotStarted(f: DonationFacts, date: string): boolean {
  const anchor = f.billingAnchor;
  if (f.frequency !== "monthly-instalments" || !anchor || f.paymentMethod === "paypal") return false;
  const before = (f.billingAnchorCharge ?? 2) - 1;
  if (shownCharges(f).length > before || (f.billingAnchorSkips ?? 0) !== (f.plan.skips ?? 0)) return false;
  return stripeBillingDate(anchor, 0) === date;
}

/** Whether the donor already skipped the charge of `date` (a day still to come). */
export function skippedAlready(f: DonationFacts, date: string, today: string): boolean {
  if (date > today && (f.skippedDates ?? []).includes(date)) return true;
  if (JOB_CHARGED.has(f.frequency)) return false;
  const skips = f.plan.skips ?? 0;
  if (skips === 0) return false;
  const before = giftView({ ...f, plan: { ...f.plan, skips: skips - 1 } }, today);
  return before.nextChargeDate === date && giftView(f, today).nextChargeDate !== date;
}

/**
 * Schedules the service's own job charges (src/api/jobs/due-charges.ts): a skip drops that one
 * date (the job finds it skipped in `scheduled_charges`) and the others stay on theirs: every
 * Friday goes on, and the seasons' nights cannot move.
 */
export const JOB_CHARGED: ReadonlySet<string> = new Set(["weekly-friday", ...SEASONAL_FREQUENCIES]);

/** How many weeks past today an open-ended weekly schedule is worked out to. */
const WEEKS_AHEAD = 3;

const plusDays = (date: string, days: number) =>
  new Date(Date.parse(`${date}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);

/**
 * A plan as it is charged: for the job's schedules, the dates the job will charge (every Friday
 * going on every 7 days after the stored ones, as the job does; the skipped dates left out, and
 * their amounts out of a finite plan's total). Other plans as they are.
 */
export function asCharged(f: DonationFacts, today?: string): DonationFacts {
  if (!JOB_CHARGED.has(f.frequency)) return f;
  const skipped = new Set(f.skippedDates ?? []);
  const dates = [...f.schedule];
  if (f.frequency === "weekly-friday" && dates.length > 0 && today) {
    const enough = shownCharges(f).length + skipped.size + 2;
    const horizon = plusDays(today, 7 * WEEKS_AHEAD);
    while (dates.at(-1)!.date <= horizon || dates.length < enough) {
      const last = dates.at(-1)!;
      dates.push({ date: plusDays(last.date, 7), amountCents: last.amountCents });
    }
  }
  const dropped = f.schedule.filter((c) => skipped.has(c.date)).reduce((sum, c) => sum + c.amountCents, 0);
  return {
    ...f,
    schedule: dates.filter((c) => !skipped.has(c.date)),
    scheduleTotalCents:
      f.scheduleTotalCents === null || f.openEnded ? f.scheduleTotalCents : f.scheduleTotalCents - dropped,
  };
}

/**
 * How far a skip moves the charges to come, per schedule: the monthly ones Stripe bills. The
 * job's schedules (JOB_CHARGED) drop the skipped date instead; PayPal has no skip of one payment
 * (pause and resume instead).
 */
const SKIP_PERIOD: Record<string, { months?: number; days?: number }> = {
  monthly: { months: 1 },
  "monthly-instalments": { months: 1 },
};

const MONTHS = "January February March April May June July August September October November December".split(" ");
/** "2026-04-15" → "15 April 2026", as the site writes dates. */
export function longDate(date: string): string {
  const [y, m, d] = date.split("-").map(Number) as [number, number, number];
  return `${d} ${MONTHS[m - 1]} ${y}`;
}

/** A YYYY-MM-DD date `n` periods of the schedule later (a 31st moves to the month's last day). */
export function movedBy(frequency: string, date: string, n: number): string {
  const period = SKIP_PERIOD[frequency];
  if (!period || n === 0) return date;
  const [y, m, d] = date.split("-").map(Number) as [number, number, number];
  if (period.days) return new Date(Date.UTC(y, m - 1, d + period.days * n)).toISOString().slice(0, 10);
  const months = m - 1 + (period.months ?? 0) * n;
  const last = new Date(Date.UTC(y, months + 1, 0)).getUTCDate();
  return new Date(Date.UTC(y, months, Math.min(d, last))).toISOString().slice(0, 10);
}

/** "Your monthly gift to Zakat", for the sentences the donor reads. */
export function describePlan(f: Pick<DonationFacts, "frequency" | "fund">): string {
  const fund = FUND_NAMES[f.fund];
  if (f.frequency === "monthly") return `Your monthly gift to ${fund}`;
  if (f.frequency === "weekly-friday") return `Your weekly gift to ${fund}`;
  if (f.frequency === "monthly-instalments") return `Your ${fund} instalment plan`;
  return `Your scheduled gift to ${fund}`;
}
