/**
 * The local payments API's stand-in for PayPal's Orders and Subscriptions APIs: what the production
 * backend asks PayPal for (an order for a one-off gift, a plan and subscription for a monthly one, a
 * capture once the donor approved), in memory. It captures an order once: a second capture of the
 * same order is refused as PayPal refuses it (ORDER_ALREADY_CAPTURED), so a bug that captured twice
 * would show in the tests as an error, not as a second charge. Tests make the next captures decline
 * (INSTRUMENT_DECLINED) to walk the donor's way through a refused card in PayPal.
 */
import { randomBytes } from "node:crypto";

export interface PayPalStandIn {
  createOrder(totalCents: number): string;
  /** A subscription for `count` monthly cycles (null: until cancelled), the last priced apart. */
  createSubscription(plan: { cycleCents: number; lastCents: number; count: number | null }): string;
  /** Captures an order, or checks a subscription is active: "completed", "declined" or "already_captured". */
  capture(id: string): "completed" | "declined" | "already_captured" | "unknown";
  declineNextCaptures(n: number): void;
  /** Money PayPal has taken: one entry per successful capture or subscription activation. */
  captures(): string[];
}

const hex = () => randomBytes(8).toString("hex").toUpperCase();

export function createPayPalStandIn(): PayPalStandIn {
  const orders = new Map<string, { totalCents: number; captured: boolean }>();
  const subscriptions = new Map<string, { active: boolean }>();
  const taken: string[] = [];
  let declines = 0;
  return {
    createOrder(totalCents) {
      const id = `ORDER-DEV-${hex()}`;
      orders.set(id, { totalCents, captured: false });
      return id;
    },
    createSubscription() {
      const id = `I-DEV${hex()}`;
      subscriptions.set(id, { active: false });
      return id;
    },
    capture(id) {
      const order = orders.get(id);
      const subscription = subscriptions.get(id);
      if (!order && !subscription) return "unknown";
      if (order?.captured || subscription?.active) return "already_captured";
      if (declines > 0) {
        declines--;
        return "declined";
      }
      if (order) order.captured = true;
      if (subscription) subscription.active = true;
      taken.push(id);
      return "completed";
    },
    declineNextCaptures(n) {
      declines = n;
    },
    captures: () => [...taken],
  };
}
