/**
 * One donation per gift: "Change my gift or details" changes the pending donation (PATCH, same
 * reference, the old intent cancelled), and never-paid donations expire after 24 hours with their
 * intents cancelled.
 */
import { randomUUID } from "node:crypto";
import Stripe from "stripe";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { sweepExpiredDonations } from "../../src/api/donations/expire.js";
import { donationRequest } from "../support/donation-request.js";
import { restoreRealClock, setServiceClock } from "../support/service-clock.js";
import {
  startTestPaymentsService,
  TEST_PUBLISHABLE_KEY,
  TEST_SECRET_KEY,
  type TestPaymentsService,
} from "../support/payments-service.js";

let service: TestPaymentsService;
let stripe: Stripe;
beforeAll(async () => {
  service = await startTestPaymentsService();
  stripe = new Stripe(TEST_SECRET_KEY, {
    host: "127.0.0.1",
    port: Number(new URL(service.stripe.url).port),
    protocol: "http",
  });
});
afterAll(() => service?.stop());
beforeEach(() => service.reset());

type Created = { donationId: string; reference: string; clientSecret: string; totalCents: number };

async function create(key = randomUUID()): Promise<Created & { key: string }> {
  const res = await fetch(`${service.url}/donations`, {
    method: "POST",
    headers: { "Content-Type": "application/json", "Idempotency-Key": key },
    body: JSON.stringify(donationRequest()),
  });
  expect(res.status).toBe(201);
  return { ...((await res.json()) as Created), key };
}

const patch = (id: string, donationKey: string, body: unknown, key = randomUUID()) =>
  fetch(`${service.url}/donations/${id}`, {
    method: "PATCH",
    headers: { "Content-Type": "application/json", "Idempotency-Key": key, "Donation-Key": donationKey },
    body: JSON.stringify(body),
  });

