import Stripe from "stripe";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Harness, PUBLISHABLE_KEY, SECRET_KEY, startHarness, stripeError } from "./harness.js";

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await h?.close();
});

const call = async (
  method: string,
  path: string,
  opts: { key?: string; body?: string; headers?: Record<string, string> } = {},
) => {
  const res = await fetch(`${h.standIn.url}${path}`, {
    method,
    headers: {
      ...(opts.key ? { authorization: `Bearer ${opts.key}` } : {}),
      ...(opts.body !== undefined ? { "content-type": "application/x-www-form-urlencoded" } : {}),
      ...opts.headers,
    },
    body: opts.body,
  });
  return { status: res.status, headers: res.headers, body: await res.json() };
};

describe("Stripe stand-in: what an attacker or a buggy caller gets", () => {
  it("a publishable key reaches only what Stripe.js uses", async () => {
    const customer = await h.stripe.customers.create({ email: "victim@example.org" });
    const pi = await h.stripe.paymentIntents.create({ amount: 1_000, currency: "aud", customer: customer.id });
    const refused = [
      ["GET", "/v1/customers"],
      ["GET", `/v1/customers/${customer.id}`],
      ["POST", `/v1/payment_intents/${pi.id}`],
      ["POST", `/v1/payment_intents/${pi.id}/cancel`],
      ["POST", "/v1/refunds"],
      ["POST", "/v1/subscriptions"],
      ["GET", "/v1/events"],
      ["GET", "/v1/invoices"],
    ] as const;
    for (const [method, path] of refused) {
      const res = await call(method, path, { key: PUBLISHABLE_KEY, body: method === "POST" ? "" : undefined });
      expect([path, res.status]).toEqual([path, 401]);
      expect(res.body.error.message).toContain("publishable API key");
    }
    // Retrieval needs the client secret, and shows neither customer nor metadata, even when expanded.
    const noSecret = await call("GET", `/v1/payment_intents/${pi.id}`, { key: PUBLISHABLE_KEY });
    expect(noSecret.body.error).toMatchObject({ code: "parameter_missing", param: "client_secret" });
    const q = new URLSearchParams({ client_secret: pi.client_secret!, "expand[]": "customer" });
    const seen = await call("GET", `/v1/payment_intents/${pi.id}?${q}`, { key: PUBLISHABLE_KEY });
    expect(seen.status).toBe(200);
    expect(seen.body.customer).toBeUndefined();
    expect(JSON.stringify(seen.body)).not.toContain("victim@example.org");
  });

  it("one intent's client secret does not confirm another", async () => {
    const a = await h.stripe.paymentIntents.create({ amount: 1_000, currency: "aud" });
    const b = await h.stripe.paymentIntents.create({ amount: 90_000, currency: "aud" });
    const res = await call("POST", `/v1/payment_intents/${b.id}/confirm`, {
      body: new URLSearchParams({
        key: PUBLISHABLE_KEY,
        client_secret: a.client_secret!,
        payment_method: "pm_card_visa",
      }).toString(),
    });
    expect(res.status).toBe(400);
    expect(res.body.error.param).toBe("client_secret");
    expect((await h.stripe.paymentIntents.retrieve(b.id)).status).toBe("requires_payment_method");
    const si = await h.stripe.setupIntents.create({});
    const crossed = await call("POST", `/v1/payment_intents/${si.id}/confirm`, {
      body: new URLSearchParams({
        key: PUBLISHABLE_KEY,
        client_secret: si.client_secret!,
        payment_method: "pm_card_visa",
      }).toString(),
    });
    expect(crossed.status).toBe(404);
  });

  it("a replayed decline is the same answer, not a second charge; a key on another endpoint is refused", async () => {
    const customer = await h.stripe.customers.create({ email: "replay@example.org" });
    const pm = await h.stripe.paymentMethods.attach("pm_card_chargeCustomerFail", { customer: customer.id });
    const params = {
      amount: 2_000,
      currency: "aud",
      customer: customer.id,
      payment_method: pm.id,
      off_session: true,
      confirm: true,
    };
    const first = await stripeError(h.stripe.paymentIntents.create(params, { idempotencyKey: "replay-decline" }));
    const second = await stripeError(h.stripe.paymentIntents.create(params, { idempotencyKey: "replay-decline" }));
    expect(first.statusCode).toBe(402);
    expect(second.statusCode).toBe(402);
    expect(second.headers?.["idempotent-replayed"]).toBe("true");
    expect(second.payment_intent?.id).toBe(first.payment_intent?.id);
    const charges = await h.stripe.charges.list({ payment_intent: first.payment_intent!.id });
    expect(charges.data).toHaveLength(1);
    const elsewhere = await stripeError(
      h.stripe.customers.create({ email: "x@example.org" }, { idempotencyKey: "replay-decline" }),
    );
    expect(elsewhere).toBeInstanceOf(Stripe.errors.StripeIdempotencyError);
  });

  it("concurrent creates with one key make one intent", async () => {
    const params = { amount: 3_000, currency: "aud", metadata: { donation: "don_race" } };
    const results = await Promise.all(
      Array.from({ length: 8 }, () => h.stripe.paymentIntents.create(params, { idempotencyKey: "race-key" })),
    );
    expect(new Set(results.map((r) => r.id)).size).toBe(1);
    const found = await h.stripe.paymentIntents.search({ query: "metadata['donation']:'don_race'" });
    expect(found.data).toHaveLength(1);
  });

  it("refuses bad versions, too much metadata, odd ids and search tricks, and stays up", async () => {
    const badVersion = await call("GET", "/v1/customers", {
      key: SECRET_KEY,
      headers: { "stripe-version": "latest; drop" },
    });
    expect(badVersion.status).toBe(400);
    const metadata = Object.fromEntries(Array.from({ length: 51 }, (_, i) => [`k${i}`, "v"]));
    const tooMany = await stripeError(h.stripe.customers.create({ metadata }));
    expect(tooMany.message).toContain("up to 50 keys");
    for (const id of ["%2e%2e", "cus_x%00", "..%2Fevents", "cus_" + "a".repeat(300)]) {
      const res = await call("GET", `/v1/customers/${id}`, { key: SECRET_KEY });
      expect([id, res.status]).toEqual([id, 404]);
    }
    const trick = await stripeError(h.stripe.customers.search({ query: "email:'a@example.org' OR 1=1" }));
    expect(trick.statusCode).toBe(400);
    const basic = await call("GET", "/v1/customers?limit=1", {
      headers: { authorization: `Basic ${Buffer.from(`${SECRET_KEY}:`).toString("base64")}` },
    });
    expect(basic.status).toBe(200);
    const found = await h.stripe.customers.search({ query: "email:'replay@example.org'" });
    expect(found.object).toBe("search_result");
    expect(found.data.map((c) => c.email)).toEqual(["replay@example.org"]);
  });

  it("ids and client secrets are long and random", async () => {
    const intents = await Promise.all(
      Array.from({ length: 20 }, () => h.stripe.paymentIntents.create({ amount: 1_000, currency: "aud" })),
    );
    for (const pi of intents) {
      expect(pi.id).toMatch(/^pi_[0-9A-Za-z]{24}$/);
      expect(pi.client_secret).toMatch(/^pi_[0-9A-Za-z]{24}_secret_[0-9A-Za-z]{25}$/);
    }
    expect(new Set(intents.map((pi) => pi.client_secret!.split("_secret_")[1])).size).toBe(20);
  });
});
