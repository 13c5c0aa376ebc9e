import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { createPaymentsClient, type PaymentsClient } from "../../src/payments/client.js";
import { CLIENT_LIMITS } from "../../src/payments/client-limits.js";
import {
  DONOR_MESSAGES,
  PaymentsApiError,
  PaymentsNetworkError,
  PaymentsTimeoutError,
} from "../../src/payments/errors.js";
import { createAttemptKeys, newIdempotencyKey } from "../../src/payments/idempotency.js";
import {
  startTestPaymentsService,
  TEST_PUBLISHABLE_KEY,
  TEST_SECRET_KEY,
  type TestPaymentsService,
} from "../support/payments-service.js";
import { donationRequest, TEST_DONOR } from "../support/donation-request.js";
import { setServiceClock } from "../support/service-clock.js";

// The client's time limit as a copy this file may shorten for one test (read as each client is made).
vi.mock("../../src/payments/client-limits.js", async (importOriginal) => {
  const { CLIENT_LIMITS } = await importOriginal<typeof import("../../src/payments/client-limits.js")>();
  return { CLIENT_LIMITS: { ...CLIENT_LIMITS } };
});
const PRODUCTION_TIMEOUT_MS = CLIENT_LIMITS.timeoutMs;

// Midday on Wednesday 5 March 2025 in Sydney.
const now = () => new Date("2025-03-05T01:00:00Z");
const SITE = "http://127.0.0.1:8080";
const donor = TEST_DONOR;
const gift = donationRequest;

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error("expected the promise to reject");
}

let server: TestPaymentsService;
let client: PaymentsClient;
beforeEach(async () => {
  await setServiceClock(now);
  server = await startTestPaymentsService({ allowedOrigin: [SITE] });
  // Ramadan as the content would give it (the seasons' dates are read when a gift is checked).
  server.deps.seasons = { ramadan: { start: "2025-02-28", length: 30 } };
  await server.reset();
  client = createPaymentsClient({ baseUrl: server.url + "/" });
});
afterEach(() => server.stop());

const posts = () => server.requests.filter((r) => r.method === "POST" && r.path === "/donations");

