import Stripe from "stripe";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Harness, PUBLISHABLE_KEY, startHarness, stripeError, WEBHOOK_SECRET } from "./harness.js";

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await h?.close();
});

const typesFor = (id: string) =>
  h
    .verified()
    .filter((e) => (e.data.object as { id: string }).id === id)
    .map((e) => e.type);

describe("Stripe stand-in: 3-D Secure and webhook secrets", () => {
  it("a card that asks for 3-D Secure waits in requires_action until the cardholder answers", async () => {
    const pi = await h.stripe.paymentIntents.create({ amount: 8_000, currency: "aud" });
    const asked = await h.confirmAsStripeJs("payment_intents", pi.client_secret!, {
      "payment_method_data[type]": "card",
      "payment_method_data[card][number]": "4000002760003184",
    });
    expect(asked.status).toBe(200);
    expect(asked.body).toMatchObject({ status: "requires_action", next_action: { type: "use_stripe_sdk" } });

    // As a browser stand-in of Stripe.js would end the challenge.
    const res = await fetch(`${h.standIn.url}/__stand-in/authenticate`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ key: PUBLISHABLE_KEY, client_secret: pi.client_secret!, outcome: "succeed" }),
    });
    expect(res.status).toBe(200);
    expect((await res.json()).status).toBe("succeeded");
    await h.standIn.settled();
    expect(typesFor(pi.id)).toEqual([
      "payment_intent.created",
      "payment_intent.requires_action",
      "payment_intent.succeeded",
    ]);

    const failing = await h.stripe.paymentIntents.create({ amount: 8_000, currency: "aud" });
    await h.confirmAsStripeJs("payment_intents", failing.client_secret!, {
      payment_method: "pm_card_authenticationRequired",
    });
    const failed = await h.standIn.authenticate(failing.id, "fail");
    expect(failed).toMatchObject({
      status: "requires_payment_method",
      last_payment_error: { code: "payment_intent_authentication_failure" },
    });
    expect(typesFor(failing.id)).toContain("payment_intent.payment_failed");
  });

  it("off session, a card that always asks declines with authentication_required; one saved with 3-D Secure does not", async () => {
    const customer = await h.stripe.customers.create({ email: "sca@example.org" });
    const always = await h.stripe.paymentMethods.attach("pm_card_authenticationRequired", { customer: customer.id });
    const error = await stripeError(
      h.stripe.paymentIntents.create({
        amount: 2_000,
        currency: "aud",
        customer: customer.id,
        payment_method: always.id,
        off_session: true,
        confirm: true,
      }),
    );
    expect(error).toBeInstanceOf(Stripe.errors.StripeCardError);
    expect(error.code).toBe("authentication_required");

    const si = await h.stripe.setupIntents.create({ customer: customer.id });
    const asked = await h.confirmAsStripeJs("setup_intents", si.client_secret!, {
      payment_method: "pm_card_authenticationRequiredOnSetup",
    });
    expect(asked.body.status).toBe("requires_action");
    const saved = await h.standIn.authenticate(si.id, "succeed");
    expect(saved.status).toBe("succeeded");
    const later = await h.stripe.paymentIntents.create({
      amount: 2_000,
      currency: "aud",
      customer: customer.id,
      payment_method: saved.payment_method,
      off_session: true,
      confirm: true,
    });
    expect(later.status).toBe("succeeded");
  });

  it("while a webhook secret is rolled, deliveries verify with the old and the new one", async () => {
    h.standIn.setWebhookSecrets(["whsec_theNewSecret0002", WEBHOOK_SECRET]);
    const both = await h.stripe.customers.create({ email: "rolling@example.org" });
    // Signed when sent, as Stripe does: wait for it before rolling on.
    await h.standIn.settled();
    h.standIn.setWebhookSecrets(["whsec_theNewSecret0002"]);
    const onlyNew = await h.stripe.customers.create({ email: "rolled@example.org" });
    await h.standIn.settled();
    const outcome = (id: string) =>
      h.received
        .filter((r) => r.raw.includes(id))
        .map((r) => (r.event ? "verified" : "refused"))
        .at(0);
    // The receiver knows only the old secret.
    expect(outcome(both.id)).toBe("verified");
    expect(outcome(onlyNew.id)).toBe("refused");
    h.standIn.setWebhookSecrets([WEBHOOK_SECRET]);
  });
});

describe("Stripe stand-in: enabled events", () => {
  it("sends only the event types the endpoint enabled, and records all", async () => {
    const only = await startHarness({ standIn: { webhookEvents: ["payment_intent.succeeded"] } });
    try {
      const pi = await only.stripe.paymentIntents.create({ amount: 1_000, currency: "aud" });
      await only.confirmAsStripeJs("payment_intents", pi.client_secret!, { payment_method: "pm_card_visa" });
      await only.standIn.settled();
      expect(only.verified().map((e) => e.type)).toEqual(["payment_intent.succeeded"]);
      expect(only.standIn.events().map((e) => e.type)).toContain("payment_intent.created");
    } finally {
      await only.close();
    }
  });
});
