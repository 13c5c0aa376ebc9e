/**
 * The local account API's memory: the donations signed-in donors make on the payments dev server,
 * their receipts, and the regular gifts those donations started. One store is shared by the
 * payments dev server (which records) and the account API dev server (which reads and changes), so
 * a donation made in a test or in `--watch` shows in the donor's history at once.
 */
import { randomUUID } from "node:crypto";
import { FUND_NAMES } from "../payments/fund-names.js";
import { chargeFor } from "../payments/fees.js";
import { DEFAULT_FUND_RULES, type FundRules } from "../payments/fund-rules.js";
import { formatDollars } from "../payments/money.js";
import { todayIn } from "../payments/schedules.js";
import { sameMailbox } from "./same-mailbox.js";
import {
  FUNDS,
  type DonationCreated,
  type DonationRequest,
  type DonationStatus,
  type Fund,
} from "../payments/types.js";

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

const OPEN_ENDED = new Set(["monthly", "weekly-friday"]);

/**
 * Whose a donation is: the account's `sub` when a verified access token came with it. A guest
 * gift has no `sub` until its donor claims it (claimGuestGifts); its e-mail is only the address
 * the donor typed, kept to offer that claim, and never decides who may read it.
 */
export interface DonorKey {
  sub?: string;
}

export interface StoredDonation {
  created: DonationCreated;
  request: DonationRequest;
  donor: DonorKey;
  /** The payments server's live status of the donation. */
  status: () => DonationStatus;
  /** YYYY-MM-DD in Sydney. */
  date: string;
  regularGiftId?: string;
}

