/**
 * The donor data the account API reads and changes, over any `AccountRecords`: the payments
 * service's database (db-records.ts), in production, watch mode and the tests alike. Ownership is the `sub` and nothing else; every change of a plan
 * goes to the payment provider first (plan-provider.ts) and is kept only when the provider took it.
 */
import * as clock from "../core/clock.js";
import { chargeFor } from "../payments/fees.js";
import { FUND_NAMES } from "../payments/fund-names.js";
import { DEFAULT_FUND_RULES, type FundRules } from "../payments/fund-rules.js";
import { formatDollars } from "../payments/money.js";
import { isIsoDate, todayIn } from "../payments/schedules.js";
import { FUNDS, type Fund } from "../payments/types.js";
import {
  counts,
  type DonationFacts,
  describePlan,
  type GiftView,
  giftView,
  historyOf,
  isPlan,
  longDate,
  type PlanState,
  planId,
  type Receipt,
  receiptOf,
  shownCharges,
  skippedAlready,
  withSkipped,
} from "./facts.js";
import { localPlanProvider, type PlanProvider } from "./plan-provider.js";
import { sameMailbox } from "./same-mailbox.js";

export { financialYearOf, type GiftStatus, type GiftView, type Receipt, TAX_DEDUCTIBLE_FUNDS } from "./facts.js";
/** Names for sentences the donor reads; shared with the account island (src/payments/fund-names.ts). */
export { FUND_NAMES };

const TIME_ZONE = "Australia/Sydney";

/** Who is asking: the verified access token's `sub`. */
export interface DonorKey {
  sub?: string;
}

