/**
 * Quantity gifts against the payments service (src/api/, with the Stripe stand-in) over HTTP: qurban priced by the chosen animal
 * option (the backend's own price list, which matches the sample content), fitr per person, and
 * requests whose price or option was tampered with.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createPaymentsClient } from "../../src/payments/client.js";
import { PaymentsApiError } from "../../src/payments/errors.js";
import { newIdempotencyKey } from "../../src/payments/idempotency.js";
import type { ApiErrorBody, DonationCreated, DonationRequest } from "../../src/payments/types.js";
import { startTestPaymentsService, type TestPaymentsService } from "../support/payments-service.js";
import { TEST_DONOR } from "../support/donation-request.js";
import { setServiceClock } from "../support/service-clock.js";

// Midday on Wednesday 5 March 2025 in Sydney.
const now = () => new Date("2025-03-05T01:00:00Z");
const donor = TEST_DONOR;
const qurban = (quantity: Record<string, unknown>, amountCents: number): Record<string, unknown> => ({
  fund: "qurban",
  amountCents,
  currency: "AUD",
  frequency: "once",
  quantity,
  donor,
  anonymous: false,
  coverFees: false,
});

let server: TestPaymentsService;
beforeAll(async () => {
  await setServiceClock(now);
  server = await startTestPaymentsService();
});
afterAll(() => server.stop());

async function post(body: unknown): Promise<{ status: number; json: any }> {
  const response = await fetch(`${server.url}/donations`, {
    method: "POST",
    headers: { "Content-Type": "application/json", "Idempotency-Key": newIdempotencyKey() },
    body: JSON.stringify(body),
  });
  return { status: response.status, json: await response.json() };
}

describe("qurban: priced by the chosen option", () => {
  it("accepts 2 × the $450 lamb with a total of $900, and the thank-you page sees it", async () => {
    const { status, json } = await post(qurban({ count: 2, unitCents: 45000, optionId: "lamb-australia" }, 90000));
    expect(status).toBe(201);
    const created = json as DonationCreated;
    expect(created).toMatchObject({
      amountCents: 90000,
      feeCents: 0,
      totalCents: 90000,
      scheduleTotalCents: 90000,
      frequency: "once",
      intentType: "payment",
    });
    expect(created.schedule).toEqual([{ date: "2025-03-05", amountCents: 90000 }]);
    const state = await (await fetch(`${server.url}/donations/${created.donationId}`)).json();
    expect(state).toMatchObject({ fund: "qurban", amountCents: 90000, totalCents: 90000 });
  });

  it("adds the card fee on the option's total when the donor covers it", async () => {
    // ceil((15000 + 30) × 10000 / 9830) = ceil(15289.93) = 15290: $152.90, fee $2.90.
    const { status, json } = await post({
      ...qurban({ count: 1, unitCents: 15000, optionId: "goat-overseas" }, 15000),
      coverFees: true,
    });
    expect(status).toBe(201);
    expect(json).toMatchObject({ amountCents: 15000, feeCents: 290, totalCents: 15290 });
  });

  it("refuses a price other than the backend's, naming the field and the real price", async () => {
    const { status, json } = await post(qurban({ count: 2, unitCents: 20000, optionId: "lamb-australia" }, 40000));
    expect(status).toBe(400);
    const error = (json as ApiErrorBody).error;
    expect(error.code).toBe("validation_failed");
    expect(error.field).toBe("quantity.unitCents");
    expect(error.fields).toEqual([
      {
        field: "quantity.unitCents",
        code: "price_changed",
        message:
          "The price of Lamb (in Australia) is $450, not $200. Please reload the page to see the current prices, then try again.",
      },
    ]);
    expect(error.message).toBe(error.fields![0]!.message);
  });

  it("refuses an amount that is not count × the option's price", async () => {
    const { status, json } = await post(qurban({ count: 2, unitCents: 45000, optionId: "lamb-australia" }, 45000));
    expect(status).toBe(400);
    expect((json as ApiErrorBody).error.fields).toEqual([
      { field: "amount", code: "invalid", message: "The amount must be the number times the price: 2 × $450 = $900." },
    ]);
  });

  it("refuses an option the backend does not price, and a missing option", async () => {
    const unknown = await post(qurban({ count: 1, unitCents: 100, optionId: "camel" }, 1000));
    expect(unknown.status).toBe(400);
    expect(unknown.json.error.fields).toEqual([
      {
        field: "quantity.optionId",
        code: "not_allowed",
        message: "That option is no longer offered. Please reload the page and choose again.",
      },
    ]);
    const missing = await post(qurban({ count: 1, unitCents: 45000 }, 45000));
    expect(missing.json.error.fields).toEqual([
      { field: "quantity.optionId", code: "required", message: "Choose one of the options shown." },
    ]);
    // The old single qurban price ($200 a share) is no longer a price at all.
    const old = await post(qurban({ count: 1, unitCents: 20000 }, 20000));
    expect(old.status).toBe(400);
  });

  it("creates nothing for a refused request, and the client reports the field", async () => {
    const before = await server.donationCount();
    const client = createPaymentsClient({ baseUrl: server.url });
    const body = qurban({ count: 3, unitCents: 11000, optionId: "goat-overseas" }, 33000) as unknown as DonationRequest;
    const error = await client.createDonation(body, newIdempotencyKey()).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PaymentsApiError);
    expect(error).toMatchObject({
      status: 400,
      code: "validation_failed",
      field: "quantity.unitCents",
      retryable: false,
    });
    expect((error as PaymentsApiError).message).toBe(
      "The price of Goat (overseas) is $150, not $110. Please reload the page to see the current prices, then try again.",
    );
    expect(await server.donationCount()).toBe(before);
  });

  it("counts animals from 1 to 20", async () => {
    const { json } = await post(qurban({ count: 21, unitCents: 11000, optionId: "cow-share-overseas" }, 231000));
    expect(json.error.fields).toEqual([
      { field: "quantity", code: "out_of_range", message: "Enter how many animals, from 1 to 20." },
    ]);
  });
});

describe("fitr: one price per person", () => {
  it("accepts 5 × $15 = $75", async () => {
    const { status, json } = await post({ ...qurban({ count: 5, unitCents: 1500 }, 7500), fund: "fitr" });
    expect(status).toBe(201);
    expect(json).toMatchObject({ amountCents: 7500, totalCents: 7500 });
  });

  it("refuses an option on a fund priced per unit", async () => {
    const { json } = await post({
      ...qurban({ count: 5, unitCents: 1500, optionId: "lamb-australia" }, 7500),
      fund: "fitr",
    });
    expect(json.error.fields).toEqual([
      {
        field: "quantity.optionId",
        code: "not_allowed",
        message: "This fund has no options to choose from: send quantity without optionId.",
      },
    ]);
  });
});
