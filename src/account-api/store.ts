/**
 * The donor data the account API reads and changes: donations, each charge of each donation, and
 * the plans (regular gifts, instalments, seasonal series) those donations started. In memory here,
 * behind the `AccountStore` shape, until the payments service's database takes it over (the same
 * shape over its tables). One store is shared by the payments dev server (which records) and the
 * account API dev server (which reads and changes), so a donation made in a test or in `--watch`
 * shows in the donor's account at once.
 *
 * What the history tells is what happened: one row per charge, paid or failed; a checkout that was
 * never paid (`requires_payment_method`: abandoned, or waiting for the card) is nobody's history.
 */
import { randomUUID } from "node:crypto";
import { chargeFor } from "../payments/fees.js";
import { FUND_NAMES } from "../payments/fund-names.js";
import { DEFAULT_FUND_RULES, type FundRules } from "../payments/fund-rules.js";
import { formatDollars } from "../payments/money.js";
import { todayIn } from "../payments/schedules.js";
import {
  type DonationCreated,
  type DonationRequest,
  type DonationStatus,
  FUNDS,
  type Fund,
} from "../payments/types.js";
import { localPlanProvider, type PlanProvider } from "./plan-provider.js";
import { sameMailbox } from "./same-mailbox.js";

const TIME_ZONE = "Australia/Sydney";

/**
 * Funds whose gifts are tax-deductible, until the payments service's one deductibility setting
 * lands (the page, the receipt and the account must all read that one). What the content says
 * wins: the zakat page and the FAQ say zakat is not tax-deductible, the tainted-wealth page says
 * that purification is not either; qurban buys an animal sacrificed for the donor, a benefit in
 * return. The rest are gifts, a placeholder the foundation must confirm with its accountant.
 */
export const TAX_DEDUCTIBLE_FUNDS: Readonly<Record<Fund, boolean>> = {
  zakat: false,
  fitr: true,
  fidyah: true,
  sadaqah: true,
  qurban: false,
  ramadan: true,
  "dhul-hijjah": true,
  "tainted-wealth": false,
  "jumuah-giving": true,
};

/** Names for sentences the donor reads; shared with the account island (src/payments/fund-names.ts). */
export { FUND_NAMES };

/**
 * Whose a donation is: the account's `sub` when a verified access token came with it. A guest
 * gift has no `sub` until its donor claims it (claimGuestGifts); its e-mail is only the address
 * the donor typed, kept to offer that claim, and never decides who may read it.
 */
export interface DonorKey {
  sub?: string;
}

/** One attempt to take a payment of a donation's schedule: the nth charge. */
export interface StoredCharge {
  n: number;
  /** YYYY-MM-DD in Sydney. */
  date: string;
  amountCents: number;
  feeCents: number;
  totalCents: number;
  status: () => DonationStatus;
}

export interface StoredDonation {
  created: DonationCreated;
  request: DonationRequest;
  donor: DonorKey;
  /** The first payment's live status (for a SetupIntent: whether the card was saved). */
  status: () => DonationStatus;
  /** The day it was made, YYYY-MM-DD in Sydney. */
  date: string;
  planId?: string;
  /** Charges after the first, as the provider's webhooks report them (recordCharge). */
  laterCharges: StoredCharge[];
}

export interface StoredPlan {
  id: string;
  donationId: string;
  amountCents: number;
  paused: boolean;
  cancelled: boolean;
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
  /** Charges paid so far. */
  paidCount: number;
  /** Charges in all for a finite schedule; null when open-ended. */
  chargeCount: number | null;
  /** The whole gift of a finite schedule (its charges added up); null when open-ended. */
  scheduleTotalCents: number | null;
  startDate: string;
}

/** A refusal the donor can act on: the GraphQL error's message and `extensions.code`. */
export class AccountError extends Error {
  /** GraphQL copies an original error's `extensions` into the answer. */
  readonly extensions: { code: string };
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = "AccountError";
    this.extensions = { code };
  }
}

