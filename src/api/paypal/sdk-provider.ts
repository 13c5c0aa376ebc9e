/**
 * The service's PayPal provider (provider.ts) backed by PayPal's official server SDK: an Orders v2
 * order for a one-off gift, a catalog product, a billing plan and a subscription for a monthly one,
 * and the capture once the donor approved. Every create and capture carries a PayPal-Request-Id made
 * from the donation, so a retry (the donor's second tab, ours after a crash) gets PayPal's first
 * answer instead of a second order or capture. The donation's id goes in `custom_id`, which
 * PayPal's webhook events carry back (webhook.ts).
 */
import { ApiError, CheckoutPaymentIntent, IntervalUnit, TenureType } from "@paypal/paypal-server-sdk";
import type { CaptureOutcome, PayPalProvider } from "./provider.js";
import type { PayPalApi } from "./sdk.js";

/** The one catalog product every PayPal plan belongs to (PayPal wants a product per plan). */
export const PRODUCT_ID = "NZF-GIFTS";

const value = (cents: number) => `${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, "0")}`;

/** PayPal's issue code in an SDK error, e.g. ORDER_ALREADY_CAPTURED. */
export function issueOf(error: unknown): string | undefined {
  if (!(error instanceof ApiError)) return undefined;
  try {
    const body = JSON.parse(String(error.body)) as { details?: { issue?: string }[]; name?: string };
    return body.details?.[0]?.issue ?? body.name;
  } catch {
    return undefined;
  }
}

/** The billing cycles of a plan: one price repeated, or all but the last at one price and the last at another. */
export function billingCycles(plan: { cycleCents: number; lastCents: number; count: number | null }) {
  const cycle = (sequence: number, totalCycles: number, cents: number) => ({
    frequency: { intervalUnit: IntervalUnit.Month, intervalCount: 1 },
    tenureType: TenureType.Regular,
    sequence,
    totalCycles,
    pricingScheme: { fixedPrice: { currencyCode: "AUD", value: value(cents) } },
  });
  if (plan.count === null) return [cycle(1, 0, plan.cycleCents)];
  if (plan.count < 1) throw new RangeError("A plan has at least one payment.");
  if (plan.count === 1 || plan.lastCents === plan.cycleCents) return [cycle(1, plan.count, plan.cycleCents)];
  return [cycle(1, plan.count - 1, plan.cycleCents), cycle(2, 1, plan.lastCents)];
}

export function createSdkPayPal(api: PayPalApi): PayPalProvider {
  let product: Promise<string> | undefined;
  function ensureProduct(): Promise<string> {
    product ??= (async () => {
      const found = await api.rest("GET", `/v1/catalogs/products/${PRODUCT_ID}`);
      if (found.status === 200) return PRODUCT_ID;
      const made = await api.rest(
        "POST",
        "/v1/catalogs/products",
        { id: PRODUCT_ID, name: "National Zakat Foundation gifts", type: "SERVICE", category: "CHARITY" },
        { "paypal-request-id": `product-${PRODUCT_ID}` },
      );
      if (made.status !== 201 && made.status !== 200)
        throw new Error(`PayPal refused the catalog product (${made.status}): ${JSON.stringify(made.body)}`);
      return PRODUCT_ID;
    })().catch((error) => {
      product = undefined;
      throw error;
    });
    return product;
  }

  async function capturedAlready(id: string): Promise<boolean> {
    try {
      const { result } = await api.orders.getOrder({ id });
      return result.status === "COMPLETED" && (result.purchaseUnits?.[0]?.payments?.captures?.length ?? 0) > 0;
    } catch {
      return false;
    }
  }

  return {
    async createOrder(totalCents, requestId) {
      const { result } = await api.orders.createOrder({
        paypalRequestId: `order-${requestId}`,
        body: {
          intent: CheckoutPaymentIntent.Capture,
          purchaseUnits: [
            {
              customId: requestId,
              description: "Gift to the National Zakat Foundation",
              amount: { currencyCode: "AUD", value: value(totalCents) },
            },
          ],
        },
      });
      return result.id!;
    },

    async createSubscription(plan, requestId) {
      const productId = await ensureProduct();
      const made = await api.subscriptions.createBillingPlan({
        paypalRequestId: `plan-${requestId}`,
        body: {
          productId,
          name: plan.count === null ? "Monthly gift" : `Gift in ${plan.count} monthly payments`,
          billingCycles: billingCycles(plan),
          paymentPreferences: { autoBillOutstanding: true, paymentFailureThreshold: 3 },
        },
      });
      const { result } = await api.subscriptions.createSubscription({
        paypalRequestId: `subscription-${requestId}`,
        body: { planId: made.result.id!, customId: requestId },
      });
      return result.id!;
    },

    async capture(id): Promise<CaptureOutcome> {
      if (id.startsWith("I-")) {
        try {
          const { result } = await api.subscriptions.getSubscription({ id });
          // PayPal starts an approved subscription itself; the first payment's webhook says it is paid.
          if (result.status === "ACTIVE" || result.status === "APPROVED") return "completed";
          return result.status === "APPROVAL_PENDING" ? "declined" : "unknown";
        } catch (error) {
          if (error instanceof ApiError && error.statusCode === 404) return "unknown";
          throw error;
        }
      }
      try {
        const { result } = await api.orders.captureOrder({ id, paypalRequestId: `capture-${id}` });
        const capture = result.purchaseUnits?.[0]?.payments?.captures?.[0];
        if (result.status === "COMPLETED" && (capture?.status === "COMPLETED" || capture?.status === "PENDING"))
          return "completed";
        return "declined";
      } catch (error) {
        const issue = issueOf(error);
        if (issue === "ORDER_ALREADY_CAPTURED") return "already_captured";
        if (issue === "INSTRUMENT_DECLINED" || issue === "PAYER_ACTION_REQUIRED" || issue === "ORDER_NOT_APPROVED")
          return "declined";
        if (error instanceof ApiError && error.statusCode === 404) return "unknown";
        // Two simultaneous captures with one PayPal-Request-Id (the donor's two tabs): PayPal "processes
        // the first request and might fail the second". The order says whether the first took the money.
        if (await capturedAlready(id)) return "already_captured";
        throw error;
      }
    },
  };
}
