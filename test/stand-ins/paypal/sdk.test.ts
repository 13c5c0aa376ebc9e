/**
 * The PayPal stand-in answers PayPal's official server SDK: every call here goes through
 * @paypal/paypal-server-sdk (its models validate the answers' shapes), except those the SDK does
 * not have (catalog products, webhook verification, refunds' raw errors), made as PayPal's REST
 * reference describes them.
 */
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import {
  ApiError,
  CheckoutPaymentIntent,
  type Client,
  IntervalUnit,
  OrdersController,
  PaymentsController,
  SubscriptionsController,
  TenureType,
} from "@paypal/paypal-server-sdk";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { type PayPalStandIn, startPayPalStandIn } from "../../../src/stand-ins/paypal/server.js";
import { sdkClientFor } from "../../support/paypal-sdk.js";

interface Received {
  headers: Record<string, string>;
  raw: string;
  event: { id: string; event_type: string; resource: Record<string, unknown> };
}
const received: Received[] = [];
const receiver = createServer(async (req, res) => {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  const raw = Buffer.concat(chunks).toString("utf8");
  received.push({ headers: req.headers as Record<string, string>, raw, event: JSON.parse(raw) });
  res.writeHead(200).end();
});

let paypal: PayPalStandIn;
let client: Client;
let orders: OrdersController;
let subscriptions: SubscriptionsController;

beforeAll(async () => {
  await new Promise<void>((r) => receiver.listen(0, "127.0.0.1", r));
  paypal = await startPayPalStandIn({
    webhookUrl: `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/paypal/webhook`,
  });
  client = sdkClientFor(paypal);
  orders = new OrdersController(client);
  subscriptions = new SubscriptionsController(client);
});
afterAll(async () => {
  await paypal.stop();
  await new Promise((r) => receiver.close(r));
});
beforeEach(() => {
  received.length = 0;
});

/** A token for the calls the SDK does not make. */
async function bearer(): Promise<string> {
  const res = await fetch(`${paypal.url}/v1/oauth2/token`, {
    method: "POST",
    headers: {
      authorization: `Basic ${Buffer.from(`${paypal.clientId}:${paypal.clientSecret}`).toString("base64")}`,
      "content-type": "application/x-www-form-urlencoded",
    },
    body: "grant_type=client_credentials",
  });
  expect(res.status).toBe(200);
  return `Bearer ${((await res.json()) as { access_token: string }).access_token}`;
}

async function rest(method: string, path: string, body?: unknown, headers: Record<string, string> = {}) {
  const res = await fetch(`${paypal.url}${path}`, {
    method,
    headers: { authorization: await bearer(), "content-type": "application/json", ...headers },
    ...(body === undefined ? {} : { body: typeof body === "string" ? body : JSON.stringify(body) }),
  });
  const text = await res.text();
  return { status: res.status, body: text ? (JSON.parse(text) as Record<string, any>) : undefined };
}

async function failure(call: Promise<unknown>): Promise<{ status: number; issue?: string; body: any }> {
  try {
    await call;
  } catch (error) {
    expect(error).toBeInstanceOf(ApiError);
    const e = error as ApiError;
    const body = JSON.parse(String(e.body));
    return { status: e.statusCode, issue: body.details?.[0]?.issue, body };
  }
  throw new Error("the call succeeded");
}

const gift = (value: string, customId = "don_123") => ({
  body: {
    intent: CheckoutPaymentIntent.Capture,
    purchaseUnits: [{ customId, invoiceId: `NZF-${customId}`, amount: { currencyCode: "AUD", value } }],
  },
});

describe("OAuth 2.0 client credentials", () => {
  it("refuses a wrong secret, and a token it did not issue", async () => {
    const wrong = new OrdersController(sdkClientFor(paypal, "not-the-secret"));
    await expect(wrong.createOrder(gift("10.00"))).rejects.toThrow();
    const res = await fetch(`${paypal.url}/v2/checkout/orders/X`, { headers: { authorization: "Bearer forged" } });
    expect(res.status).toBe(401);
    expect(await res.json()).toEqual({
      error: "invalid_token",
      error_description: "Token signature verification failed",
    });
    const noGrant = await fetch(`${paypal.url}/v1/oauth2/token`, {
      method: "POST",
      headers: {
        authorization: `Basic ${Buffer.from(`${paypal.clientId}:${paypal.clientSecret}`).toString("base64")}`,
      },
    });
    expect(noGrant.status).toBe(400);
  });
});