/** The Australian financial year a date falls in, named by the year it ends: 2025-07-01 → 2026. */
export function financialYearOf(date: string): number {
  const year = Number(date.slice(0, 4));
  return Number(date.slice(5, 7)) >= 7 ? year + 1 : year;
}

export interface AccountStoreOptions {
  now?: () => Date;
  fundRules?: Partial<Record<Fund, FundRules>>;
  /** Pauses, resumes, changes and cancels plans at the payment provider; the local one moves no money. */
  provider?: PlanProvider;
}

export type AccountStore = ReturnType<typeof createAccountStore>;

/** Newest first: the later of two made the same day comes first (a stable sort by date keeps it so). */
const newestFirst = <T>(items: T[]) => [...items].reverse();

/** A payment that counts: paid, failed, or on its way. Never-paid checkouts are not history. */
const HAPPENED = new Set<DonationStatus>(["succeeded", "failed", "processing"]);

export function createAccountStore(options: AccountStoreOptions = {}) {
  const now = options.now ?? (() => new Date());
  const provider = options.provider ?? localPlanProvider();
  const rulesFor = (fund: Fund): FundRules => options.fundRules?.[fund] ?? DEFAULT_FUND_RULES[fund];
  const donations: StoredDonation[] = [];
  const plans = new Map<string, StoredPlan>();
  const today = () => todayIn(TIME_ZONE, now());

  // Identity is the token's sub and nothing else: a guest gift (no sub) belongs to nobody yet.
  const belongs = (owner: DonorKey, who: DonorKey) => owner.sub !== undefined && owner.sub === who.sub;

  const donationOf = (plan: StoredPlan) => donations.find((d) => d.created.donationId === plan.donationId)!;

  /** Every charge of a donation, first to last. A SetupIntent's first charge is later, by webhook. */
  function chargesOf(d: StoredDonation): StoredCharge[] {
    const first: StoredCharge[] =
      d.created.intentType === "payment"
        ? [
            {
              n: 1,
              date: d.date,
              amountCents: d.created.amountCents,
              feeCents: d.created.feeCents,
              totalCents: d.created.totalCents,
              status: d.status,
            },
          ]
        : [];
    return [...first, ...d.laterCharges].sort((a, b) => a.n - b.n);
  }

  const shownCharges = (d: StoredDonation) => chargesOf(d).filter((c) => HAPPENED.has(c.status()));

  /** A donation is the donor's once a payment happened, or (saved card, first charge later) the card was saved. */
  const counts = (d: StoredDonation) =>
    shownCharges(d).length > 0 || (d.created.intentType === "setup" && d.status() === "succeeded");

  function giftView(plan: StoredPlan): GiftView {
    const d = donationOf(plan);
    const c = d.created;
    const coversFees = d.request.coverFees;
    const { feeCents, totalCents } = chargeFor(plan.amountCents, coversFees);
    const charges = chargesOf(d);
    const paidCount = charges.filter((x) => x.status() === "succeeded").length;
    const attempted = charges.filter((x) => HAPPENED.has(x.status())).length;
    const chargeCount = c.openEnded ? null : c.schedule.length;
    const firstPaid = charges[0]
      ? ["succeeded", "processing"].includes(charges[0].status())
      : d.status() === "succeeded";
    const status: GiftStatus = plan.cancelled
      ? "CANCELLED"
      : chargeCount !== null && paidCount >= chargeCount
        ? "COMPLETED"
        : plan.paused
          ? "PAUSED"
          : firstPaid
            ? "ACTIVE"
            : "PENDING";
    const upcoming = c.schedule
      .slice(attempted)
      .find((s) => s.date > today() || (attempted === 0 && s.date >= today()));
    const next = status === "ACTIVE" || status === "PENDING" ? (upcoming?.date ?? null) : null;
    return {
      id: plan.id,
      donationId: plan.donationId,
      reference: c.reference,
      fund: d.request.fund,
      schedule: c.frequency,
      openEnded: c.openEnded,
      amountCents: plan.amountCents,
      feeCents,
      totalCents,
      coversFees,
      status,
      nextChargeDate: next,
      endDate: c.openEnded ? null : (c.instalments?.endDate ?? c.schedule.at(-1)?.date ?? null),
      paidCount,
      chargeCount,
      scheduleTotalCents: c.openEnded ? null : c.scheduleTotalCents,
      startDate: d.date,
    };
  }

  const receiptNumber = (d: StoredDonation, n: number) =>
    n === 1 ? d.created.reference : `${d.created.reference}-${String(n).padStart(2, "0")}`;
  const chargeId = (d: StoredDonation, n: number) => (n === 1 ? d.created.donationId : `${d.created.donationId}-${n}`);

  function receiptOf(d: StoredDonation, charge: StoredCharge): Receipt | null {
    if (charge.status() !== "succeeded") return null;
    return {
      number: receiptNumber(d, charge.n),
      donationId: chargeId(d, charge.n),
      donorName: `${d.request.donor.firstName} ${d.request.donor.lastName}`.trim(),
      fund: d.request.fund,
      date: charge.date,
      totalCents: charge.totalCents,
      taxDeductible: TAX_DEDUCTIBLE_FUNDS[d.request.fund],
      financialYear: financialYearOf(charge.date),
    };
  }

  function ownPlan(who: DonorKey, id: string): StoredPlan {
    const plan = plans.get(id);
    if (!plan || !belongs(donationOf(plan).donor, who) || !counts(donationOf(plan))) {
      throw new AccountError(
        "GIFT_NOT_FOUND",
        "We could not find that regular gift in your account. Reload the page to see your current gifts.",
      );
    }
    return plan;
  }

  const describe = (p: StoredPlan) => {
    const c = donationOf(p).created;
    const fund = FUND_NAMES[donationOf(p).request.fund];
    if (c.frequency === "monthly") return `Your monthly gift to ${fund}`;
    if (c.frequency === "weekly-friday") return `Your weekly gift to ${fund}`;
    if (c.frequency === "monthly-instalments") return `Your ${fund} instalment plan`;
    return `Your scheduled gift to ${fund}`;
  };

  function change(plan: StoredPlan, changed: boolean, message: string) {
    return { gift: giftView(plan), changed, message };
  }

  function refuseIfOver(plan: StoredPlan) {
    const view = giftView(plan);
    if (view.status === "CANCELLED" || view.status === "COMPLETED") {
      const fund = FUND_NAMES[view.fund];
      throw new AccountError(
        "GIFT_CANCELLED",
        `${describe(plan)} ${view.status === "CANCELLED" ? "was cancelled" : "is complete"} and cannot be changed. To give regularly again, start a new gift on the ${fund} page.`,
      );
    }
  }

  /** The provider first: if it refuses or fails, nothing here changes, and the donor is told so. */
  async function atProvider(call: () => Promise<void>) {
    try {
      await call();
    } catch (error) {
      if (error instanceof AccountError) throw error;
      throw new AccountError(
        "PROVIDER_UNAVAILABLE",
        "We could not reach our payment provider, so nothing was changed. Please try again in a few minutes.",
      );
    }
  }

  const visible = (who: DonorKey) => donations.filter((d) => belongs(d.donor, who) && counts(d));

  function receipts(who: DonorKey): Receipt[] {
    return newestFirst(visible(who))
      .flatMap((d) => newestFirst(chargesOf(d)).map((c) => receiptOf(d, c)))
      .filter((r): r is Receipt => r !== null)
      .sort((a, b) => (a.date < b.date ? 1 : a.date > b.date ? -1 : 0));
  }

  return {
    /** Records a donation the payments server created; called by its `onDonationCreated` hook. */
    record(donation: {
      created: DonationCreated;
      request: DonationRequest;
      donor: DonorKey;
      status: () => DonationStatus;
    }): void {
      const donor: DonorKey = donation.donor.sub ? { sub: donation.donor.sub } : {};
      const stored: StoredDonation = { ...donation, donor, date: today(), laterCharges: [] };
      if (donation.created.frequency !== "once") {
        const id = `gift_${randomUUID()}`;
        stored.planId = id;
        plans.set(id, {
          id,
          donationId: donation.created.donationId,
          amountCents: donation.created.amountCents,
          paused: false,
          cancelled: false,
        });
      }
      donations.push(stored);
    },

    /**
     * A later charge of a plan (the second instalment, next month's gift), as the provider's
     * webhook reports it; the same n again replaces the earlier report (a retried payment).
     */
    recordCharge(
      donationId: string,
      charge: { n: number; date: string; status: DonationStatus; amountCents?: number; totalCents?: number },
    ): void {
      const d = donations.find((x) => x.created.donationId === donationId);
      if (!d) throw new Error(`No donation ${donationId} in the account store.`);
      const plan = d.planId ? plans.get(d.planId) : undefined;
      // What the provider charged when it says; else the plan's amount now, with its fee.
      const fees = chargeFor(charge.amountCents ?? plan?.amountCents ?? d.created.amountCents, d.request.coverFees);
      if (charge.totalCents !== undefined) {
        fees.feeCents = charge.totalCents - fees.amountCents;
        fees.totalCents = charge.totalCents;
      }
      const status = charge.status;
      d.laterCharges = d.laterCharges.filter((c) => c.n !== charge.n);
      d.laterCharges.push({ n: charge.n, date: charge.date, ...fees, status: () => status });
    },

    /** Guest gifts (given without signing in) whose e-mail names this mailbox (same-mailbox.ts). */
    guestGiftsFor(email: string): number {
      return donations.filter(
        (d) => d.donor.sub === undefined && counts(d) && sameMailbox(d.request.donor.email, email),
      ).length;
    },

    /**
     * Files the guest gifts given with this e-mail under the account. The caller has checked that
     * the pool verified this e-mail for this account and that the donor asked for it.
     */
    claimGuestGifts(who: { sub: string }, verifiedEmail: string): number {
      let claimed = 0;
      for (const d of donations) {
        if (d.donor.sub === undefined && counts(d) && sameMailbox(d.request.donor.email, verifiedEmail)) {
          d.donor = { sub: who.sub };
          claimed++;
        }
      }
      return claimed;
    },

    /** One row per charge that happened (paid, failed or processing), newest first. */
    donations(who: DonorKey) {
      return newestFirst(visible(who))
        .flatMap((d) =>
          newestFirst(shownCharges(d)).map((charge) => ({
            id: chargeId(d, charge.n),
            donationId: d.created.donationId,
            reference: d.created.reference,
            fund: d.request.fund,
            schedule: d.created.frequency,
            amountCents: charge.amountCents,
            feeCents: charge.feeCents,
            totalCents: charge.totalCents,
            currency: d.created.currency,
            date: charge.date,
            status: charge.status().toUpperCase(),
            regularGiftId: d.planId ?? null,
            chargeNumber: charge.n,
            chargeCount: d.created.openEnded || d.created.frequency === "once" ? null : d.created.schedule.length,
            receipt: receiptOf(d, charge),
          })),
        )
        .sort((a, b) => (a.date < b.date ? 1 : a.date > b.date ? -1 : 0));
    },

    receipts,

    taxSummary(who: DonorKey, financialYear: number) {
      if (!Number.isInteger(financialYear) || financialYear < 2000 || financialYear > 2100) {
        throw new AccountError(
          "INVALID_FINANCIAL_YEAR",
          "Choose a financial year between 2000 and 2100, named by the year it ends (2026 is 1 July 2025 to 30 June 2026).",
        );
      }
      const inYear = receipts(who).filter((r) => r.financialYear === financialYear);
      const deductible = inYear.filter((r) => r.taxDeductible);
      const funds = FUNDS.map((fund) => {
        const mine = deductible.filter((r) => r.fund === fund);
        return { fund, totalCents: mine.reduce((s, r) => s + r.totalCents, 0), count: mine.length };
      }).filter((f) => f.count > 0);
      return {
        financialYear,
        from: `${financialYear - 1}-07-01`,
        to: `${financialYear}-06-30`,
        deductibleTotalCents: deductible.reduce((s, r) => s + r.totalCents, 0),
        receipts: deductible,
        funds,
        nonDeductibleTotalCents: inYear.filter((r) => !r.taxDeductible).reduce((s, r) => s + r.totalCents, 0),
      };
    },

    regularGifts(who: DonorKey): GiftView[] {
      return visible(who)
        .filter((d) => d.planId)
        .reverse()
        .map((d) => giftView(plans.get(d.planId!)!));
    },

    async pause(who: DonorKey, id: string) {
      const plan = ownPlan(who, id);
      refuseIfOver(plan);
      if (plan.paused)
        return change(
          plan,
          false,
          `${describe(plan)} is already paused. Nothing more will be charged until you resume it.`,
        );
      await atProvider(() => provider.pause(giftView(plan)));
      plan.paused = true;
      return change(plan, true, `${describe(plan)} is paused. Nothing more will be charged until you resume it.`);
    },

    async resume(who: DonorKey, id: string) {
      const plan = ownPlan(who, id);
      refuseIfOver(plan);
      if (!plan.paused) return change(plan, false, `${describe(plan)} is already active.`);
      await atProvider(() => provider.resume(giftView(plan)));
      plan.paused = false;
      return change(plan, true, `${describe(plan)} is active again.`);
    },

    async changeAmount(who: DonorKey, id: string, amountCents: number) {
      const plan = ownPlan(who, id);
      refuseIfOver(plan);
      const rules = rulesFor(donationOf(plan).request.fund);
      if (!Number.isInteger(amountCents) || amountCents < rules.minimumCents) {
        throw new AccountError(
          "BELOW_MINIMUM",
          `The minimum gift is ${formatDollars(rules.minimumCents)}. Enter a larger amount.`,
        );
      }
      if (amountCents > rules.maximumCents) {
        throw new AccountError(
          "ABOVE_MAXIMUM",
          `The most you can give online each time is ${formatDollars(rules.maximumCents)}. For a larger gift, please contact our office.`,
        );
      }
      const amount = formatDollars(amountCents);
      if (plan.amountCents === amountCents) return change(plan, false, `${describe(plan)} is already ${amount}.`);
      await atProvider(() => provider.changeAmount(giftView(plan), chargeFor(amountCents, giftView(plan).coversFees)));
      plan.amountCents = amountCents;
      return change(plan, true, `${describe(plan)} is now ${amount} each time, from the next charge.`);
    },

    /** Where the donor changes the card (the provider's own page); nothing changes here. */
    async changeCard(who: DonorKey, id: string) {
      const plan = ownPlan(who, id);
      refuseIfOver(plan);
      let url: string | null = null;
      await atProvider(async () => {
        url = await provider.cardChangeUrl(giftView(plan));
      });
      return {
        gift: giftView(plan),
        url,
        message: url
          ? `${describe(plan)}: change the card on our payment provider's secure page, then come back here.`
          : `${describe(plan)}: the card cannot be changed online here yet. Please call us on 1300 975 707 with your reference ${giftView(plan).reference}.`,
      };
    },

    async cancel(who: DonorKey, id: string, confirm: boolean) {
      const plan = ownPlan(who, id);
      if (plan.cancelled)
        return change(plan, false, `${describe(plan)} is already cancelled. Nothing more will be charged.`);
      refuseIfOver(plan);
      if (!confirm) {
        throw new AccountError(
          "CONFIRMATION_REQUIRED",
          `Cancelling cannot be undone. Confirm that you want to cancel ${describe(plan).replace(/^Your/, "your")}, then try again.`,
        );
      }
      await atProvider(() => provider.cancel(giftView(plan)));
      plan.cancelled = true;
      return change(
        plan,
        true,
        `${describe(plan)} is cancelled. Nothing more will be charged. Thank you for your support.`,
      );
    },
  };
}