describe("creating a donation", () => {
  it("returns the reference, a payment intent secret, the fee and the schedule", async () => {
    const created = await client.createDonation(gift({ amountCents: 1000, coverFees: true }), newIdempotencyKey());
    expect(created).toMatchObject({
      intentType: "payment",
      currency: "AUD",
      frequency: "once",
      amountCents: 1000,
      feeCents: 48,
      totalCents: 1048,
      schedule: [{ date: "2025-03-05", amountCents: 1048 }],
      openEnded: false,
      scheduleTotalCents: 1048,
    });
    expect(created.clientSecret).toMatch(/^pi_\w+_secret_\w+$/);
    expect(created.reference).toMatch(/^NZF-[0-9A-HJKMNP-TV-Z]{4}-[0-9A-HJKMNP-TV-Z]{4}$/);
  });

  it("saves the card (setup intent) when Jumuah giving starts on the coming Friday", async () => {
    const created = await client.createDonation(
      gift({ fund: "jumuah-giving", frequency: "weekly-friday" }),
      newIdempotencyKey(),
    );
    expect(created.intentType).toBe("setup");
    expect(created.clientSecret).toMatch(/^seti_\w+_secret_/);
    expect(created.schedule[0]).toEqual({ date: "2025-03-07", amountCents: 5000 });
    expect(created.openEnded).toBe(true);
  });

  it("the same key twice makes one donation and the identical answer", async () => {
    const key = newIdempotencyKey();
    const first = await client.createDonation(gift(), key);
    const second = await client.createDonation(gift(), key);
    expect(second).toEqual(first);
    expect(await server.donationCount()).toBe(1);
    expect(posts().map((r) => r.replayed)).toEqual([false, true]);
  });

  it("a double click sends one request", async () => {
    const keys = createAttemptKeys();
    const body = gift();
    const [a, b] = await Promise.all([
      client.createDonation(body, keys.keyFor(body)),
      client.createDonation({ ...body }, keys.keyFor({ ...body })),
    ]);
    expect(a).toBe(b);
    expect(posts()).toHaveLength(1);
    expect(await server.donationCount()).toBe(1);
  });

  it("a changed gift gets a new key; the same key with another body is refused with 409", async () => {
    const keys = createAttemptKeys();
    const k1 = keys.keyFor(gift());
    expect(keys.keyFor(gift({ amountCents: 6000 }))).not.toBe(k1);
    await client.createDonation(gift(), k1);
    const error = await rejection(client.createDonation(gift({ amountCents: 6000 }), k1));
    expect(error).toBeInstanceOf(PaymentsApiError);
    expect(error).toMatchObject({ status: 409, code: "idempotency_key_reused" });
    expect(await server.donationCount()).toBe(1);
  });

  it("a kept attempt gives the same key after a reload for the same gift, and keeps no donor details", async () => {
    const kept = new Map<string, string>();
    const store = {
      load: () => (kept.has("a") ? JSON.parse(kept.get("a")!) : null),
      save: (attempt: unknown) => (attempt ? kept.set("a", JSON.stringify(attempt)) : kept.delete("a")),
    };
    const k1 = createAttemptKeys(undefined, store).keyFor(gift());
    // The page reloaded: new keys from what was kept.
    const again = createAttemptKeys(undefined, store);
    expect(again.keyFor(gift())).toBe(k1);
    const first = await client.createDonation(gift(), k1);
    expect(await client.createDonation(gift(), again.keyFor(gift()))).toEqual(first);
    expect(await server.donationCount()).toBe(1);
    expect(kept.get("a")).not.toContain(donor.email);
    // Another gift after the reload: a new key; reset forgets the attempt.
    expect(again.keyFor(gift({ amountCents: 6000 }))).not.toBe(k1);
    again.reset();
    expect(kept.has("a")).toBe(false);
  });

  it("a validation error names the field and says what to fix", async () => {
    const error = await rejection(
      client.createDonation(gift({ amountCents: 500, donor: { ...donor, email: "nope" } }), newIdempotencyKey()),
    );
    expect(error).toMatchObject({
      status: 400,
      code: "validation_failed",
      field: "amount",
      message: "The minimum gift is $10.",
    });
    expect((error as PaymentsApiError).fields.map((f) => f.field)).toEqual(["amount", "donor.email"]);
  });

  it("out-of-date season dates are refused with 422", async () => {
    const error = await rejection(
      client.createDonation(
        gift({ fund: "ramadan", frequency: "ramadan-last-ten", season: { start: "2025-03-01", length: 30 } }),
        newIdempotencyKey(),
      ),
    );
    expect(error).toMatchObject({ status: 422, code: "season_mismatch", field: "season" });
  });
});

describe("when the payments API fails", () => {
  it("a 500 is a PaymentsApiError a donor can read, and retrying the same key then works once", async () => {
    server.injectFault({ status: 500 });
    const key = newIdempotencyKey();
    const error = await rejection(client.createDonation(gift(), key));
    expect(error).toBeInstanceOf(PaymentsApiError);
    expect(error).toMatchObject({
      status: 500,
      code: "internal_error",
      retryable: true,
      message: DONOR_MESSAGES.server,
    });
    await client.createDonation(gift(), key);
    expect(await server.donationCount()).toBe(1);
  });

  it("a proxy's HTML error page still becomes a readable error", async () => {
    server.injectFault({ status: 502, rawBody: "<html>Bad Gateway</html>" });
    const error = await rejection(client.createDonation(gift(), newIdempotencyKey()));
    expect(error).toMatchObject({ status: 502, code: "http_502", message: DONOR_MESSAGES.server });
  });

  it("429 carries Retry-After", async () => {
    server.injectFault({ status: 429 });
    expect(await rejection(client.getDonation("don_x"))).toMatchObject({
      status: 429,
      code: "rate_limited",
      retryAfterSeconds: 60,
    });
  });

  it("a slow answer times out; the retry with the same key gets the donation the slow request made", async () => {
    CLIENT_LIMITS.timeoutMs = 150;
    const impatient = createPaymentsClient({ baseUrl: server.url });
    CLIENT_LIMITS.timeoutMs = PRODUCTION_TIMEOUT_MS;
    server.injectFault({ delayMs: 600 });
    const key = newIdempotencyKey();
    const error = await rejection(impatient.createDonation(gift(), key));
    expect(error).toBeInstanceOf(PaymentsTimeoutError);
    expect((error as Error).message).toBe(
      "Our payment service took too long to answer. Nothing was charged. Please try again.",
    );
    // The server finishes the work after the client gave up.
    for (let i = 0; i < 100 && posts().length === 0; i++) await new Promise((r) => setTimeout(r, 50));
    expect(await server.donationCount()).toBe(1);
    await impatient.createDonation(gift(), key);
    expect(await server.donationCount()).toBe(1);
    expect(posts().at(-1)!.replayed).toBe(true);
  });

  it("an unreachable API is a network error that says nothing was charged", async () => {
    const gone = await startTestPaymentsService();
    await gone.stop();
    const error = await rejection(
      createPaymentsClient({ baseUrl: gone.url }).createDonation(gift(), newIdempotencyKey()),
    );
    expect(error).toBeInstanceOf(PaymentsNetworkError);
    expect((error as Error).message).toBe(
      "We could not reach our payment service. Nothing was charged. Please try again.",
    );
  });
});

