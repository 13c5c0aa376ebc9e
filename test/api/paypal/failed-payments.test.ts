/**
 * A PayPal subscription's failed payment is a failed charge in the donor's history: PayPal's
 * BILLING.SUBSCRIPTION.PAYMENT.FAILED, verified like every PayPal webhook (PayPal's
 * verify-webhook-signature, here the local stand-in's), applied once. The attacker's tests first:
 * an unsigned or re-signed-with-a-wrong-body event, one naming another donor's donation with this
 * subscription, and a replay change nothing. The subscription as PayPal shows it is read from the
 * stand-in, its last failed payment added as PayPal reports one, and signed as PayPal signs.
 */
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createPayPalApi, type PayPalApi } from "../../../src/api/paypal/sdk.js";
import { createSdkPayPal } from "../../../src/api/paypal/sdk-provider.js";
import { type PayPalStandIn, startPayPalStandIn } from "../../../src/stand-ins/paypal/server.js";
import { type Account, type Harness, raw, startAccountHarness } from "../../support/account-api-harness.js";
import { givePayPalMonthly } from "../../support/paypal-gifts.js";

let h: Harness;
let paypal: PayPalStandIn;
let api: PayPalApi;
let donor: Account;
let other: Account;
let mine: { donationId: string; subId: string };
let theirs: { donationId: string; subId: string };

const paypalMonthly = (account: Account, amountCents: number) =>
  givePayPalMonthly(h.service.url, paypal, account, amountCents);

/** PayPal's event for a failed payment of `subId` at `time`: the subscription, with its last failed payment. */
async function failedEvent(subId: string, time: string, over: Record<string, unknown> = {}) {
  const sub = (await api.rest("GET", `/v1/billing/subscriptions/${subId}`)).body as Record<string, any>;
  return {
    id: `WH-${randomUUID()}`,
    event_version: "1.0",
    create_time: time,
    resource_type: "subscription",
    resource_version: "2.0",
    event_type: "BILLING.SUBSCRIPTION.PAYMENT.FAILED",
    summary: "Subscription payment failed",
    resource: {
      ...sub,
      ...over,
      billing_info: {
        ...sub.billing_info,
        failed_payments_count: 1,
        last_failed_payment: { amount: { currency_code: "AUD", value: "25.00" }, time, reason_code: "PAYMENT_DENIED" },
      },
    },
  };
}

const deliver = (body: string, headers: Record<string, string>) =>
  raw(`${h.service.url}/paypal/webhook`, "POST", { "content-type": "application/json", ...headers }, body);

const history = async (account: Account) =>
  (
    (await h.gql("{ donations { donationId totalCents status date } }", {}, account.access)).json.data.donations as {
      donationId: string;
      totalCents: number;
      status: string;
      date: string;
    }[]
  ).map((d) => [d.donationId, d.totalCents, d.status, d.date]);

beforeAll(async () => {
  h = await startAccountHarness();
  paypal = await startPayPalStandIn({ webhookUrl: `${h.service.url}/paypal/webhook`, webhookRetryDelaysMs: [20] });
  api = createPayPalApi({
    clientId: paypal.clientId,
    clientSecret: paypal.clientSecret,
    environment: "sandbox",
    webhookId: paypal.webhookId,
    apiBase: paypal.url,
  });
  h.service.deps.paypal = createSdkPayPal(api);
  h.service.deps.paypalApi = api;
  donor = await h.signUp("hana@example.com");
  other = await h.signUp("bilal@example.com");
  mine = await paypalMonthly(donor, 2_500);
  theirs = await paypalMonthly(other, 1_000);
}, 120_000);

afterAll(async () => {
  await h?.stop();
  await paypal?.stop();
});

describe("a PayPal subscription's failed payment", () => {
  it("an unsigned event, or a body other than the one PayPal signed, records nothing", async () => {
    const before = await history(donor);
    const event = JSON.stringify(await failedEvent(mine.subId, "2026-12-28T03:00:00Z"));
    expect((await deliver(event, {})).status).toBe(400);
    const signed = paypal.signWebhook(event);
    const tampered = event.replace('"25.00"', '"1.00"');
    expect((await deliver(tampered, signed)).status).toBe(400);
    expect(await history(donor)).toEqual(before);
  });

  it("an event naming another donor's donation with this subscription records nothing for either", async () => {
    const before = [await history(donor), await history(other)];
    const event = JSON.stringify(
      await failedEvent(mine.subId, "2026-12-28T03:00:00Z", { custom_id: theirs.donationId }),
    );
    expect((await deliver(event, paypal.signWebhook(event))).status).toBe(200);
    expect([await history(donor), await history(other)]).toEqual(before);
  });

  it("PayPal's verified event is a failed charge in the history, once however often it is sent", async () => {
    const event = JSON.stringify(await failedEvent(mine.subId, "2026-12-28T03:00:00Z"));
    expect((await deliver(event, paypal.signWebhook(event))).status).toBe(200);
    const replay = await deliver(event, paypal.signWebhook(event));
    expect(replay.status).toBe(200);
    expect(replay.json).toMatchObject({ duplicate: true });
    const rows = await history(donor);
    expect(rows.filter((r) => r[2] === "FAILED")).toEqual([[mine.donationId, 2_500, "FAILED", "2026-12-28"]]);
    // The first payment stays paid; the other donor's history has no failure.
    expect(rows.filter((r) => r[2] === "SUCCEEDED")).toHaveLength(1);
    expect((await history(other)).filter((r) => r[2] === "FAILED")).toEqual([]);
  });
});
