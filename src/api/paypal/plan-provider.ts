/**
 * The account API's plan changes acted on at PayPal (src/account-api/plan-provider.ts), for the
 * plans PayPal bills: a monthly gift's or instalments' subscription (`donations.paypal_id`, I-…),
 * through PayPal's official SDK. Pause is PayPal's suspend, resume its activate, cancel its cancel:
 * PayPal bills nothing while a subscription is suspended, and nothing after a cancel. A new amount
 * is a revise with the plan's prices overridden from the next cycle; PayPal asks its payer to
 * agree first (the answer's `approve` link), so the account keeps the amount pending until
 * PayPal's signed BILLING.SUBSCRIPTION.UPDATED says the subscription bills it (`settleRevision`).
 * PayPal then returns the donor to the site's account page (SITE_URL, `reviseReturn`), which says
 * whether they agreed.
 *
 * PayPal's suspend, activate and cancel take no PayPal-Request-Id; a repeat of one that already
 * happened answers 422 SUBSCRIPTION_STATUS_INVALID, so that answer is checked against the
 * subscription's state: already as asked is success, anything else is PayPal's refusal.
 */
import type { Kysely } from "kysely";
import type { GiftView } from "../../account-api/facts.js";
import type { PlanProvider } from "../../account-api/plan-provider.js";
import type { ApiDeps } from "../deps.js";
import type { PayPalApi } from "./sdk.js";
import { issueOf } from "./sdk-provider.js";

/** Cents of PayPal's "10.00", never through floating point; null when malformed. */
const centsOf = (v: unknown) => {
  const m = typeof v === "string" ? /^(\d{1,13})(?:\.(\d{1,2}))?$/.exec(v) : null;
  return m ? Number(m[1]) * 100 + Number((m[2] ?? "").padEnd(2, "0")) : null;
};
const value = (cents: number) => `${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, "0")}`;

type PlanTables = {
  account_plans: {
    donation_id: string;
    amount_cents: number | null;
    pending_amount_cents: number | null;
    pending_total_cents: number | null;
    updated_at: Date;
  };
};

/** The PayPal subscription a donation is billed by. */
export async function paypalSubscriptionOf(deps: Pick<ApiDeps, "db">, donationId: string): Promise<string> {
  const row = await deps.db
    .selectFrom("donations")
    .select(["paypal_id"])
    .where("id", "=", donationId)
    .executeTakeFirstOrThrow();
  if (!row.paypal_id?.startsWith("I-")) throw new Error(`Donation ${donationId} has no PayPal subscription.`);
  return row.paypal_id;
}

/**
 * Where PayPal sends the donor back after the revise window: the account page, saying which gift
 * and whether they agreed (the page then tells them what happens next). None without SITE_URL.
 */
export function reviseReturn(
  siteUrl: string | undefined,
  giftId: string,
): { returnUrl: string; cancelUrl: string } | undefined {
  if (!siteUrl) return undefined;
  const back = (result: string) => {
    const url = new URL("/account/", siteUrl);
    url.searchParams.set("paypal", result);
    url.searchParams.set("gift", giftId);
    return url.href;
  };
  return { returnUrl: back("agreed"), cancelUrl: back("cancelled") };
}

export function paypalPlanProvider(deps: Pick<ApiDeps, "db" | "siteUrl">, api: PayPalApi): PlanProvider {
  /** suspend, activate or cancel; a repeat (already in `target`) is success. */
  async function act(gift: GiftView, action: "suspend" | "activate" | "cancel", target: string[]): Promise<void> {
    const id = await paypalSubscriptionOf(deps, gift.donationId);
    const reason =
      action === "suspend"
        ? "Paused by the donor on their account page."
        : action === "activate"
          ? "Resumed by the donor on their account page."
          : "Cancelled by the donor on their account page.";
    try {
      if (action === "suspend") await api.subscriptions.suspendSubscription({ id, body: { reason } });
      else if (action === "activate") await api.subscriptions.activateSubscription({ id, body: { reason } });
      else await api.subscriptions.cancelSubscription({ id, body: { reason } });
    } catch (error) {
      if (issueOf(error) !== "SUBSCRIPTION_STATUS_INVALID") throw error;
      const { result } = await api.subscriptions.getSubscription({ id });
      if (!target.includes(String(result.status))) throw error;
    }
  }

  return {
    pause: (gift) => act(gift, "suspend", ["SUSPENDED"]),
    resume: (gift) => act(gift, "activate", ["ACTIVE"]),
    cancel: (gift) => act(gift, "cancel", ["CANCELLED"]),
    async changeAmount(gift, next) {
      const id = await paypalSubscriptionOf(deps, gift.donationId);
      const { result } = await api.subscriptions.getSubscription({ id, fields: "plan" });
      const cycles = result.plan?.billingCycles ?? [];
      if (!result.planId || cycles.length === 0) throw new Error(`PayPal subscription ${id} has no plan to revise.`);
      // Every cycle from now on at the new price (an instalment plan's last one too).
      const back = reviseReturn(deps.siteUrl, gift.id);
      const revised = await api.subscriptions.reviseSubscription({
        id,
        body: {
          ...(back ? { applicationContext: back } : {}),
          planId: result.planId,
          plan: {
            billingCycles: cycles.map((c) => ({
              sequence: c.sequence,
              pricingScheme: { fixedPrice: { currencyCode: "AUD", value: value(next.totalCents) } },
            })),
          },
        },
      });
      const approve = revised.result.links?.find((l) => l.rel === "approve")?.href;
      if (!approve) throw new Error(`PayPal gave no approval link for revising ${id}.`);
      return { approveUrl: approve };
    },
    async skipNext() {
      // The account offers no skip for PayPal (canSkip is false): PayPal has no skip of one cycle.
      throw new Error("PayPal subscriptions cannot skip one payment.");
    },
    async cardChange() {
      // The donor changes how they pay in their own PayPal account, not here.
      return null;
    },
  };
}

/**
 * PayPal's verified BILLING.SUBSCRIPTION.UPDATED for a donation: the amount the donor asked for
 * becomes the plan's when the subscription now bills it (asked of PayPal, not read from the event).
 * Returns whether the pending amount was settled.
 */
export async function settleRevision(deps: Pick<ApiDeps, "db">, api: PayPalApi, donationId: string): Promise<boolean> {
  const db = deps.db as unknown as Kysely<PlanTables>;
  const plan = await db
    .selectFrom("account_plans")
    .selectAll()
    .where("donation_id", "=", donationId)
    .executeTakeFirst();
  if (!plan || plan.pending_amount_cents === null || plan.pending_total_cents === null) return false;
  const id = await paypalSubscriptionOf(deps, donationId);
  const { result } = await api.subscriptions.getSubscription({ id, fields: "plan" });
  const done = new Map((result.billingInfo?.cycleExecutions ?? []).map((c) => [c.sequence, c]));
  const current = (result.plan?.billingCycles ?? []).find((c) => {
    const run = done.get(c.sequence);
    return !run || !run.totalCycles || run.cyclesCompleted < run.totalCycles;
  });
  const billed = centsOf(current?.pricingScheme?.fixedPrice?.value);
  if (billed !== plan.pending_total_cents) return false;
  await db
    .updateTable("account_plans")
    .set({ amount_cents: plan.pending_amount_cents, pending_amount_cents: null, pending_total_cents: null })
    .where("donation_id", "=", donationId)
    .execute();
  return true;
}