describe("Orders v2", () => {
  it("creates an order (minimal by default), shows it, and will not capture it before approval", async () => {
    const created = await orders.createOrder(gift("457.50"));
    expect(created.statusCode).toBe(201);
    expect(created.result.status).toBe("CREATED");
    expect(created.result.purchaseUnits).toBeUndefined();
    expect(created.result.links?.find((l) => l.rel === "approve")?.href).toBe(
      `${paypal.url}/checkoutnow?token=${created.result.id}`,
    );
    const shown = await orders.getOrder({ id: created.result.id! });
    expect(shown.result.purchaseUnits?.[0]).toMatchObject({
      customId: "don_123",
      amount: { currencyCode: "AUD", value: "457.50" },
    });
    const early = await failure(orders.captureOrder({ id: created.result.id! }));
    expect(early).toMatchObject({ status: 422, issue: "ORDER_NOT_APPROVED" });
  });

  it("captures an order approved twice (two tabs) once, and says so to the second capture", async () => {
    const { result } = await orders.createOrder(gift("50.00", "don_two_tabs"));
    paypal.approveOrder(result.id!);
    paypal.approveOrder(result.id!);
    const outcomes = await Promise.allSettled([
      orders.captureOrder({ id: result.id! }),
      orders.captureOrder({ id: result.id! }),
    ]);
    const ok = outcomes.filter((o) => o.status === "fulfilled");
    const refused = outcomes.filter((o) => o.status === "rejected") as PromiseRejectedResult[];
    expect(ok).toHaveLength(1);
    expect(refused).toHaveLength(1);
    expect((refused[0]!.reason as ApiError).statusCode).toBe(422);
    expect(JSON.parse(String((refused[0]!.reason as ApiError).body)).details[0].issue).toBe("ORDER_ALREADY_CAPTURED");
    const capture = (ok[0] as PromiseFulfilledResult<Awaited<ReturnType<OrdersController["captureOrder"]>>>).value
      .result.purchaseUnits![0]!.payments!.captures![0]!;
    expect(capture).toMatchObject({
      status: "COMPLETED",
      amount: { value: "50.00" },
      customId: "don_two_tabs",
      finalCapture: true,
    });
    expect(capture.sellerReceivableBreakdown?.paypalFee?.value).toBe("0.85");

    await paypal.settled();
    const completed = received.filter((r) => r.event.event_type === "PAYMENT.CAPTURE.COMPLETED");
    expect(completed).toHaveLength(1);
    expect(completed[0]!.event.resource).toMatchObject({ id: capture.id, custom_id: "don_two_tabs" });
  });

  it("answers a capture retried with the same PayPal-Request-Id as the first time", async () => {
    const { result } = await orders.createOrder(gift("20.00", "don_retry"));
    paypal.approveOrder(result.id!);
    const first = await orders.captureOrder({ id: result.id!, paypalRequestId: "capture-don_retry" });
    const again = await orders.captureOrder({ id: result.id!, paypalRequestId: "capture-don_retry" });
    expect(again.statusCode).toBe(201);
    expect(again.result).toEqual(first.result);
    await paypal.settled();
    expect(received.filter((r) => r.event.event_type === "PAYMENT.CAPTURE.COMPLETED")).toHaveLength(1);
  });

  it("refuses amounts PayPal refuses", async () => {
    for (const [value, issue] of [
      ["10.001", "DECIMAL_PRECISION"],
      ["0.00", "CANNOT_BE_ZERO_OR_NEGATIVE"],
      ["-5", "INVALID_PARAMETER_SYNTAX"],
      ["1e3", "INVALID_PARAMETER_SYNTAX"],
    ] as const) {
      const refused = await failure(orders.createOrder(gift(value)));
      expect(refused, value).toMatchObject({ status: 400, issue });
      expect(refused.body.name).toBe("INVALID_REQUEST");
    }
  });
});

