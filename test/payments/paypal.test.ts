/**
 * PayPal as a second way to pay: which schedules it takes, the request check, and the PayPal calls
 * of the payments API contract through the browser's client against the payments service (src/api/,
 * on PGlite) with its local PayPal provider: one order per gift, a capture that happens once however
 * often it is called, a decline that charges nothing and can be retried.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createPaymentsClient, type PaymentsClient } from "../../src/payments/client.js";
import { PaymentsApiError } from "../../src/payments/errors.js";
import { newIdempotencyKey } from "../../src/payments/idempotency.js";
import { PAYPAL_FREQUENCIES, PAYPAL_MESSAGES, paypalFits } from "../../src/payments/paypal.js";
import { DEFAULT_FUND_RULES } from "../../src/payments/fund-rules.js";
import { validateDonationRequest } from "../../src/payments/validate.js";
import type { DonationRequest } from "../../src/payments/types.js";
import { startTestPaymentsService, type TestPaymentsService } from "../support/payments-service.js";
import { donationRequest } from "../support/donation-request.js";
import { setServiceClock } from "../support/service-clock.js";

const now = () => new Date("2025-03-05T01:00:00Z");
const gift = (over: Partial<DonationRequest> = {}): DonationRequest =>
  donationRequest({ fund: "sadaqah", paymentMethod: "paypal", ...over });

async function apiError(promise: Promise<unknown>): Promise<PaymentsApiError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof PaymentsApiError) return error;
    throw error;
  }
  throw new Error("expected the call to fail");
}

describe("which gifts PayPal takes", () => {
  it("one-off, monthly and instalments; Friday and the seasons are cards only, said in the message", () => {
    expect(PAYPAL_FREQUENCIES).toEqual(["once", "monthly", "monthly-instalments"]);
    expect(paypalFits("weekly-friday")).toBe(false);
    const rules = (fund: DonationRequest["fund"]) => DEFAULT_FUND_RULES[fund];
    const friday = validateDonationRequest(gift({ fund: "jumuah-giving", frequency: "weekly-friday" }), rules);
    expect(friday.ok).toBe(false);
    if (!friday.ok)
      expect(friday.errors).toEqual([
        { field: "paymentMethod", code: "not_allowed", message: PAYPAL_MESSAGES.cardsOnly },
      ]);
    const once = validateDonationRequest(gift(), rules);
    expect(once.ok && once.request.paymentMethod).toBe("paypal");
    const card = validateDonationRequest(gift({ paymentMethod: "card" }), rules);
    expect(card.ok && "paymentMethod" in card.request).toBe(false);
    const odd = validateDonationRequest({ ...gift(), paymentMethod: "bitcoin" }, rules);
    expect(odd.ok ? [] : odd.errors.map((e) => e.field)).toEqual(["paymentMethod"]);
  });
});

describe("the PayPal calls on the payments service", { timeout: 30_000 }, () => {
  let server: TestPaymentsService;
  let client: PaymentsClient;
  beforeAll(async () => {
    await setServiceClock(now);
    server = await startTestPaymentsService();
    client = createPaymentsClient({ baseUrl: server.url });
  }, 60_000);
  beforeEach(() => server.reset());
  afterAll(() => server?.stop());

  it("a one-off gift: one order, captured once; a retried capture returns the first answer", async () => {
    const created = await client.createDonation(gift(), newIdempotencyKey());
    expect(created).toMatchObject({ paymentMethod: "paypal", clientSecret: "", totalCents: 5000 });
    const { orderId } = await client.createPayPalOrder(created.donationId, newIdempotencyKey());
    // Asked again (the donor pressed PayPal's button twice): the same order.
    expect((await client.createPayPalOrder(created.donationId, newIdempotencyKey())).orderId).toBe(orderId);
    const first = await client.capturePayPal(created.donationId, { orderId }, newIdempotencyKey());
    expect(first).toMatchObject({ status: "succeeded", paymentMethod: "paypal", reference: created.reference });
    const again = await client.capturePayPal(created.donationId, { orderId }, newIdempotencyKey());
    expect(again).toEqual(first);
    expect(server.paypal.captures().filter((id) => id === orderId)).toEqual([orderId]);
    const log = server.requests.filter((r) => r.path.endsWith("/paypal/capture"));
    expect(log.map((r) => [r.status, r.replayed])).toEqual([
      [200, false],
      [200, true],
    ]);
    expect((await client.getDonation(created.donationId)).status).toBe("succeeded");
  });

  it("a declined capture charges nothing, says what to do, and the retry succeeds", async () => {
    const created = await client.createDonation(gift(), newIdempotencyKey());
    const { orderId } = await client.createPayPalOrder(created.donationId, newIdempotencyKey());
    server.paypal.declineNextCaptures(1);
    const key = newIdempotencyKey();
    const declined = await apiError(client.capturePayPal(created.donationId, { orderId }, key));
    expect([declined.status, declined.code, declined.message]).toEqual([
      402,
      "paypal_declined",
      PAYPAL_MESSAGES.paypal_declined,
    ]);
    // The service's PayPal lives as long as the file's service: count this gift's captures only.
    expect(server.paypal.captures().filter((id) => id === orderId)).toEqual([]);
    expect((await client.getDonation(created.donationId)).status).toBe("requires_payment_method");
    expect((await client.capturePayPal(created.donationId, { orderId }, key)).status).toBe("succeeded");
    expect(server.paypal.captures().filter((id) => id === orderId)).toEqual([orderId]);
  });

  it("monthly and instalment gifts are subscriptions; the wrong call, id or gift is refused with its code", async () => {
    const monthly = await client.createDonation(gift({ frequency: "monthly" }), newIdempotencyKey());
    const wrong = await apiError(client.createPayPalOrder(monthly.donationId, newIdempotencyKey()));
    expect([wrong.status, wrong.code]).toEqual([422, "paypal_not_allowed"]);
    const { subscriptionId } = await client.createPayPalSubscription(monthly.donationId, newIdempotencyKey());
    expect(subscriptionId).toMatch(/^I-/);
    const other = await apiError(
      client.capturePayPal(monthly.donationId, { subscriptionId: "I-SOMEONEELSE" }, newIdempotencyKey()),
    );
    expect([other.status, other.code]).toEqual([409, "paypal_mismatch"]);
    expect((await client.capturePayPal(monthly.donationId, { subscriptionId }, newIdempotencyKey())).status).toBe(
      "succeeded",
    );
    const zakat = await client.createDonation(
      gift({ fund: "zakat", frequency: "monthly-instalments", amountCents: 48_900, instalments: { count: 12 } }),
      newIdempotencyKey(),
    );
    expect((await client.createPayPalSubscription(zakat.donationId, newIdempotencyKey())).subscriptionId).toMatch(
      /^I-/,
    );
    const card = await client.createDonation(gift({ paymentMethod: "card" }), newIdempotencyKey());
    const notPayPal = await apiError(client.createPayPalOrder(card.donationId, newIdempotencyKey()));
    expect([notPayPal.status, notPayPal.code]).toEqual([422, "paypal_not_allowed"]);
  });

  it("answers bad requests with 4xx and stays up", async () => {
    const created = await client.createDonation(gift(), newIdempotencyKey());
    const url = `${server.url}/donations/${created.donationId}/paypal/capture`;
    const json = { "Content-Type": "application/json" };
    const noKey = await fetch(url, { method: "POST", headers: json, body: "{}" });
    expect([noKey.status, ((await noKey.json()) as { error: { code: string } }).error.code]).toEqual([
      400,
      "idempotency_key_missing",
    ]);
    const headers = { ...json, "Idempotency-Key": newIdempotencyKey() };
    expect((await fetch(url, { method: "POST", headers, body: "{not json" })).status).toBe(400);
    expect((await fetch(url, { method: "POST", headers, body: "{}" })).status).toBe(400);
    expect((await fetch(url, { method: "GET" })).status).toBe(405);
    expect(
      (await fetch(`${server.url}/donations/don_nope/paypal/order`, { method: "POST", headers, body: "{}" })).status,
    ).toBe(404);
    // Capture before any order was made: the donor never approved anything.
    const early = await fetch(url, { method: "POST", headers, body: JSON.stringify({ orderId: "ORDER-X" }) });
    expect(((await early.json()) as { error: { code: string } }).error.code).toBe("paypal_not_approved");
    expect((await client.getDonation(created.donationId)).status).toBe("requires_payment_method");
  });
});
