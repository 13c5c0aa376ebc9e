/**
 * The attacker's view of POST /stripe/webhook: only a body signed with the endpoint's secret within
 * five minutes changes anything, and each event changes it once however often it comes.
 */
import { randomUUID } from "node:crypto";
import Stripe from "stripe";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { donationRequest } from "../support/donation-request.js";
import {
  startTestPaymentsService,
  TEST_PUBLISHABLE_KEY,
  TEST_WEBHOOK_SECRET,
  type TestPaymentsService,
} from "../support/payments-service.js";

let service: TestPaymentsService;
beforeAll(async () => {
  service = await startTestPaymentsService();
});
afterAll(() => service?.stop());
beforeEach(() => service.reset());

async function paidDonation(): Promise<{ donationId: string; intentId: string }> {
  const res = await fetch(`${service.url}/donations`, {
    method: "POST",
    headers: { "Content-Type": "application/json", "Idempotency-Key": randomUUID() },
    body: JSON.stringify(donationRequest()),
  });
  const { donationId, clientSecret } = (await res.json()) as { donationId: string; clientSecret: string };
  const intentId = clientSecret.split("_secret_")[0]!;
  await fetch(`${service.stripe.url}/v1/payment_intents/${intentId}/confirm`, {
    method: "POST",
    headers: { "Content-Type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({
      key: TEST_PUBLISHABLE_KEY,
      client_secret: clientSecret,
      payment_method: "pm_card_visa",
    }),
  }).then((r) => r.text());
  await service.stripe.settled();
  return { donationId, intentId };
}

const sendRaw = (body: string, signature?: string) =>
  fetch(`${service.url}/stripe/webhook`, {
    method: "POST",
    headers: { "Content-Type": "application/json", ...(signature ? { "Stripe-Signature": signature } : {}) },
    body,
  });

describe("POST /stripe/webhook", () => {
  it("applies an event replayed 10 times once, and refuses a wrong signature and a 10-minute-old one", async () => {
    const { donationId, intentId } = await paidDonation();
    const succeeded = service.stripe
      .events()
      .find((e) => e.type === "payment_intent.succeeded" && (e.data.object as { id: string }).id === intentId)!;
    const updatesBefore = await service.db
      .selectFrom("donations")
      .select("updated_at")
      .where("id", "=", donationId)
      .executeTakeFirstOrThrow();

    const statuses: number[] = [];
    for (let i = 0; i < 10; i++) statuses.push(await service.stripe.redeliver(succeeded.id));
    statuses.push(await service.stripe.redeliver(succeeded.id, { signatureSecret: "whsec_SomeoneElse0123456789" }));
    statuses.push(await service.stripe.redeliver(succeeded.id, { timestamp: Math.floor(Date.now() / 1000) - 600 }));
    expect(statuses.filter((s) => s === 200)).toHaveLength(10);
    expect(statuses.filter((s) => s === 400)).toHaveLength(2);

    const seen = await service.db.selectFrom("stripe_events").selectAll().where("id", "=", succeeded.id).execute();
    expect(seen).toHaveLength(1);
    const after = await service.db
      .selectFrom("donations")
      .select(["status", "updated_at"])
      .where("id", "=", donationId)
      .executeTakeFirstOrThrow();
    expect(after.status).toBe("succeeded");
    expect(after.updated_at).toEqual(updatesBefore.updated_at);
    expect(await service.db.selectFrom("charges").selectAll().execute()).toHaveLength(1);
  });

  it("refuses unsigned and forged events without touching the donation", async () => {
    const res = await fetch(`${service.url}/donations`, {
      method: "POST",
      headers: { "Content-Type": "application/json", "Idempotency-Key": randomUUID() },
      body: JSON.stringify(donationRequest()),
    });
    const { donationId, clientSecret } = (await res.json()) as { donationId: string; clientSecret: string };
    const forged = JSON.stringify({
      id: "evt_forged",
      object: "event",
      type: "payment_intent.succeeded",
      data: {
        object: {
          id: clientSecret.split("_secret_")[0],
          object: "payment_intent",
          metadata: { donation_id: donationId },
        },
      },
    });
    expect((await sendRaw(forged)).status).toBe(400);
    expect((await sendRaw(forged, "t=1,v1=deadbeef")).status).toBe(400);
    const signedElsewhere = Stripe.webhooks.generateTestHeaderString({
      payload: forged,
      secret: "whsec_NotOurs0123456789",
    });
    expect((await sendRaw(forged, signedElsewhere)).status).toBe(400);
    // Signed correctly over another body: the body was changed on the way.
    const good = Stripe.webhooks.generateTestHeaderString({ payload: forged, secret: TEST_WEBHOOK_SECRET });
    expect((await sendRaw(forged.replace("evt_forged", "evt_forge2"), good)).status).toBe(400);
    const state = (await (await fetch(`${service.url}/donations/${donationId}`)).json()) as { status: string };
    expect(state.status).toBe("requires_payment_method");
    expect(
      await service.db.selectFrom("stripe_events").selectAll().where("id", "like", "evt_forge%").execute(),
    ).toEqual([]);
  });

  it("marks a refunded and a disputed gift from their signed events", async () => {
    const refunded = await paidDonation();
    const stripe = new Stripe("sk_test_51PaymentsServiceTest0123456789", {
      host: "127.0.0.1",
      port: Number(new URL(service.stripe.url).port),
      protocol: "http",
    });
    await stripe.refunds.create({ payment_intent: refunded.intentId });
    const disputed = await paidDonation();
    service.stripe.dispute(disputed.intentId);
    await service.stripe.settled();
    const status = async (id: string) =>
      (await service.db.selectFrom("donations").select("status").where("id", "=", id).executeTakeFirstOrThrow()).status;
    expect(await status(refunded.donationId)).toBe("refunded");
    expect(await status(disputed.donationId)).toBe("disputed");
  });
});