describe("PayPal's window", () => {
  it("is a page with one button that approves and returns to the merchant's return URL", async () => {
    const created = await orders.createOrder({
      body: {
        ...gift("15.00").body,
        paymentSource: {
          paypal: { experienceContext: { returnUrl: "http://127.0.0.1:4321/pay/zakat/?paypal=return" } },
        },
      },
    });
    const approve = created.result.links!.find((l) => l.rel === "approve")!.href;
    const page = await fetch(approve);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('<button type="submit">Approve</button>');
    const back = await fetch(approve, { method: "POST", redirect: "manual" });
    expect(back.status).toBe(303);
    expect(back.headers.get("location")).toBe(
      `http://127.0.0.1:4321/pay/zakat/?paypal=return&token=${created.result.id}`,
    );
    expect((await orders.getOrder({ id: created.result.id! })).result.status).toBe("APPROVED");
    expect((await fetch(`${paypal.url}/checkoutnow?token=NOPE`)).status).toBe(404);
  });
});

describe("webhooks", () => {
  it("are signed so that verify-webhook-signature says SUCCESS, and FAILURE for anything changed", async () => {
    const { result } = await orders.createOrder(gift("10.00", "don_hook"));
    paypal.approveOrder(result.id!);
    await orders.captureOrder({ id: result.id! });
    await paypal.settled();
    const hook = received.find((r) => r.event.event_type === "PAYMENT.CAPTURE.COMPLETED")!;
    const h = hook.headers;
    expect(h["paypal-auth-algo"]).toBe("SHA256withRSA");
    const verify = (change: Record<string, unknown> = {}) =>
      rest("POST", "/v1/notifications/verify-webhook-signature", {
        auth_algo: h["paypal-auth-algo"],
        cert_url: h["paypal-cert-url"],
        transmission_id: h["paypal-transmission-id"],
        transmission_sig: h["paypal-transmission-sig"],
        transmission_time: h["paypal-transmission-time"],
        webhook_id: paypal.webhookId,
        webhook_event: JSON.parse(hook.raw),
        ...change,
      });
    expect((await verify()).body).toEqual({ verification_status: "SUCCESS" });
    const tampered = {
      ...JSON.parse(hook.raw),
      resource: { ...hook.event.resource, amount: { currency_code: "AUD", value: "10000.00" } },
    };
    expect((await verify({ webhook_event: tampered })).body).toEqual({ verification_status: "FAILURE" });
    expect((await verify({ webhook_id: "SOMEONEELSES" })).body).toEqual({ verification_status: "FAILURE" });
    expect((await verify({ transmission_time: new Date().toISOString() })).body).toEqual({
      verification_status: "FAILURE",
    });
    expect((await verify({ cert_url: "https://attacker.example/cert.pem" })).body).toEqual({
      verification_status: "FAILURE",
    });
    expect((await verify({ transmission_sig: undefined })).status).toBe(400);
  });

  it("are sent again when the receiver fails, and can be redelivered", async () => {
    let refuse = 2;
    const flaky = createServer((_req, res) => {
      res.writeHead(refuse-- > 0 ? 500 : 200).end();
    });
    await new Promise<void>((r) => flaky.listen(0, "127.0.0.1", r));
    const other = await startPayPalStandIn({
      webhookUrl: `http://127.0.0.1:${(flaky.address() as AddressInfo).port}/`,
      webhookRetryDelaysMs: [10, 10, 10],
    });
    try {
      const o = new OrdersController(sdkClientFor(other));
      const { result } = await o.createOrder(gift("10.00"));
      other.approveOrder(result.id!);
      await o.captureOrder({ id: result.id! });
      await other.settled();
      const [delivery] = other.deliveries();
      expect(delivery!.attempts.map((a) => a.status)).toEqual([500, 500, 200]);
      expect(delivery!.delivered).toBe(true);
      await other.redeliver(delivery!.event.id);
      expect(delivery!.attempts).toHaveLength(4);
    } finally {
      await other.stop();
      await new Promise((r) => flaky.close(r));
    }
  });
});

