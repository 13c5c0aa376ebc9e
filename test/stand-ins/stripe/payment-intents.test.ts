import Stripe from "stripe";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { STAND_IN_API_VERSION } from "../../../src/stand-ins/stripe/index.js";
import { type Harness, PUBLISHABLE_KEY, startHarness, stripeError } from "./harness.js";

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await h?.close();
});

const eventsOf = (type: string, objectId: string) =>
  h.verified().filter((e) => e.type === type && (e.data.object as { id: string }).id === objectId);

describe("Stripe stand-in: customers and PaymentIntents through the real SDK", () => {
  it("speaks the API version the pinned SDK sends", async () => {
    expect(Stripe.API_VERSION).toBe(STAND_IN_API_VERSION);
    const customer = await h.stripe.customers.create({ email: "version@example.org" });
    expect(customer.lastResponse.headers["stripe-version"]).toBe(Stripe.API_VERSION);
    expect(h.standIn.requests().at(-1)).toMatchObject({ stripeVersion: Stripe.API_VERSION, status: 200 });
  });

  it("creates, retrieves, updates and lists customers by e-mail", async () => {
    const created = await h.stripe.customers.create({
      email: "donor@example.org",
      name: "A Donor",
      metadata: { source: "donation" },
    });
    expect(created.id).toMatch(/^cus_[A-Za-z0-9]{24}$/);
    expect(created).toMatchObject({ object: "customer", livemode: false, email: "donor@example.org" });
    expect(typeof created.created).toBe("number");
    const updated = await h.stripe.customers.update(created.id, { name: "A. Donor", metadata: { source: "" } });
    expect(updated.name).toBe("A. Donor");
    expect(updated.metadata).toEqual({});
    const list = await h.stripe.customers.list({ email: "donor@example.org" });
    expect(list.object).toBe("list");
    expect(list.data.map((c) => c.id)).toEqual([created.id]);
    expect((await h.stripe.customers.retrieve(created.id)).id).toBe(created.id);
  });

  it("replays a PaymentIntent create with the same Idempotency-Key and refuses the key with other params", async () => {
    const params = {
      amount: 10_000,
      currency: "aud",
      metadata: { fund: "zakat", donation: "don_1" },
      automatic_payment_methods: { enabled: true },
    };
    const first = await h.stripe.paymentIntents.create(params, { idempotencyKey: "donation-don_1-pi" });
    const second = await h.stripe.paymentIntents.create(params, { idempotencyKey: "donation-don_1-pi" });
    expect(second.id).toBe(first.id);
    expect(second.lastResponse.headers["idempotent-replayed"]).toBe("true");
    expect(first.lastResponse.headers["idempotent-replayed"]).toBeUndefined();
    const intents = await h.stripe.paymentIntents.list({ limit: 100 });
    expect(intents.data.filter((pi) => pi.metadata.donation === "don_1")).toHaveLength(1);

    const error = await stripeError(
      h.stripe.paymentIntents.create({ ...params, amount: 20_000 }, { idempotencyKey: "donation-don_1-pi" }),
    );
    expect(error).toBeInstanceOf(Stripe.errors.StripeIdempotencyError);
    expect(error.statusCode).toBe(400);
    expect(error.type).toBe("StripeIdempotencyError");
  });

  it("makes a PaymentIntent in Stripe's shape", async () => {
    const pi = await h.stripe.paymentIntents.create({
      amount: 5_250,
      currency: "aud",
      description: "Sadaqah",
      receipt_email: "donor@example.org",
      metadata: { fund: "sadaqah" },
    });
    expect(pi.id).toMatch(/^pi_/);
    expect(pi.client_secret).toMatch(new RegExp(`^${pi.id}_secret_[A-Za-z0-9]+$`));
    expect(pi).toMatchObject({
      object: "payment_intent",
      amount: 5_250,
      currency: "aud",
      status: "requires_payment_method",
      livemode: false,
      automatic_payment_methods: { enabled: true },
      metadata: { fund: "sadaqah" },
      latest_charge: null,
    });
  });

  it("confirms with pm_card_visa as Stripe.js does and sends a signed payment_intent.succeeded", async () => {
    const customer = await h.stripe.customers.create({ email: "visa@example.org" });
    const pi = await h.stripe.paymentIntents.create({
      amount: 10_000,
      currency: "aud",
      customer: customer.id,
      metadata: { fund: "sadaqah" },
    });
    const confirmed = await h.confirmAsStripeJs("payment_intents", pi.client_secret!, {
      payment_method: "pm_card_visa",
    });
    expect(confirmed.status).toBe(200);
    expect(confirmed.body.status).toBe("succeeded");
    // A publishable key sees no customer or metadata.
    expect(confirmed.body.customer).toBeUndefined();
    expect(confirmed.body.metadata).toBeUndefined();

    await h.standIn.settled();
    const [event] = eventsOf("payment_intent.succeeded", pi.id);
    expect(event).toBeDefined();
    const object = event!.data.object as Stripe.PaymentIntent;
    expect(object).toMatchObject({ status: "succeeded", amount_received: 10_000, metadata: { fund: "sadaqah" } });
    expect(event!.api_version).toBe(Stripe.API_VERSION);
    expect(eventsOf("charge.succeeded", object.latest_charge as string)).toHaveLength(1);

    const withCharge = await h.stripe.paymentIntents.retrieve(pi.id, { expand: ["latest_charge.balance_transaction"] });
    const charge = withCharge.latest_charge as Stripe.Charge;
    expect(charge.payment_method_details?.card).toMatchObject({ last4: "4242", brand: "visa" });
    expect(charge).toMatchObject({ paid: true, status: "succeeded", amount: 10_000, payment_intent: pi.id });
    const txn = charge.balance_transaction as Stripe.BalanceTransaction;
    expect(txn.fee).toBe(200);
    expect(txn.net).toBe(9_800);
  });

  it("declines pm_card_chargeDeclined: 402 card_error, back to requires_payment_method, payment_failed sent", async () => {
    const pi = await h.stripe.paymentIntents.create({ amount: 2_000, currency: "aud" });
    const declined = await h.confirmAsStripeJs("payment_intents", pi.client_secret!, {
      payment_method: "pm_card_chargeDeclined",
    });
    expect(declined.status).toBe(402);
    expect(declined.body.error).toMatchObject({
      type: "card_error",
      code: "card_declined",
      decline_code: "generic_decline",
      doc_url: "https://stripe.com/docs/error-codes/card-declined",
    });
    expect(declined.body.error.payment_intent.status).toBe("requires_payment_method");

    const after = await h.stripe.paymentIntents.retrieve(pi.id);
    expect(after.status).toBe("requires_payment_method");
    expect(after.last_payment_error).toMatchObject({ type: "card_error", code: "card_declined" });
    await h.standIn.settled();
    expect(eventsOf("payment_intent.payment_failed", pi.id)).toHaveLength(1);
    expect(eventsOf("payment_intent.succeeded", pi.id)).toHaveLength(0);

    // The donor tries another card: the same intent succeeds.
    const retried = await h.confirmAsStripeJs("payment_intents", pi.client_secret!, {
      "payment_method_data[type]": "card",
      "payment_method_data[card][number]": "4242424242424242",
      "payment_method_data[card][exp_month]": "12",
      "payment_method_data[card][exp_year]": "2034",
      "payment_method_data[card][cvc]": "123",
    });
    expect(retried.body.status).toBe("succeeded");
  });

  it("refuses a publishable-key confirm without the right client secret, and publishable keys elsewhere", async () => {
    const pi = await h.stripe.paymentIntents.create({ amount: 2_000, currency: "aud" });
    const wrong = await h.confirmAsStripeJs("payment_intents", `${pi.id}_secret_guessed`, {
      payment_method: "pm_card_visa",
    });
    expect(wrong.status).toBe(400);
    expect(wrong.body.error.param).toBe("client_secret");
    const pk = new Stripe(PUBLISHABLE_KEY, {
      host: new URL(h.standIn.url).hostname,
      port: Number(new URL(h.standIn.url).port),
      protocol: "http",
      maxNetworkRetries: 0,
    });
    const error = await stripeError(pk.paymentIntents.create({ amount: 2_000, currency: "aud" }));
    expect(error).toBeInstanceOf(Stripe.errors.StripeAuthenticationError);
    expect(error.message).toContain("publishable API key");
    expect((await h.stripe.paymentIntents.retrieve(pi.id)).status).toBe("requires_payment_method");
  });

  it("charges a saved card off session, and fails with card_declined for a card that declines later", async () => {
    const customer = await h.stripe.customers.create({ email: "saved@example.org" });
    const good = await h.stripe.paymentMethods.attach("pm_card_visa", { customer: customer.id });
    expect(good.customer).toBe(customer.id);
    const paid = await h.stripe.paymentIntents.create({
      amount: 3_000,
      currency: "aud",
      customer: customer.id,
      payment_method: good.id,
      off_session: true,
      confirm: true,
    });
    expect(paid.status).toBe("succeeded");

    const failing = await h.stripe.paymentMethods.attach("pm_card_chargeCustomerFail", { customer: customer.id });
    const error = await stripeError(
      h.stripe.paymentIntents.create({
        amount: 3_000,
        currency: "aud",
        customer: customer.id,
        payment_method: failing.id,
        off_session: true,
        confirm: true,
      }),
    );
    expect(error).toBeInstanceOf(Stripe.errors.StripeCardError);
    expect(error.code).toBe("card_declined");
    const failedIntent = (error.raw as { payment_intent: Stripe.PaymentIntent }).payment_intent;
    expect(failedIntent.status).toBe("requires_payment_method");
    const listed = await h.stripe.paymentMethods.list({ customer: customer.id, type: "card" });
    expect(listed.data.map((pm) => pm.card?.last4).sort()).toEqual(["0341", "4242"]);
  });

  it("updates amount and metadata before payment, refuses the amount after, cancels what is unpaid", async () => {
    const pi = await h.stripe.paymentIntents.create({ amount: 1_000, currency: "aud", metadata: { a: "1" } });
    const updated = await h.stripe.paymentIntents.update(pi.id, { amount: 1_500, metadata: { b: "2" } });
    expect(updated).toMatchObject({ amount: 1_500, metadata: { a: "1", b: "2" } });
    const canceled = await h.stripe.paymentIntents.cancel(pi.id, { cancellation_reason: "abandoned" });
    expect(canceled).toMatchObject({ status: "canceled", cancellation_reason: "abandoned" });

    const paid = await h.stripe.paymentIntents.create({ amount: 1_000, currency: "aud" });
    await h.confirmAsStripeJs("payment_intents", paid.client_secret!, { payment_method: "pm_card_visa" });
    const error = await stripeError(h.stripe.paymentIntents.update(paid.id, { amount: 2_000 }));
    expect(error.code).toBe("payment_intent_unexpected_state");
    expect((await h.stripe.paymentIntents.update(paid.id, { metadata: { note: "ok" } })).metadata.note).toBe("ok");
    const cancelPaid = await stripeError(h.stripe.paymentIntents.cancel(paid.id));
    expect(cancelPaid.code).toBe("payment_intent_unexpected_state");
    const again = await h.confirmAsStripeJs("payment_intents", paid.client_secret!, { payment_method: "pm_card_visa" });
    expect(again.status).toBe(400);
    expect(again.body.error.code).toBe("payment_intent_unexpected_state");
  });

  it("answers bad parameters with Stripe's codes and params", async () => {
    const missing = await stripeError(h.stripe.paymentIntents.create({ currency: "aud" } as never));
    expect(missing).toMatchObject({ statusCode: 400, code: "parameter_missing", param: "amount" });
    const unknown = await stripeError(
      h.stripe.paymentIntents.create({ amount: 1_000, currency: "aud", amont: 5 } as never),
    );
    expect(unknown).toMatchObject({ code: "parameter_unknown", param: "amont" });
    const notInt = await stripeError(h.stripe.paymentIntents.create({ amount: "ten" as never, currency: "aud" }));
    expect(notInt).toMatchObject({ code: "parameter_invalid_integer", param: "amount" });
    const small = await stripeError(h.stripe.paymentIntents.create({ amount: 49, currency: "aud" }));
    expect(small).toMatchObject({ code: "amount_too_small", param: "amount" });
    const big = await stripeError(h.stripe.paymentIntents.create({ amount: 100_000_000, currency: "aud" }));
    expect(big).toMatchObject({ code: "amount_too_large" });
    const noCustomer = await stripeError(
      h.stripe.paymentIntents.create({ amount: 1_000, currency: "aud", customer: "cus_nothere" }),
    );
    expect(noCustomer).toMatchObject({ statusCode: 404, code: "resource_missing", param: "customer" });
    const noIntent = await stripeError(h.stripe.paymentIntents.retrieve("pi_nothere"));
    expect(noIntent).toMatchObject({ statusCode: 404, code: "resource_missing" });
    expect(noIntent.message).toBe("No such payment_intent: 'pi_nothere'");
    const longMeta = await stripeError(
      h.stripe.paymentIntents.create({ amount: 1_000, currency: "aud", metadata: { k: "x".repeat(501) } }),
    );
    expect(longMeta.statusCode).toBe(400);
    const badExpand = await stripeError(h.stripe.customers.create({ expand: ["nothing"] }));
    expect(badExpand.message).toContain("cannot be expanded");
    const offNoConfirm = await stripeError(
      h.stripe.paymentIntents.create({ amount: 1_000, currency: "aud", off_session: true }),
    );
    expect(offNoConfirm.param).toBe("off_session");
  });

  it("refuses missing, wrong and live keys with a 401 in Stripe's shape", async () => {
    const noKey = await fetch(`${h.standIn.url}/v1/customers`);
    expect(noKey.status).toBe(401);
    expect((await noKey.json()).error.message).toContain("did not provide an API key");
    const live = await fetch(`${h.standIn.url}/v1/customers`, {
      headers: { authorization: "Bearer sk_live_abcdefghijklmnop" },
    });
    expect(live.status).toBe(401);
    const { sdkFor } = await import("./harness.js");
    const wrong = await stripeError(sdkFor(h.standIn.url, "sk_nonsense").customers.list());
    expect(wrong).toBeInstanceOf(Stripe.errors.StripeAuthenticationError);
    expect(wrong.message).toMatch(/^Invalid API Key provided: /);
    const unknownUrl = await fetch(`${h.standIn.url}/v1/nothing`, {
      headers: { authorization: "Bearer sk_test_abcdefgh1" },
    });
    expect(unknownUrl.status).toBe(404);
    expect((await unknownUrl.json()).error.message).toContain("Unrecognized request URL");
  });

  it("signs webhooks so constructEvent accepts them, and refuses a forged or stale redelivery", async () => {
    const pi = await h.stripe.paymentIntents.create({ amount: 1_234, currency: "aud" });
    await h.standIn.settled();
    const created = h.standIn.events().find((e) => e.type === "payment_intent.created" && e.data.object.id === pi.id)!;
    expect(h.standIn.deliveries().find((d) => d.eventId === created.id)?.status).toBe(200);
    expect(await h.standIn.redeliver(created.id, { signatureSecret: "whsec_forged" })).toBe(400);
    expect(h.received.at(-1)?.error).toContain("No signatures found matching the expected signature");
    const tenMinutesAgo = Math.floor(Date.now() / 1000) - 600;
    expect(await h.standIn.redeliver(created.id, { timestamp: tenMinutesAgo })).toBe(400);
    expect(h.received.at(-1)?.error).toContain("Timestamp outside the tolerance zone");
    expect(await h.standIn.redeliver(created.id)).toBe(200);
    // The event is also readable from the API.
    const fetched = await h.stripe.events.retrieve(created.id);
    expect(fetched).toMatchObject({ id: created.id, type: "payment_intent.created" });
  });

  it("retries a webhook the endpoint failed, recording every attempt", async () => {
    await h.standIn.settled(); // so the two failures fall on this test's event
    h.failNext(2);
    const customer = await h.stripe.customers.create({ email: "retry@example.org" });
    await h.standIn.settled();
    const event = h.standIn.events().find((e) => e.type === "customer.created" && e.data.object.id === customer.id)!;
    const attempts = h.standIn.deliveries().filter((d) => d.eventId === event.id);
    expect(attempts.map((a) => a.status)).toEqual([500, 500, 200]);
  });

  it("stays up on hostile input", async () => {
    const post = (body: string, type = "application/x-www-form-urlencoded") =>
      fetch(`${h.standIn.url}/v1/customers`, {
        method: "POST",
        headers: { authorization: "Bearer sk_test_abcdefgh1", "content-type": type },
        body,
      });
    expect((await post("a".repeat(300 * 1024))).status).toBe(413);
    expect((await post('{"email":"x@example.org"}', "application/json")).status).toBe(400);
    expect((await post("metadata[a][b][c][d][e][f][g][h][i]=1")).status).toBe(400);
    expect((await post("email=%E0%A4%A")).status).toBe(400);
    const proto = await post("__proto__[polluted]=1&metadata[__proto__]=x");
    expect(proto.status).toBe(400);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect((await post("expand[]=a.b.c.d.e")).status).toBe(400);
    const ok = await post("email=still%40example.org");
    expect(ok.status).toBe(200);
  });
});
