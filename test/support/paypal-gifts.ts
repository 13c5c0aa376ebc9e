/**
 * A monthly PayPal gift given while signed in, through the service's own routes: the donation, its
 * PayPal subscription, the donor's approval in PayPal's window (at the stand-in), the capture call,
 * and PayPal's webhook delivered. Shared by the API tests of PayPal plans.
 */
import { randomUUID } from "node:crypto";
import { expect } from "vitest";
import type { PayPalStandIn } from "../../src/stand-ins/paypal/server.js";
import { type Account, raw } from "./account-api-harness.js";

export async function givePayPalMonthly(
  serviceUrl: string,
  paypal: PayPalStandIn,
  account: Account,
  amountCents: number,
): Promise<{ donationId: string; subId: string }> {
  const post = (path: string, body: unknown) =>
    raw(
      `${serviceUrl}${path}`,
      "POST",
      {
        "content-type": "application/json",
        "idempotency-key": randomUUID(),
        authorization: `Bearer ${account.access}`,
      },
      JSON.stringify(body),
    );
  const created = await post("/donations", {
    fund: "sadaqah",
    amountCents,
    currency: "AUD",
    frequency: "monthly",
    paymentMethod: "paypal",
    anonymous: false,
    coverFees: false,
    donor: { firstName: "Sara", lastName: "Ali", email: account.email, phone: "0412 345 678" },
  });
  expect(created.status, created.text).toBe(201);
  const donationId = created.json.donationId as string;
  const made = await post(`/donations/${donationId}/paypal/subscription`, {});
  expect(made.status, made.text).toBe(201);
  const subId = made.json.subscriptionId as string;
  paypal.approveSubscription(subId);
  expect((await post(`/donations/${donationId}/paypal/capture`, { subscriptionId: subId })).status).toBe(200);
  await paypal.settled();
  return { donationId, subId };
}