describe("PATCH /donations/{id}", () => {
  it("a crash between saving the change and cancelling the old intent never leaves two payable intents", async () => {
    const live = async (secret: string) => (await stripe.paymentIntents.retrieve(secret.split("_secret_")[0]!)).status;
    const intentsMade = () =>
      service.stripe.requests().filter((r) => r.method === "POST" && r.path === "/v1/payment_intents").length;
    const api = service.deps.stripe!.paymentIntents;
    const cancel = api.cancel;
    /** The process dies at the cancel call: the change is saved, the old intent not yet cancelled. */
    const crashAtCancel = () => {
      api.cancel = (() => Promise.reject(new Error("killed"))) as typeof cancel;
    };
    try {
      for (const recovery of ["the retry", "the sweep"] as const) {
        const first = await create();
        const made = intentsMade();
        const key = randomUUID();
        crashAtCancel();
        const crashed = await patch(first.donationId, first.key, donationRequest({ amountCents: 8000 }), key);
        api.cancel = cancel;
        expect(crashed.status, recovery).toBe(500);
        // The old intent is still payable, but no second one was opened, and the donation says what to cancel.
        expect(await live(first.clientSecret)).toBe("requires_payment_method");
        expect(intentsMade()).toBe(made);
        const pending = await service.db
          .selectFrom("intent_cancellations")
          .selectAll()
          .where("donation_id", "=", first.donationId)
          .execute();
        expect(pending).toMatchObject([{ object_id: first.clientSecret.split("_secret_")[0], done_at: null }]);
        if (recovery === "the sweep") {
          // Restarted: the sweep finishes the cancellation before the donor comes back.
          await sweepExpiredDonations(service.deps);
          expect(await live(first.clientSecret)).toBe("canceled");
        }
        // The donor's retry (the same key) resumes the change: the old intent is cancelled first, then one new one.
        const retried = await patch(first.donationId, first.key, donationRequest({ amountCents: 8000 }), key);
        expect(retried.status, recovery).toBe(200);
        const changed = (await retried.json()) as Created;
        expect(await live(first.clientSecret)).toBe("canceled");
        expect(await live(changed.clientSecret)).toBe("requires_payment_method");
        expect(intentsMade()).toBe(made + 1);
        expect(await service.donationCount()).toBeGreaterThan(0);
      }
    } finally {
      api.cancel = cancel;
    }
  });

  it("changes the pending donation: same id and reference, a new intent, the old one cancelled", async () => {
    const first = await create();
    const key = randomUUID();
    const res = await patch(first.donationId, first.key, donationRequest({ amountCents: 8000 }), key);
    expect(res.status).toBe(200);
    const changed = (await res.json()) as Created;
    expect(changed).toMatchObject({ donationId: first.donationId, reference: first.reference, totalCents: 8000 });
    expect(changed.clientSecret).not.toBe(first.clientSecret);
    const old = await stripe.paymentIntents.retrieve(first.clientSecret.split("_secret_")[0]!);
    expect(old.status).toBe("canceled");
    const fresh = await stripe.paymentIntents.retrieve(changed.clientSecret.split("_secret_")[0]!);
    expect(fresh.amount).toBe(8000);
    expect(await service.donationCount()).toBe(1);
    // The same change again is the same answer; the next change proves itself with the newest key.
    const again = await patch(first.donationId, first.key, donationRequest({ amountCents: 8000 }), key);
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    const stale = await patch(first.donationId, first.key, donationRequest({ amountCents: 9000 }));
    expect(stale.status).toBe(404);
    expect((await patch(first.donationId, key, donationRequest({ amountCents: 9000 }))).status).toBe(200);
  });

  it("refuses a stranger (wrong Donation-Key) and a paid gift, and validates like POST", async () => {
    const first = await create();
    expect((await patch(first.donationId, randomUUID(), donationRequest({ amountCents: 1 }))).status).toBe(404);
    const invalid = await patch(first.donationId, first.key, donationRequest({ amountCents: 1 }));
    expect(invalid.status).toBe(400);
    await fetch(`${service.stripe.url}/v1/payment_intents/${first.clientSecret.split("_secret_")[0]}/confirm`, {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({
        key: TEST_PUBLISHABLE_KEY,
        client_secret: first.clientSecret,
        payment_method: "pm_card_visa",
      }),
    }).then((r) => r.text());
    await service.stripe.settled();
    const paid = await patch(first.donationId, first.key, donationRequest({ amountCents: 9000 }));
    expect(paid.status).toBe(409);
    expect(((await paid.json()) as { error: { code: string } }).error.code).toBe("donation_not_pending");
  });
});

describe("expiry", () => {
  it("deletes never-paid donations after 24 hours and cancels their intents; paid ones stay", async () => {
    const unpaid = await create();
    const paid = await create();
    await fetch(`${service.stripe.url}/v1/payment_intents/${paid.clientSecret.split("_secret_")[0]}/confirm`, {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({
        key: TEST_PUBLISHABLE_KEY,
        client_secret: paid.clientSecret,
        payment_method: "pm_card_visa",
      }),
    }).then((r) => r.text());
    await service.stripe.settled();
    // The sweep a day on: the service's clock moved for it alone.
    let hoursOn = 23;
    await setServiceClock(() => new Date(Date.now() + hoursOn * 3600_000));
    const early = await sweepExpiredDonations(service.deps);
    hoursOn = 25;
    const late = await sweepExpiredDonations(service.deps).finally(restoreRealClock);
    expect(early.expired).toBe(0);
    expect(late.expired).toBe(1);
    expect((await fetch(`${service.url}/donations/${unpaid.donationId}`)).status).toBe(404);
    expect((await fetch(`${service.url}/donations/${paid.donationId}`)).status).toBe(200);
    const intent = await stripe.paymentIntents.retrieve(unpaid.clientSecret.split("_secret_")[0]!);
    expect(intent.status).toBe("canceled");
  });
});