export interface StoredGift {
  id: string;
  donationId: string;
  fund: Fund;
  schedule: string;
  amountCents: number;
  coversFees: boolean;
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

export type GiftStatus = "PENDING" | "ACTIVE" | "PAUSED" | "CANCELLED";

export interface GiftView {
  id: string;
  donationId: string;
  fund: Fund;
  schedule: string;
  amountCents: number;
  feeCents: number;
  totalCents: number;
  coversFees: boolean;
  status: GiftStatus;
  nextChargeDate: string | null;
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
}

export type AccountStore = ReturnType<typeof createAccountStore>;

export function createAccountStore(options: AccountStoreOptions = {}) {
  const now = options.now ?? (() => new Date());
  const rulesFor = (fund: Fund): FundRules => options.fundRules?.[fund] ?? DEFAULT_FUND_RULES[fund];
  const donations: StoredDonation[] = [];
  const gifts = new Map<string, StoredGift>();

  // Identity is the token's sub and nothing else: a guest gift (no sub) belongs to nobody yet.
  const belongs = (owner: DonorKey, who: DonorKey) => owner.sub !== undefined && owner.sub === who.sub;

  const donationOf = (gift: StoredGift) => donations.find((d) => d.created.donationId === gift.donationId)!;

  function giftView(gift: StoredGift): GiftView {
    const { feeCents, totalCents } = chargeFor(gift.amountCents, gift.coversFees);
    const paid = ["succeeded", "processing"].includes(donationOf(gift).status());
    const status: GiftStatus = gift.cancelled ? "CANCELLED" : gift.paused ? "PAUSED" : paid ? "ACTIVE" : "PENDING";
    const today = todayIn(TIME_ZONE, now());
    const next =
      status === "ACTIVE" || status === "PENDING"
        ? (donationOf(gift).created.schedule.find((c) => c.date > today)?.date ?? null)
        : null;
    return {
      id: gift.id,
      donationId: gift.donationId,
      fund: gift.fund,
      schedule: gift.schedule,
      amountCents: gift.amountCents,
      feeCents,
      totalCents,
      coversFees: gift.coversFees,
      status,
      nextChargeDate: next,
    };
  }

  function receiptOf(d: StoredDonation): Receipt | null {
    if (d.status() !== "succeeded") return null;
    return {
      number: d.created.reference,
      donationId: d.created.donationId,
      donorName: `${d.request.donor.firstName} ${d.request.donor.lastName}`.trim(),
      fund: d.request.fund,
      date: d.date,
      totalCents: d.created.totalCents,
      taxDeductible: TAX_DEDUCTIBLE_FUNDS[d.request.fund],
      financialYear: financialYearOf(d.date),
    };
  }

  function ownGift(who: DonorKey, id: string): StoredGift {
    const gift = gifts.get(id);
    if (!gift || !belongs(donationOf(gift).donor, who)) {
      throw new AccountError(
        "GIFT_NOT_FOUND",
        "We could not find that regular gift in your account. Reload the page to see your current gifts.",
      );
    }
    return gift;
  }

  const describe = (g: StoredGift) =>
    `Your ${g.schedule === "monthly" ? "monthly" : "weekly"} gift to ${FUND_NAMES[g.fund]}`;

  function change(gift: StoredGift, changed: boolean, message: string) {
    return { gift: giftView(gift), changed, message };
  }

  function refuseIfCancelled(gift: StoredGift) {
    if (gift.cancelled) {
      throw new AccountError(
        "GIFT_CANCELLED",
        `${describe(gift)} was cancelled and cannot be changed. To give regularly again, start a new gift on the ${FUND_NAMES[gift.fund]} page.`,
      );
    }
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
      const stored: StoredDonation = { ...donation, donor, date: todayIn(TIME_ZONE, now()) };
      if (OPEN_ENDED.has(donation.created.frequency)) {
        const id = `gift_${randomUUID()}`;
        stored.regularGiftId = id;
        gifts.set(id, {
          id,
          donationId: donation.created.donationId,
          fund: donation.request.fund,
          schedule: donation.created.frequency,
          amountCents: donation.created.amountCents,
          coversFees: donation.request.coverFees,
          paused: false,
          cancelled: false,
        });
      }
      donations.push(stored);
    },

    /** Guest gifts (given without signing in) whose e-mail names this mailbox (same-mailbox.ts). */
    guestGiftsFor(email: string): number {
      return donations.filter((d) => d.donor.sub === undefined && sameMailbox(d.request.donor.email, email)).length;
    },

    /**
     * Files the guest gifts given with this e-mail under the account. The caller has checked that
     * the pool verified this e-mail for this account and that the donor asked for it.
     */
    claimGuestGifts(who: { sub: string }, verifiedEmail: string): number {
      let claimed = 0;
      for (const d of donations) {
        if (d.donor.sub === undefined && sameMailbox(d.request.donor.email, verifiedEmail)) {
          d.donor = { sub: who.sub };
          claimed++;
        }
      }
      return claimed;
    },

    donations(who: DonorKey) {
      return donations
        .filter((d) => belongs(d.donor, who))
        .reverse()
        .map((d) => {
          const c = d.created;
          return {
            id: c.donationId,
            reference: c.reference,
            fund: d.request.fund,
            schedule: c.frequency,
            amountCents: c.amountCents,
            feeCents: c.feeCents,
            totalCents: c.totalCents,
            currency: c.currency,
            date: d.date,
            status: d.status().toUpperCase(),
            regularGiftId: d.regularGiftId ?? null,
            receipt: receiptOf(d),
          };
        });
    },

    receipts(who: DonorKey): Receipt[] {
      return donations
        .filter((d) => belongs(d.donor, who))
        .reverse()
        .map(receiptOf)
        .filter((r): r is Receipt => r !== null);
    },

    taxSummary(who: DonorKey, financialYear: number) {
      if (!Number.isInteger(financialYear) || financialYear < 2000 || financialYear > 2100) {
        throw new AccountError(
          "INVALID_FINANCIAL_YEAR",
          "Choose a financial year between 2000 and 2100, named by the year it ends (2026 is 1 July 2025 to 30 June 2026).",
        );
      }
      const inYear = this.receipts(who).filter((r) => r.financialYear === financialYear);
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
      return [...gifts.values()]
        .filter((g) => belongs(donationOf(g).donor, who))
        .reverse()
        .map(giftView);
    },

    pause(who: DonorKey, id: string) {
      const gift = ownGift(who, id);
      refuseIfCancelled(gift);
      if (gift.paused)
        return change(
          gift,
          false,
          `${describe(gift)} is already paused. Nothing more will be charged until you resume it.`,
        );
      gift.paused = true;
      return change(gift, true, `${describe(gift)} is paused. Nothing more will be charged until you resume it.`);
    },

    resume(who: DonorKey, id: string) {
      const gift = ownGift(who, id);
      refuseIfCancelled(gift);
      if (!gift.paused) return change(gift, false, `${describe(gift)} is already active.`);
      gift.paused = false;
      return change(gift, true, `${describe(gift)} is active again.`);
    },

    changeAmount(who: DonorKey, id: string, amountCents: number) {
      const gift = ownGift(who, id);
      refuseIfCancelled(gift);
      const rules = rulesFor(gift.fund);
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
      if (gift.amountCents === amountCents) return change(gift, false, `${describe(gift)} is already ${amount}.`);
      gift.amountCents = amountCents;
      return change(gift, true, `${describe(gift)} is now ${amount} each time, from the next charge.`);
    },

    cancel(who: DonorKey, id: string, confirm: boolean) {
      const gift = ownGift(who, id);
      if (gift.cancelled)
        return change(gift, false, `${describe(gift)} is already cancelled. Nothing more will be charged.`);
      if (!confirm) {
        throw new AccountError(
          "CONFIRMATION_REQUIRED",
          `Cancelling cannot be undone. Confirm that you want to cancel ${describe(gift).replace(/^Your/, "your")}, then try again.`,
        );
      }
      gift.cancelled = true;
      return change(
        gift,
        true,
        `${describe(gift)} is cancelled. Nothing more will be charged. Thank you for your support.`,
      );
    },
  };
}
