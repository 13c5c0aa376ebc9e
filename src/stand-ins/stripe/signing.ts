/**
 * Stripe's webhook signature: the `Stripe-Signature` header is `t=<unix seconds>,v1=<hex>` where
 * the hex is HMAC-SHA256, keyed with the endpoint's secret (`whsec_...`, the whole string), of
 * `<t>.<raw JSON body>`. The SDK's `stripe.webhooks.constructEvent` checks exactly this, and that
 * `t` is within its tolerance (300 s by default) of the receiver's clock.
 */
import { createHmac } from "node:crypto";

export function signPayload(payload: string, secret: string, timestamp: number): string {
  return createHmac("sha256", secret).update(`${timestamp}.${payload}`, "utf8").digest("hex");
}

export function signatureHeader(payload: string, secret: string, timestamp: number): string {
  return `t=${timestamp},v1=${signPayload(payload, secret, timestamp)}`;
}
