/**
 * What the service asks PayPal for (docs/payments-api.md, "PayPal"): an order for a one-off gift, a
 * subscription for a monthly one, a capture once the donor approved. An interface, so a later
 * change backs it with PayPal's SDK; today `createLocalPayPal` (local-provider.ts) stands in for
 * it in watch mode and the tests. `requestId` is PayPal's `PayPal-Request-Id`, made from the
 * donation id: a retry cannot make a second order.
 */
/**
 * `already_captured`: this order was captured before (another tab, a retry whose answer was lost):
 * the money is taken once, and the caller answers as for `completed`.
 */
export type CaptureOutcome = "completed" | "declined" | "already_captured" | "unknown";

export interface PayPalProvider {
  createOrder(totalCents: number, requestId: string): Promise<string>;
  /** `count` monthly cycles (null: until cancelled), the last priced apart. */
  createSubscription(
    plan: { cycleCents: number; lastCents: number; count: number | null },
    requestId: string,
  ): Promise<string>;
  capture(id: string): Promise<CaptureOutcome>;
}