describe("refunds and disputes", () => {
  it("refund a capture in part then in full, raising PAYMENT.CAPTURE.REFUNDED, and no more", async () => {
    const { result } = await orders.createOrder(gift("100.00", "don_refund"));
    paypal.approveOrder(result.id!);
    const captured = await orders.captureOrder({ id: result.id! });
    const captureId = captured.result.purchaseUnits![0]!.payments!.captures![0]!.id!;
    const payments = new PaymentsController(client);
    const part = await payments.refundCapturedPayment({
      captureId,
      body: { amount: { currencyCode: "AUD", value: "30.00" } },
    });
    expect(part.result).toMatchObject({ status: "COMPLETED", amount: { value: "30.00" } });
    expect((await payments.getCapturedPayment({ captureId })).result.status).toBe("PARTIALLY_REFUNDED");
    const tooMuch = await rest("POST", `/v2/payments/captures/${captureId}/refund`, {
      amount: { currency_code: "AUD", value: "70.01" },
    });
    expect(tooMuch.status).toBe(422);
    expect(tooMuch.body!.details[0].issue).toBe("REFUND_AMOUNT_EXCEEDED");
    const rest70 = await payments.refundCapturedPayment({ captureId });
    expect(rest70.result.amount?.value).toBe("70.00");
    expect((await payments.getCapturedPayment({ captureId })).result.status).toBe("REFUNDED");
    paypal.openDispute(captureId);
    await paypal.settled();
    const types = received.map((r) => r.event.event_type);
    expect(types.filter((t) => t === "PAYMENT.CAPTURE.REFUNDED")).toHaveLength(2);
    expect(types).toContain("CUSTOMER.DISPUTE.CREATED");
    const refunded = received.find((r) => r.event.event_type === "PAYMENT.CAPTURE.REFUNDED")!;
    expect(refunded.event.resource).toMatchObject({ custom_id: "don_refund", amount: { value: "30.00" } });
  });
});

