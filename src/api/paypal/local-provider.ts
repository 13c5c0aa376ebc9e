/**
 * PayPal for watch mode and the tests, in memory (no PayPal account needed): ids like
 * `ORDER-DEV-…` and `I-DEV…`, a capture that happens once (a second is refused as PayPal refuses
 * it, ORDER_ALREADY_CAPTURED), and declines on demand. The service's own records (the donation's
 * PayPal id and its capture answer) are in the database, so a restart loses only this fake account.
 */
import { createHash, randomBytes } from "node:crypto";
import type { CaptureOutcome, PayPalProvider } from "./provider.js";

export interface LocalPayPal extends PayPalProvider {
  declineNextCaptures(n: number): void;
  /** Money "PayPal" has taken: one entry per successful capture or activation. */
  captures(): string[];
}

export function createLocalPayPal(): LocalPayPal {
  const orders = new Map<string, { captured: boolean }>();
  const subscriptions = new Map<string, { active: boolean }>();
  const byRequest = new Map<string, string>();
  const taken: string[] = [];
  let declines = 0;
  const idFor = (requestId: string, prefix: string) =>
    `${prefix}${createHash("sha256").update(requestId).update(randomBytes(4)).digest("hex").slice(0, 16).toUpperCase()}`;
  return {
    async createOrder(_totalCents, requestId) {
      const known = byRequest.get(requestId);
      if (known) return known;
      const id = idFor(requestId, "ORDER-DEV-");
      orders.set(id, { captured: false });
      byRequest.set(requestId, id);
      return id;
    },
    async createSubscription(_plan, requestId) {
      const known = byRequest.get(requestId);
      if (known) return known;
      const id = idFor(requestId, "I-DEV");
      subscriptions.set(id, { active: false });
      byRequest.set(requestId, id);
      return id;
    },
    async capture(id): Promise<CaptureOutcome> {
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
