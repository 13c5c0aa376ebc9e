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

/**
 * The header; with several secrets (while a secret is rolled, Stripe signs with the new and the
 * old one for a while) one `v1=` per secret, which the SDK accepts when any matches.
 */
export function signatureHeader(payload: string, secrets: string | readonly string[], timestamp: number): string {
  const list = typeof secrets === "string" ? [secrets] : secrets;
  return [`t=${timestamp}`, ...list.map((secret) => `v1=${signPayload(payload, secret, timestamp)}`)].join(",");
}