describe("the thank-you page's status", () => {
  it("starts as requires_payment_method and follows the signed webhooks of the Stripe stand-in", async () => {
    const created = await client.createDonation(gift(), newIdempotencyKey());
    expect(await client.getDonation(created.donationId)).toMatchObject({
      status: "requires_payment_method",
      reference: created.reference,
      totalCents: 5000,
      fund: "zakat",
    });
    // Cancelled at Stripe (the secret key's call): its signed event makes the donation failed.
    const intentId = created.clientSecret.split("_secret_")[0]!;
    const cancelled = await fetch(`${server.stripe.url}/v1/payment_intents/${intentId}/cancel`, {
      method: "POST",
      headers: { Authorization: `Bearer ${TEST_SECRET_KEY}` },
    });
    expect(cancelled.status).toBe(200);
    await server.stripe.settled();
    expect((await client.getDonation(created.donationId)).status).toBe("failed");
    // Another gift, paid in the browser with the publishable key: succeeded.
    const paid = await client.createDonation(gift({ amountCents: 6000 }), newIdempotencyKey());
    await fetch(`${server.stripe.url}/v1/payment_intents/${paid.clientSecret.split("_secret_")[0]}/confirm`, {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({
        key: TEST_PUBLISHABLE_KEY,
        client_secret: paid.clientSecret,
        payment_method: "pm_card_visa",
      }),
    }).then((r) => r.text());
    await server.stripe.settled();
    expect((await client.getDonation(paid.donationId)).status).toBe("succeeded");
  });

  it("an unknown donation is a 404", async () => {
    expect(await rejection(client.getDonation("don_missing"))).toMatchObject({ status: 404, code: "not_found" });
  });
});

describe("the HTTP surface", () => {
  it("answers the CORS preflight for the site's origin only", async () => {
    const preflight = (origin: string) =>
      fetch(`${server.url}/donations`, {
        method: "OPTIONS",
        headers: {
          Origin: origin,
          "Access-Control-Request-Method": "POST",
          "Access-Control-Request-Headers": "content-type,idempotency-key",
        },
      });
    const ok = await preflight(SITE);
    expect(ok.status).toBe(204);
    expect(ok.headers.get("access-control-allow-origin")).toBe(SITE);
    expect(ok.headers.get("access-control-allow-methods")).toContain("POST");
    expect(ok.headers.get("access-control-allow-headers")?.toLowerCase()).toContain("idempotency-key");
    const refused = await preflight("https://evil.example");
    expect(refused.status).toBe(403);
    expect(refused.headers.get("access-control-allow-origin")).toBeNull();
  });

  it("a real request from the site carries the CORS headers", async () => {
    const response = await fetch(`${server.url}/donations`, {
      method: "POST",
      headers: { Origin: SITE, "Content-Type": "application/json", "Idempotency-Key": newIdempotencyKey() },
      body: JSON.stringify(gift()),
    });
    expect(response.status).toBe(201);
    expect(response.headers.get("access-control-allow-origin")).toBe(SITE);
  });

  it("insists on an Idempotency-Key", async () => {
    const post = (headers: Record<string, string>) =>
      fetch(`${server.url}/donations`, {
        method: "POST",
        headers: { "Content-Type": "application/json", ...headers },
        body: JSON.stringify(gift()),
      });
    expect(await (await post({})).json()).toMatchObject({ error: { code: "idempotency_key_missing" } });
    expect(await (await post({ "Idempotency-Key": "12345" })).json()).toMatchObject({
      error: { code: "idempotency_key_invalid" },
    });
    expect(await server.donationCount()).toBe(0);
  });
});
