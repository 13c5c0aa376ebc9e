/**
 * PayPal for real, from the donor's side: the service's PayPal provider is PayPal's official SDK
 * pointed at the local PayPal stand-in, which sends the service signed webhooks. A one-off gift
 * approved in two tabs is captured once; PayPal's verified PAYMENT.CAPTURE.COMPLETED marks it paid
 * and e-mails the receipt; a forged or replayed event changes nothing; a refund or a dispute voids
 * the receipt.
 */
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { receiptsOf } from "../../../src/api/receipts/issue.js";
import { createReceiptsService } from "../../../src/api/receipts/service.js";
import { createPayPalApi } from "../../../src/api/paypal/sdk.js";
import { createSdkPayPal } from "../../../src/api/paypal/sdk-provider.js";
import { readReceiptSettings } from "../../../src/receipts/settings.js";
import { type PayPalStandIn, startPayPalStandIn } from "../../../src/stand-ins/paypal/server.js";
import { type SmtpCatcher, startSmtpCatcher } from "../../../src/stand-ins/smtp/catcher.js";
import { donationRequest } from "../../support/donation-request.js";
import { startTestPaymentsService, type TestPaymentsService } from "../../support/payments-service.js";

let service: TestPaymentsService;
let paypal: PayPalStandIn;
let catcher: SmtpCatcher;
beforeAll(async () => {
  [service, catcher] = await Promise.all([startTestPaymentsService(), startSmtpCatcher()]);
  paypal = await startPayPalStandIn({ webhookUrl: `${service.url}/paypal/webhook`, webhookRetryDelaysMs: [20] });
  const api = createPayPalApi({
    clientId: paypal.clientId,
    clientSecret: paypal.clientSecret,
    environment: "sandbox",
    webhookId: paypal.webhookId,
    apiBase: paypal.url,
  });
  service.deps.paypal = createSdkPayPal(api);
  service.deps.paypalApi = api;
  service.deps.receipts = createReceiptsService(service.db, {
    settings: readReceiptSettings({
      NZF_FOUNDATION_NAME: "National Zakat Foundation Australia",
      NZF_FOUNDATION_ABN: "51 824 753 556",
      NZF_RECEIPT_FROM: "National Zakat Foundation <receipts@nzf.org.au>",
      NZF_MAIL_TRANSPORT: "smtp",
      NZF_SMTP_URL: catcher.smtpUrl,
    }),
  });
});
afterAll(async () => {
  service?.deps.receipts?.close();
  await Promise.all([service?.stop(), catcher?.stop(), paypal?.stop()]);
});
beforeEach(async () => {
  await service.reset();
  catcher.clear();
});

const post = (path: string, body: unknown) =>
  fetch(`${service.url}${path}`, {
    method: "POST",
    headers: { "Content-Type": "application/json", "Idempotency-Key": randomUUID() },
    body: JSON.stringify(body),
  });

async function paypalGift(amountCents = 12_000): Promise<{ donationId: string; orderId: string }> {
  const created = await post("/donations", donationRequest({ fund: "zakat", amountCents, paymentMethod: "paypal" }));
  expect(created.status).toBe(201);
  const { donationId } = (await created.json()) as { donationId: string };
  const order = await post(`/donations/${donationId}/paypal/order`, {});
  expect(order.status).toBe(201);
  const { orderId } = (await order.json()) as { orderId: string };
  return { donationId, orderId };
}

const statusOf = async (donationId: string) =>
  ((await (await fetch(`${service.url}/donations/${donationId}`)).json()) as { status: string }).status;