describe("subscriptions", () => {
  /** A plan of cycles in order: [times, "price"]; times 0 repeats without end. */
  async function plan(...cycles: [number, string][]): Promise<string> {
    const product = await rest("POST", "/v1/catalogs/products", { name: "Zakat instalments", type: "SERVICE" });
    expect(product.status).toBe(201);
    const created = await subscriptions.createBillingPlan({
      body: {
        productId: product.body!.id,
        name: "Zakat in 12 monthly instalments",
        billingCycles: cycles.map(([totalCycles, value], i) => ({
          frequency: { intervalUnit: IntervalUnit.Month, intervalCount: 1 },
          tenureType: TenureType.Regular,
          sequence: i + 1,
          totalCycles,
          pricingScheme: { fixedPrice: { currencyCode: "AUD", value } },
        })),
        paymentPreferences: { autoBillOutstanding: true, paymentFailureThreshold: 3 },
      },
    });
    expect(created.statusCode).toBe(201);
    return created.result.id!;
  }

  it("$457.50 zakat in 12 instalments: approved, charged 11 × $38.13 and $38.07, then EXPIRED and charged no more", async () => {
    const planId = await plan([11, "38.13"], [1, "38.07"]);
    const created = await subscriptions.createSubscription({ body: { planId, customId: "don_zakat12" } });
    expect(created.result.status).toBe("APPROVAL_PENDING");
    const approve = created.result.links!.find((l) => l.rel === "approve")!.href;
    expect(approve).toContain("/webapps/billing/subscriptions?ba_token=");
    paypal.approveSubscription(created.result.id!);
    for (let i = 2; i <= 12; i++) paypal.chargeSubscriptionCycle(created.result.id!);
    expect(() => paypal.chargeSubscriptionCycle(created.result.id!)).toThrow(/EXPIRED/);
    const shown = await subscriptions.getSubscription({ id: created.result.id! });
    expect(shown.result.status).toBe("EXPIRED");
    expect(shown.result.billingInfo?.cycleExecutions?.map((c) => [c.cyclesCompleted, c.cyclesRemaining])).toEqual([
      [11, 0],
      [1, 0],
    ]);
    await paypal.settled();
    const sales = received.filter((r) => r.event.event_type === "PAYMENT.SALE.COMPLETED");
    expect(sales).toHaveLength(12);
    expect(sales[0]!.event.resource).toMatchObject({
      billing_agreement_id: created.result.id,
      custom: "don_zakat12",
      amount: { total: "38.13" },
    });
    const cents = sales.map((s) => Math.round(Number((s.event.resource.amount as { total: string }).total) * 100));
    expect(cents.reduce((a, b) => a + b, 0)).toBe(45_750);
    expect(cents.at(-1)).toBe(3_807);
    expect(received.map((r) => r.event.event_type).filter((t) => t.startsWith("BILLING.SUBSCRIPTION."))).toEqual([
      "BILLING.SUBSCRIPTION.CREATED",
      "BILLING.SUBSCRIPTION.ACTIVATED",
      "BILLING.SUBSCRIPTION.EXPIRED",
    ]);
    const cancelExpired = await failure(
      subscriptions.cancelSubscription({ id: created.result.id!, body: { reason: "done" } }),
    );
    expect(cancelExpired).toMatchObject({ status: 422, issue: "SUBSCRIPTION_STATUS_INVALID" });
  });

  it("a monthly gift suspends, resumes and cancels", async () => {
    const planId = await plan([0, "25.00"]);
    const { result } = await subscriptions.createSubscription({ body: { planId } });
    const id = result.id!;
    paypal.approveSubscription(id);
    expect((await subscriptions.suspendSubscription({ id, body: { reason: "Donor asked to pause" } })).statusCode).toBe(
      204,
    );
    expect((await subscriptions.getSubscription({ id })).result.status).toBe("SUSPENDED");
    expect(await failure(subscriptions.suspendSubscription({ id, body: { reason: "again" } }))).toMatchObject({
      status: 422,
    });
    expect((await subscriptions.activateSubscription({ id, body: { reason: "Resumed" } })).statusCode).toBe(204);
    expect((await subscriptions.cancelSubscription({ id, body: { reason: "Donor cancelled" } })).statusCode).toBe(204);
    expect((await subscriptions.getSubscription({ id })).result.status).toBe("CANCELLED");
    await paypal.settled();
    expect(received.map((r) => r.event.event_type)).toContain("BILLING.SUBSCRIPTION.CANCELLED");
  });

  it("refuses a plan for a product that does not exist and a subscription to a plan that does not", async () => {
    expect(
      (await rest("POST", "/v1/billing/plans", { product_id: "PROD-NOPE", name: "x", billing_cycles: [] })).status,
    ).toBe(400);
    expect(await failure(subscriptions.createSubscription({ body: { planId: "P-NOPE" } }))).toMatchObject({
      status: 400,
    });
    expect(await failure(subscriptions.getSubscription({ id: "I-NOPE" }))).toMatchObject({
      status: 404,
      issue: "INVALID_RESOURCE_ID",
    });
  });
});

describe("an attacker's requests", () => {
  it("get PayPal's errors and the stand-in stays up", async () => {
    expect((await rest("POST", "/v2/checkout/orders", "{not json")).status).toBe(400);
    expect((await rest("POST", "/v2/checkout/orders", "[]")).status).toBe(400);
    expect((await rest("GET", "/v2/checkout/orders/%2e%2e%2fetc")).status).toBe(404);
    expect((await rest("DELETE", "/v2/checkout/orders")).status).toBe(405);
    const big = await fetch(`${paypal.url}/v2/checkout/orders`, {
      method: "POST",
      headers: { authorization: await bearer(), "content-type": "application/json" },
      body: "x".repeat(2 * 1024 * 1024),
    }).catch(() => undefined);
    expect(big === undefined || big.status === 413).toBe(true);
    expect((await orders.createOrder(gift("10.00"))).statusCode).toBe(201);
  });
});
