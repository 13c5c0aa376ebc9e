/**
 * POST /donations and GET /donations/{id} on the real service (PGlite) with the Stripe stand-in:
 * what is asked of Stripe, idempotency stored in the database, and "paid" only by the signed webhook.
 */
import { randomUUID } from "node:crypto";
import Stripe from "stripe";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { donationRequest } from "../support/donation-request.js";
import {
  startTestPaymentsService,
  TEST_PUBLISHABLE_KEY,
  TEST_SECRET_KEY,
  type TestPaymentsService,
} from "../support/payments-service.js";

let service: TestPaymentsService;
beforeAll(async () => {
  service = await startTestPaymentsService();
});
afterAll(() => service?.stop());
beforeEach(() => service.reset());

const post = (body: unknown, key: string = randomUUID(), headers: Record<string, string> = {}) =>
  fetch(`${service.url}/donations`, {
    method: "POST",
    headers: { "Content-Type": "application/json", "Idempotency-Key": key, ...headers },
    body: typeof body === "string" ? body : JSON.stringify(body),
  });

/** What Stripe.js does when the donor presses Give: confirm with the publishable key and a test card. */
async function confirmInBrowser(clientSecret: string, card = "pm_card_visa"): Promise<number> {
  const id = clientSecret.split("_secret_")[0]!;
  const kind = id.startsWith("seti_") ? "setup_intents" : "payment_intents";
  const res = await fetch(`${service.stripe.url}/v1/${kind}/${id}/confirm`, {
    method: "POST",
    headers: { "Content-Type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ key: TEST_PUBLISHABLE_KEY, client_secret: clientSecret, payment_method: card }),
  });
  await res.text();
  return res.status;
}

const stateOf = async (id: string) =>
  (await (await fetch(`${service.url}/donations/${id}`)).json()) as { status: string };

describe("POST /donations", () => {
  it("makes one PaymentIntent in AUD cents with the fee and fund in its metadata, keyed by the donation", async () => {
    const res = await post(donationRequest({ fund: "sadaqah", amountCents: 10_000, coverFees: true }));
    expect(res.status).toBe(201);
    const created = (await res.json()) as {
      donationId: string;
      clientSecret: string;
      totalCents: number;
      feeCents: number;
    };
    expect(created.totalCents).toBe(10_204);
    expect(created.clientSecret).toMatch(/^pi_\w+_secret_\w+$/);
    const stripe = new Stripe(TEST_SECRET_KEY, {
      host: "127.0.0.1",
      port: Number(new URL(service.stripe.url).port),
      protocol: "http",
    });
    const intent = await stripe.paymentIntents.retrieve(created.clientSecret.split("_secret_")[0]!);
    expect(intent).toMatchObject({
      amount: 10_204,
      currency: "aud",
      automatic_payment_methods: { enabled: true },
      metadata: { donation_id: created.donationId, fund: "sadaqah", fee_cents: "204", amount_cents: "10000" },
    });
    expect(intent.setup_future_usage).toBeNull();
    const posts = service.stripe.requests().filter((r) => r.method === "POST" && r.idempotencyKey?.startsWith("don_"));
    expect(posts.length).toBeGreaterThanOrEqual(2);
    for (const r of posts) expect(r.idempotencyKey, r.path).toContain(created.donationId);
  });

  it("replays the stored answer byte for byte, marked, and refuses the key with another body", async () => {
    const key = randomUUID();
    const first = await post(donationRequest(), key);
    const text = await first.text();
    const again = await post(donationRequest(), key);
    expect(again.status).toBe(201);
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect(await again.text()).toBe(text);
    const other = await post(donationRequest({ amountCents: 6000 }), key);
    expect(other.status).toBe(409);
    expect(((await other.json()) as { error: { code: string } }).error.code).toBe("idempotency_key_reused");
    expect(await service.donationCount()).toBe(1);
    expect(
      service.stripe
        .requests()
        .filter((r) => r.path === "/v1/payment_intents" && r.idempotencyKey?.startsWith(JSON.parse(text).donationId))
        .length,
    ).toBe(1);
  });

  it("makes one Stripe customer per donor e-mail", async () => {
    const before = service.stripe.requests().filter((r) => r.method === "POST" && r.path === "/v1/customers").length;
    await post(donationRequest());
    await post(
      donationRequest({ amountCents: 7000, donor: { ...donationRequest().donor, email: "AISHA@example.com" } }),
    );
    expect(service.stripe.requests().filter((r) => r.method === "POST" && r.path === "/v1/customers").length).toBe(
      before + 1,
    );
  });

  it("gives a donor whose stored customer Stripe no longer has a new one, and the gift goes ahead", async () => {
    // As after a customer is deleted in the Dashboard, or a test-mode customer met live keys.
    const first = (await (await post(donationRequest())).json()) as { clientSecret: string };
    const stripe = new Stripe(TEST_SECRET_KEY, {
      host: "127.0.0.1",
      port: Number(new URL(service.stripe.url).port),
      protocol: "http",
    });
    const stale = (await stripe.paymentIntents.retrieve(first.clientSecret.split("_secret_")[0]!)).customer as string;
    await stripe.customers.del(stale);
    const second = await post(donationRequest({ amountCents: 7000 }));
    expect(second.status).toBe(201);
    const { clientSecret } = (await second.json()) as { clientSecret: string };
    const fresh = (await stripe.paymentIntents.retrieve(clientSecret.split("_secret_")[0]!)).customer as string;
    expect(fresh).toMatch(/^cus_/);
    expect(fresh).not.toBe(stale);
    expect(await confirmInBrowser(clientSecret)).toBe(200);
    // The next gift uses the new customer: no third customer.
    const customers = () => service.stripe.requests().filter((r) => r.method === "POST" && r.path === "/v1/customers");
    const made = customers().length;
    const third = (await (await post(donationRequest({ amountCents: 6000 }))).json()) as { clientSecret: string };
    expect((await stripe.paymentIntents.retrieve(third.clientSecret.split("_secret_")[0]!)).customer).toBe(fresh);
    expect(customers().length).toBe(made);
  });

  it("refuses bad bodies with the contract's codes and stores nothing", async () => {
    const stripeCalls = service.stripe.requests().length;
    const cases: [unknown, number, string][] = [
      ["{", 400, "invalid_json"],
      [donationRequest({ amountCents: 500 }), 400, "validation_failed"],
      [donationRequest({ fund: "nope" as "zakat" }), 400, "validation_failed"],
      [{ ...donationRequest(), amountCents: "5000" }, 400, "validation_failed"],
    ];
    for (const [body, status, code] of cases) {
      const res = await post(body);
      expect(res.status, JSON.stringify(body)).toBe(status);
      expect(((await res.json()) as { error: { code: string } }).error.code).toBe(code);
    }
    const noKey = await fetch(`${service.url}/donations`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: "{}",
    });
    expect(noKey.status).toBe(400);
    const badKey = await post(donationRequest(), "not-a-uuid");
    expect(((await badKey.json()) as { error: { code: string } }).error.code).toBe("idempotency_key_invalid");
    const text = await fetch(`${service.url}/donations`, {
      method: "POST",
      headers: { "Idempotency-Key": randomUUID(), "Content-Type": "text/plain" },
      body: "{}",
    });
    expect(text.status).toBe(415);
    const big = await post({ ...donationRequest(), dedication: "x".repeat(20_000) });
    expect(big.status).toBe(413);
    expect(await service.donationCount()).toBe(0);
    expect(service.stripe.requests().length).toBe(stripeCalls);
  });

  it("is paid only when the signed payment_intent.succeeded arrives", async () => {
    const created = (await (await post(donationRequest())).json()) as { donationId: string; clientSecret: string };
    expect((await stateOf(created.donationId)).status).toBe("requires_payment_method");
    expect(await confirmInBrowser(created.clientSecret)).toBe(200);
    await service.stripe.settled();
    expect((await stateOf(created.donationId)).status).toBe("succeeded");
    const charges = await service.db.selectFrom("charges").selectAll().execute();
    expect(charges.map((c) => c.amount_cents)).toEqual([5000]);
  });

  it("keeps a declined card's donation payable, and saves a card for a schedule that starts later", async () => {
    const created = (await (await post(donationRequest())).json()) as { donationId: string; clientSecret: string };
    expect(await confirmInBrowser(created.clientSecret, "pm_card_chargeDeclined")).toBe(402);
    await service.stripe.settled();
    expect((await stateOf(created.donationId)).status).toBe("requires_payment_method");

    // Weekly from the next Friday: on any other day the first charge is later, so a SetupIntent.
    const weekly = (await (
      await post(donationRequest({ fund: "jumuah-giving", frequency: "weekly-friday" }))
    ).json()) as { donationId: string; clientSecret: string; intentType: string };
    if (weekly.intentType === "setup") {
      expect(weekly.clientSecret).toMatch(/^seti_/);
      expect(await confirmInBrowser(weekly.clientSecret)).toBe(200);
      await service.stripe.settled();
      expect((await stateOf(weekly.donationId)).status).toBe("succeeded");
    }
  });

  it("answers 404 for an unknown donation, 405 with Allow for a wrong method, CORS only for the site", async () => {
    const unknown = await fetch(`${service.url}/donations/don_000000000000000000000000`);
    expect(unknown.status).toBe(404);
    const wrong = await fetch(`${service.url}/donations`, { method: "PUT" });
    expect(wrong.status).toBe(405);
    expect(wrong.headers.get("allow")).toContain("POST");
    const ok = await fetch(`${service.url}/donations`, {
      method: "OPTIONS",
      headers: { Origin: "http://127.0.0.1:4321" },
    });
    expect(ok.status).toBe(204);
    expect(ok.headers.get("access-control-allow-origin")).toBe("http://127.0.0.1:4321");
    expect(ok.headers.get("access-control-allow-headers")).toContain("Idempotency-Key");
    const evil = await fetch(`${service.url}/donations`, {
      method: "OPTIONS",
      headers: { Origin: "https://evil.example" },
    });
    expect(evil.status).toBe(403);
    expect(evil.headers.get("access-control-allow-origin")).toBeNull();
    expect(unknown.headers.get("cache-control")).toBe("no-store");
  });
});