/** Where the donations live. Every method is scoped: nothing lists donations across accounts. */
export interface AccountRecords {
  /** The donations of one account, oldest first. */
  ofSub(sub: string): Promise<DonationFacts[]>;
  /** Guest gifts (no account yet) that may be this e-mail's: a superset, checked with sameMailbox. */
  guestsLike(email: string): Promise<DonationFacts[]>;
  /** Files these guest gifts under the account (only those still without one). */
  claim(donationIds: string[], sub: string): Promise<void>;
  /**
   * Keeps the donor's choice about a plan: `state` whole when none was kept, else only the fields
   * of `change` (two changes at once, each read before the other was kept, keep both).
   */
  savePlan(donationId: string, state: PlanState, change: Partial<PlanState>): Promise<void>;
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

export interface AccountStoreOptions {
  /** Pauses, resumes, changes and cancels plans at the payment provider; the local one moves no money. */
  provider?: PlanProvider;
}

const byDateNewestFirst = <T extends { date: string }>(rows: T[]) =>
  // Stable: rows already newest first within a day stay so.
  rows.sort((a, b) => (a.date < b.date ? 1 : a.date > b.date ? -1 : 0));

export function createStoreOver(records: AccountRecords, options: AccountStoreOptions = {}) {
  const provider = options.provider ?? localPlanProvider();
  const rulesFor = (fund: Fund): FundRules => DEFAULT_FUND_RULES[fund];
  const today = () => todayIn(TIME_ZONE, clock.now());

  /** The account's donations that count, newest first. */
  async function mine(who: DonorKey): Promise<DonationFacts[]> {
    if (!who.sub) return [];
    return (await records.ofSub(who.sub)).filter(counts).reverse();
  }

  async function ownPlan(who: DonorKey, id: string): Promise<DonationFacts> {
    const found = (await mine(who)).find((f) => isPlan(f) && planId(f) === id);
    if (!found) {
      throw new AccountError(
        "GIFT_NOT_FOUND",
        "We could not find that regular gift in your account. Reload the page to see your current gifts.",
      );
    }
    return found;
  }

  function refuseIfOver(f: DonationFacts) {
    const view = giftView(f, today());
    if (view.status === "CANCELLED" || view.status === "COMPLETED") {
      throw new AccountError(
        "GIFT_CANCELLED",
        `${describePlan(f)} ${view.status === "CANCELLED" ? "was cancelled" : "is complete"} and cannot be changed. To give regularly again, start a new gift on the ${FUND_NAMES[f.fund]} page.`,
      );
    }
  }

  /**
   * The provider first: if it refuses or fails, nothing here changes. The donor is not told that
   * nothing changed at the provider: its answer may have been lost after it acted. Asking again
   * is safe, since every change is keyed there and finds the one already made.
   */
  async function atProvider<T>(call: () => Promise<T>): Promise<T> {
    try {
      return await call();
    } catch (error) {
      if (error instanceof AccountError) throw error;
      throw new AccountError(
        "PROVIDER_UNAVAILABLE",
        "We could not get an answer from our payment provider, so your gift is shown as it was. Please try again in a few minutes: asking again never makes a change twice.",
      );
    }
  }

  async function setPlan(f: DonationFacts, state: Partial<PlanState>, changed: boolean, message: string) {
    const next = { ...f.plan, ...state };
    if (changed) await records.savePlan(f.donationId, next, state);
    return { gift: giftView({ ...f, plan: next }, today()), changed, message };
  }

  async function receipts(who: DonorKey): Promise<Receipt[]> {
    return byDateNewestFirst(
      (await mine(who))
        .flatMap((f) =>
          shownCharges(f)
            .reverse()
            .map((c) => receiptOf(f, c)),
        )
        .filter((r): r is Receipt => r !== null),
    );
  }

  return {
    /** One row per charge that happened (paid, failed, processing, refunded), newest first. */
    async donations(who: DonorKey) {
      return byDateNewestFirst((await mine(who)).flatMap(historyOf));
    },

    receipts,

    async taxSummary(who: DonorKey, financialYear: number) {
      if (!Number.isInteger(financialYear) || financialYear < 2000 || financialYear > 2100) {
        throw new AccountError(
          "INVALID_FINANCIAL_YEAR",
          "Choose a financial year between 2000 and 2100, named by the year it ends (2026 is 1 July 2025 to 30 June 2026).",
        );
      }
      const inYear = (await receipts(who)).filter((r) => r.financialYear === financialYear);
      const deductible = inYear.filter((r) => r.taxDeductible);
      const funds = FUNDS.map((fund) => {
        const ofFund = deductible.filter((r) => r.fund === fund);
        return { fund, totalCents: ofFund.reduce((s, r) => s + r.totalCents, 0), count: ofFund.length };
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

    async regularGifts(who: DonorKey): Promise<GiftView[]> {
      return (await mine(who)).filter(isPlan).map((f) => giftView(f, today()));
    },

    /** Guest gifts whose e-mail names this mailbox (same-mailbox.ts). */
    async guestGiftsFor(email: string): Promise<number> {
      return (await records.guestsLike(email)).filter((f) => counts(f) && sameMailbox(f.donorEmail, email)).length;
    },

    /**
     * Files the guest gifts given with this e-mail under the account. The caller has checked that
     * the pool verified this e-mail for this account and that the donor asked for it.
     */
    async claimGuestGifts(who: { sub: string }, verifiedEmail: string): Promise<number> {
      const ids = (await records.guestsLike(verifiedEmail))
        .filter((f) => f.sub === null && counts(f) && sameMailbox(f.donorEmail, verifiedEmail))
        .map((f) => f.donationId);
      if (ids.length > 0) await records.claim(ids, who.sub);
      return ids.length;
    },

    async pause(who: DonorKey, id: string) {
      const f = await ownPlan(who, id);
      refuseIfOver(f);
      if (f.plan.paused)
        return setPlan(
          f,
          {},
          false,
          `${describePlan(f)} is already paused. Nothing more will be charged until you resume it.`,
        );
      const gift = giftView(f, today());
      // Refused before the provider is asked: the page does not offer it (canPause).
      if (!gift.canPause)
        throw new AccountError(
          "PAUSE_NOT_AVAILABLE",
          `${describePlan(f)} cannot be paused until its first payment is made, so nothing was changed. Please try again once it shows as paid.`,
        );
      await atProvider(() => provider.pause(gift));
      return setPlan(
        f,
        { paused: true },
        true,
        `${describePlan(f)} is paused. Nothing more will be charged until you resume it.`,
      );
    },

    async resume(who: DonorKey, id: string) {
      const f = await ownPlan(who, id);
      refuseIfOver(f);
      if (!f.plan.paused) return setPlan(f, {}, false, `${describePlan(f)} is already active.`);
      // The provider is shown the gift as it will be (its next date, after any skip).
      await atProvider(() => provider.resume(giftView({ ...f, plan: { ...f.plan, paused: false } }, today())));
      // Read again: a resume may lay the plan's payments anew (instalments paused before their
      // schedule started get a new one from the next billing day), so its dates are the provider's.
      const now = (await mine(who)).find((g) => planId(g) === id) ?? f;
      return setPlan(now, { paused: false }, true, `${describePlan(f)} is active again.`);
    },

    async changeAmount(who: DonorKey, id: string, amountCents: number) {
      const f = await ownPlan(who, id);
      refuseIfOver(f);
      const rules = rulesFor(f.fund);
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
      if ((f.plan.amountCents ?? f.amountCents) === amountCents && !f.plan.pendingAmountCents)
        return setPlan(f, {}, false, `${describePlan(f)} is already ${amount}.`);
      const next = chargeFor(amountCents, f.coverFees);
      const done = await atProvider(() => provider.changeAmount(giftView(f, today()), next));
      if (done && "approveUrl" in done) {
        // PayPal bills the new amount only once its payer agrees: until then the gift is as it was.
        const change = await setPlan(
          f,
          { pendingAmountCents: amountCents, pendingTotalCents: next.totalCents },
          true,
          `PayPal asks you to agree to ${amount} each time. Continue on PayPal's page; until you agree there, ${describePlan(f).replace(/^Your/, "your")} stays ${formatDollars(f.plan.amountCents ?? f.amountCents)}.`,
        );
        return { ...change, url: done.approveUrl };
      }
      return setPlan(
        f,
        { amountCents, pendingAmountCents: null, pendingTotalCents: null },
        true,
        `${describePlan(f)} is now ${amount} each time, from the next charge.`,
      );
    },

    /**
     * Starts a change of card: Stripe's SetupIntent for the page's card form. Nothing changes here:
     * the new card is the gift's when Stripe's signed webhook says it was saved.
     */
    async changeCard(who: DonorKey, id: string) {
      const f = await ownPlan(who, id);
      refuseIfOver(f);
      const gift = giftView(f, today());
      const started = await atProvider(() => provider.cardChange(gift));
      if (!started && f.paymentMethod === "paypal")
        throw new AccountError(
          "CARD_CHANGE_UNAVAILABLE",
          `${describePlan(f)} is paid through PayPal: change the card or bank account it uses in your PayPal account (Settings, Payments, Automatic payments).`,
        );
      if (!started)
        throw new AccountError(
          "CARD_CHANGE_UNAVAILABLE",
          `${describePlan(f)} has no saved card to change yet. Please try again after its first payment.`,
        );
      return {
        gift,
        url: null,
        clientSecret: started.clientSecret,
        message: `Enter the new card for ${describePlan(f).replace(/^Your/, "your")}. It is used from the next charge; nothing changes until it is saved.`,
      };
    },

    /**
     * Skips the payment due on `date`, which must be the gift's next (the page sends the date it
     * shows): a repeat finds that date already skipped and changes nothing; a date that is no
     * longer the next is refused. The provider first (Stripe; the service's job for every Friday and
     * the seasons): then, at Stripe, every later payment is a period later; in the job's schedules
     * that one date is dropped.
     */
    async skipNext(who: DonorKey, id: string, date: string) {
      const f = await ownPlan(who, id);
      refuseIfOver(f);
      const gift = giftView(f, today());
      if (!gift.canSkip)
        throw new AccountError(
          "SKIP_NOT_AVAILABLE",
          f.paymentMethod === "paypal"
            ? `PayPal cannot skip a single payment of ${describePlan(f).replace(/^Your/, "your")}. Pause it instead, and resume it when you are ready.`
            : `A single payment of ${describePlan(f).replace(/^Your/, "your")} cannot be skipped. Pause it instead, and resume it when you are ready.`,
        );
      if (!isIsoDate(date))
        throw new AccountError("INVALID_DATE", "Give the date of the payment to skip as YYYY-MM-DD.");
      if (gift.nextChargeDate !== date) {
        if (skippedAlready(f, date, today()) && gift.nextChargeDate)
          return setPlan(
            f,
            {},
            false,
            `The payment of ${longDate(date)} is already skipped. The next is on ${longDate(gift.nextChargeDate)}.`,
          );
        throw new AccountError(
          "SKIP_DATE_CHANGED",
          gift.status !== "ACTIVE" || !gift.nextChargeDate
            ? `${describePlan(f)} has no payment coming to skip${gift.status === "PAUSED" ? " while it is paused: resume it first" : ""}.`
            : `The next payment of ${describePlan(f).replace(/^Your/, "your")} is on ${longDate(gift.nextChargeDate)}, not ${longDate(date)}. Reload the page to see your gift as it is now.`,
        );
      }
      if (gift.status !== "ACTIVE")
        throw new AccountError(
          "SKIP_DATE_CHANGED",
          `${describePlan(f)} has no payment coming to skip until its first payment is made.`,
        );
      // Whoever charges it first (Stripe, or the service's own job for every Friday and the seasons).
      await atProvider(() => provider.skipNext(gift, date));
      const change = await setPlan(withSkipped(f, date), { skips: (f.plan.skips ?? 0) + 1 }, true, "");
      const next = change.gift.nextChargeDate;
      const end = change.gift.endDate;
      return {
        ...change,
        message: `The payment of ${longDate(date)} is skipped: nothing is charged then.${next ? ` The next is on ${longDate(next)}` : ""}${end && next ? `, and the last on ${longDate(end)}.` : next ? "." : ""}`,
      };
    },

    async cancel(who: DonorKey, id: string, confirm: boolean) {
      const f = await ownPlan(who, id);
      if (f.plan.cancelled)
        return setPlan(f, {}, false, `${describePlan(f)} is already cancelled. Nothing more will be charged.`);
      refuseIfOver(f);
      if (!confirm) {
        throw new AccountError(
          "CONFIRMATION_REQUIRED",
          `Cancelling cannot be undone. Confirm that you want to cancel ${describePlan(f).replace(/^Your/, "your")}, then try again.`,
        );
      }
      await atProvider(() => provider.cancel(giftView(f, today())));
      return setPlan(
        f,
        { cancelled: true },
        true,
        `${describePlan(f)} is cancelled. Nothing more will be charged. Thank you for your support.`,
      );
    },
  };
}

export type AccountStore = ReturnType<typeof createStoreOver>;
