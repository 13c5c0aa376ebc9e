/**
 * The service's PayPal provider through PayPal's official SDK, against the local PayPal stand-in:
 * the same requests the SDK sends to PayPal, with PayPal-Request-Ids made from the donation.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { billingCycles, createSdkPayPal } from "../../../src/api/paypal/sdk-provider.js";
import { createPayPalApi, loopbackPort } from "../../../src/api/paypal/sdk.js";
import { type PayPalStandIn, startPayPalStandIn } from "../../../src/stand-ins/paypal/server.js";

let paypal: PayPalStandIn;
let provider: ReturnType<typeof createSdkPayPal>;
let api: ReturnType<typeof createPayPalApi>;
beforeAll(async () => {
  paypal = await startPayPalStandIn();
  api = createPayPalApi({
    clientId: paypal.clientId,
    clientSecret: paypal.clientSecret,
    environment: "sandbox",
    webhookId: paypal.webhookId,
    apiBase: paypal.url,
  });
  provider = createSdkPayPal(api);
});
afterAll(() => paypal.stop());

describe("the PayPal provider on the official SDK", () => {
  it("makes one order per donation, however often it is asked", async () => {
    const first = await provider.createOrder(10_000, "don_once");
    const again = await provider.createOrder(10_000, "don_once");
    expect(again).toBe(first);
    const { result } = await api.orders.getOrder({ id: first });
    expect(result.purchaseUnits?.[0]).toMatchObject({
      customId: "don_once",
      amount: { currencyCode: "AUD", value: "100.00" },
    });
  });

  it("captures an order approved in two tabs once: both tabs hear it completed, PayPal took the money once", async () => {
    const id = await provider.createOrder(5_000, "don_tabs");
    expect(await provider.capture(id)).toBe("declined");
    paypal.approveOrder(id);
    paypal.approveOrder(id);
    const outcomes = await Promise.all([provider.capture(id), provider.capture(id)]);
    expect(outcomes).toEqual(["completed", "completed"]);
    await paypal.settled();
    const captures = paypal.deliveries().filter((d) => d.event.event_type === "PAYMENT.CAPTURE.COMPLETED");
    expect(captures).toHaveLength(1);
    expect(captures[0]!.event.resource.custom_id).toBe("don_tabs");
    expect(await provider.capture("NOPE")).toBe("unknown");
  });

  it("a capture whose answer was lost, or refused as a simultaneous duplicate, is read back from the order", async () => {
    const id = await provider.createOrder(4_000, "don_lost");
    paypal.approveOrder(id);
    // PayPal captures, then the answer never arrives (a dropped connection, the second of two simultaneous requests).
    const losing = createSdkPayPal({
      ...api,
      orders: {
        getOrder: (req: Parameters<typeof api.orders.getOrder>[0]) => api.orders.getOrder(req),
        captureOrder: async (req: Parameters<typeof api.orders.captureOrder>[0]) => {
          await api.orders.captureOrder({ ...req, paypalRequestId: "the-other-tab" });
          throw new Error("socket hang up");
        },
      } as unknown as typeof api.orders,
    });
    expect(await losing.capture(id)).toBe("already_captured");
    // Not captured: the error stands (the service answers 500 and the donor may try again).
    const other = await provider.createOrder(4_000, "don_not_captured");
    paypal.approveOrder(other);
    const failing = createSdkPayPal({
      ...api,
      orders: {
        getOrder: (req: Parameters<typeof api.orders.getOrder>[0]) => api.orders.getOrder(req),
        captureOrder: async () => {
          throw new Error("socket hang up");
        },
      } as unknown as typeof api.orders,
    });
    await expect(failing.capture(other)).rejects.toThrow("socket hang up");
    expect(await provider.capture(other)).toBe("completed");
  });

  it("makes a plan of 11 payments and a last one for instalments, and a subscription per donation", async () => {
    expect(
      billingCycles({ cycleCents: 3_813, lastCents: 3_807, count: 12 }).map((c) => [
        c.totalCycles,
        c.pricingScheme.fixedPrice.value,
      ]),
    ).toEqual([
      [11, "38.13"],
      [1, "38.07"],
    ]);
    expect(billingCycles({ cycleCents: 2_500, lastCents: 2_500, count: null }).map((c) => c.totalCycles)).toEqual([0]);
    const id = await provider.createSubscription({ cycleCents: 3_813, lastCents: 3_807, count: 12 }, "don_zakat");
    expect(await provider.createSubscription({ cycleCents: 3_813, lastCents: 3_807, count: 12 }, "don_zakat")).toBe(id);
    expect(await provider.capture(id)).toBe("declined");
    paypal.approveSubscription(id);
    expect(await provider.capture(id)).toBe("completed");
    const { result } = await api.subscriptions.getSubscription({ id });
    expect(result.customId).toBe("don_zakat");
  });

  it("never sends PayPal's credentials in clear to another host", () => {
    expect(() => loopbackPort("http://paypal.example.org:80")).toThrow(RangeError);
    expect(() => loopbackPort("https://127.0.0.1:8443")).toThrow(RangeError);
    expect(loopbackPort("http://127.0.0.1:12112")).toBe(12112);
  });
});