describe("PayPal through its SDK and signed webhooks", () => {
  it("a gift approved in two tabs is captured once; the verified webhook marks it paid and sends the receipt", async () => {
    const { donationId, orderId } = await paypalGift();
    // The donor approves in two tabs; both tabs ask the service to capture at once.
    paypal.approveOrder(orderId);
    paypal.approveOrder(orderId);
    const api = service.deps.paypalApi!;
    const captureOrder = api.orders.captureOrder.bind(api.orders);
    const calls: string[] = [];
    api.orders.captureOrder = (...args: Parameters<typeof captureOrder>) => {
      calls.push(args[0].id);
      return captureOrder(...args);
    };
    const [a, b] = await Promise.all([
      post(`/donations/${donationId}/paypal/capture`, { orderId }),
      post(`/donations/${donationId}/paypal/capture`, { orderId }),
    ]).finally(() => {
      api.orders.captureOrder = captureOrder;
    });
    expect([a.status, b.status]).toEqual([200, 200]);
    expect(await b.text()).toBe(await a.text());
    // PayPal is asked once: the second request waits for the first's answer (simultaneous
    // requests with one PayPal-Request-Id may fail the second at PayPal).
    expect(calls).toEqual([orderId]);
    await paypal.settled();
    const captures = paypal.deliveries().filter((d) => d.event.event_type === "PAYMENT.CAPTURE.COMPLETED");
    expect(captures).toHaveLength(1);
    expect(captures[0]!.attempts.at(-1)!.status).toBe(200);
    expect(await statusOf(donationId)).toBe("succeeded");
    const mail = await catcher.waitFor((m) => m.subject.startsWith("Your receipt"));
    expect(mail.text).toMatch(/^Paid with: +PayPal$/m);
    expect(mail.text).toMatch(/^Amount: +\$120\.00$/m);
    expect(await receiptsOf(service.db, donationId)).toHaveLength(1);
    const charges = await service.db.selectFrom("charges").selectAll().where("donation_id", "=", donationId).execute();
    expect(charges.map((c) => [c.id, c.amount_cents])).toEqual([[captures[0]!.event.resource.id, 12_000]]);
  });

  it("a tab that captures after the order was captured elsewhere hears the gift is taken, not 'another gift'", async () => {
    const { donationId, orderId } = await paypalGift(3_000);
    paypal.approveOrder(orderId);
    // The other tab's capture reached PayPal, and its answer never reached the service.
    await service.deps.paypalApi!.orders.captureOrder({ id: orderId, paypalRequestId: "the-other-tab" });
    const late = await post(`/donations/${donationId}/paypal/capture`, { orderId });
    expect(late.status).toBe(200);
    expect(((await late.json()) as { donationId: string }).donationId).toBe(donationId);
    await paypal.settled();
    expect(
      paypal
        .deliveries()
        .filter((d) => d.event.event_type === "PAYMENT.CAPTURE.COMPLETED" && d.event.resource.custom_id === donationId),
    ).toHaveLength(1);
    expect(await statusOf(donationId)).toBe("succeeded");
    await catcher.waitFor((m) => m.subject.startsWith("Your receipt"));
    expect(await receiptsOf(service.db, donationId)).toHaveLength(1);
  });

  it("the capture alone does not make a gift paid: until PayPal's event, it is processing", async () => {
    const quiet = await startPayPalStandIn(); // no webhook URL: PayPal's events never arrive
    const api = createPayPalApi({
      clientId: quiet.clientId,
      clientSecret: quiet.clientSecret,
      environment: "sandbox",
      webhookId: quiet.webhookId,
      apiBase: quiet.url,
    });
    const before = { paypal: service.deps.paypal, paypalApi: service.deps.paypalApi };
    service.deps.paypal = createSdkPayPal(api);
    service.deps.paypalApi = api;
    try {
      const { donationId, orderId } = await paypalGift(2_000);
      quiet.approveOrder(orderId);
      expect((await post(`/donations/${donationId}/paypal/capture`, { orderId })).status).toBe(200);
      expect(await statusOf(donationId)).toBe("processing");
      expect(catcher.messages()).toHaveLength(0);
    } finally {
      Object.assign(service.deps, before);
      await quiet.stop();
    }
  });

  it("refuses an unsigned, forged or altered event, and applies a replayed one once", async () => {
    const { donationId, orderId } = await paypalGift(5_000);
    paypal.approveOrder(orderId);
    await post(`/donations/${donationId}/paypal/capture`, { orderId });
    await paypal.settled();
    const delivery = paypal
      .deliveries()
      .find((d) => d.event.event_type === "PAYMENT.CAPTURE.COMPLETED" && d.event.resource.custom_id === donationId)!;
    const body = JSON.stringify(delivery.event);
    const send = (raw: string, headers: Record<string, string>) =>
      fetch(`${service.url}/paypal/webhook`, {
        method: "POST",
        headers: { "Content-Type": "application/json", ...headers },
        body: raw,
      });
    expect((await send(body, {})).status).toBe(400);
    const forged = { ...paypal.signWebhook(body), "paypal-transmission-sig": Buffer.from("forged").toString("base64") };
    expect((await send(body, forged)).status).toBe(400);
    const altered = JSON.stringify({
      ...delivery.event,
      id: "WH-ALTERED",
      resource: { ...delivery.event.resource, amount: { currency_code: "AUD", value: "1.00" } },
    });
    expect((await send(altered, paypal.signWebhook(body))).status).toBe(400);
    expect((await send("not json", paypal.signWebhook("not json"))).status).toBe(400);
    for (let i = 0; i < 5; i++) {
      const replay = await send(body, paypal.signWebhook(body));
      expect(replay.status).toBe(200);
      expect(await replay.json()).toEqual({ received: true, duplicate: true });
    }
    expect(await receiptsOf(service.db, donationId)).toHaveLength(1);
  });

  it("a refund through PayPal voids the receipt", async () => {
    const { donationId, orderId } = await paypalGift(8_000);
    paypal.approveOrder(orderId);
    await post(`/donations/${donationId}/paypal/capture`, { orderId });
    await paypal.settled();
    await catcher.waitFor((m) => m.subject.startsWith("Your receipt"));
    const captureId = paypal
      .deliveries()
      .find((d) => d.event.resource.custom_id === donationId && d.event.event_type === "PAYMENT.CAPTURE.COMPLETED")!
      .event.resource.id as string;
    const refund = await service.deps.paypalApi!.payments.refundCapturedPayment({ captureId });
    expect(refund.result.status).toBe("COMPLETED");
    await paypal.settled();
    await catcher.waitFor((m) => m.subject.includes("is void"));
    expect(await statusOf(donationId)).toBe("refunded");
    expect((await receiptsOf(service.db, donationId)).map((r) => r.kind)).toEqual(["receipt", "void"]);
  });

  it("a monthly gift through PayPal: each month PayPal bills has its own receipt, from its signed event", async () => {
    const created = await post(
      "/donations",
      donationRequest({ fund: "sadaqah", amountCents: 2_500, frequency: "monthly", paymentMethod: "paypal" }),
    );
    expect(created.status).toBe(201);
    const { donationId } = (await created.json()) as { donationId: string };
    const made = await post(`/donations/${donationId}/paypal/subscription`, {});
    expect(made.status).toBe(201);
    const { subscriptionId } = (await made.json()) as { subscriptionId: string };
    paypal.approveSubscription(subscriptionId);
    expect((await post(`/donations/${donationId}/paypal/capture`, { subscriptionId })).status).toBe(200);
    await paypal.settled();
    await catcher.waitFor((m) => m.subject.startsWith("Your receipt"));
    // The next month: PayPal bills the subscription and says so with PAYMENT.SALE.COMPLETED.
    paypal.chargeSubscriptionCycle(subscriptionId);
    await paypal.settled();
    await catcher.waitFor(() => catcher.messages().filter((m) => m.subject.startsWith("Your receipt")).length >= 2);
    const receipts = await receiptsOf(service.db, donationId);
    expect(receipts.map((r) => [r.kind, r.amount_cents])).toEqual([
      ["receipt", 2_500],
      ["receipt", 2_500],
    ]);
    expect(new Set(receipts.map((r) => r.number)).size).toBe(2);
    const mails = catcher.messages().filter((m) => m.subject.startsWith("Your receipt"));
    expect(mails.map((m) => m.to)).toEqual(["aisha@example.com", "aisha@example.com"]);
    for (const mail of mails) expect(mail.text).toMatch(/^Paid with: +PayPal$/m);
    const charges = await service.db.selectFrom("charges").selectAll().where("donation_id", "=", donationId).execute();
    expect(charges).toHaveLength(2);
  });

  it("a dispute opened with PayPal voids the receipt, with the reason, and e-mails the donor", async () => {
    const { donationId, orderId } = await paypalGift(6_000);
    paypal.approveOrder(orderId);
    await post(`/donations/${donationId}/paypal/capture`, { orderId });
    await paypal.settled();
    await catcher.waitFor((m) => m.subject.startsWith("Your receipt"));
    const captureId = paypal
      .deliveries()
      .find((d) => d.event.resource.custom_id === donationId && d.event.event_type === "PAYMENT.CAPTURE.COMPLETED")!
      .event.resource.id as string;
    paypal.openDispute(captureId);
    await paypal.settled();
    const voided = await catcher.waitFor((m) => m.subject.includes("is void"));
    expect(voided.text).toContain("The payment was disputed with PayPal.");
    expect(await statusOf(donationId)).toBe("disputed");
    expect((await receiptsOf(service.db, donationId)).map((r) => r.kind)).toEqual(["receipt", "void"]);
  });
});
