/**
 * The payments service started without PayPal's settings (NZF_PAYPAL_*), as `nzf-build api` or a
 * deployment would be: PayPal is unavailable, never the in-memory provider that marks a capture
 * paid with no money taken (that one is for watch mode, which asks for it).
 */
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, expect, it } from "vitest";
import { startApiServer, type ApiServer } from "../../../src/api/node-server.js";
import { openTestApiDb } from "../../support/api-db.js";
import { testDataDir } from "../../support/api-db-open.js";
import { donationRequest } from "../../support/donation-request.js";

let server: ApiServer;
let watchLike: ApiServer;
beforeAll(async () => {
  const [database, other] = await Promise.all([openTestApiDb().then(testDataDir), openTestApiDb().then(testDataDir)]);
  server = await startApiServer({ port: 0, dataDir: database, env: { NZF_API_ALLOWED_ORIGINS: "https://nzf.org.au" } });
  watchLike = await startApiServer({ port: 0, dataDir: other, env: {}, localPayPal: true });
});
afterAll(async () => {
  await server?.stop();
  await watchLike?.stop();
});

const post = (base: string, path: string, body: unknown) =>
  fetch(`${base}${path}`, {
    method: "POST",
    headers: { "Content-Type": "application/json", "Idempotency-Key": randomUUID() },
    body: JSON.stringify(body),
  });

it("answers a PayPal gift's order and capture 503, and nothing is marked paid", async () => {
  expect(server.deps.paypal).toBeNull();
  const created = await post(server.url, "/donations", donationRequest({ fund: "zakat", paymentMethod: "paypal" }));
  const text = await created.text();
  // Either refused up front or accepted as pending: never paid without PayPal.
  if (created.status === 201) {
    const { donationId } = JSON.parse(text) as { donationId: string };
    for (const action of ["order", "capture"]) {
      const answer = await post(server.url, `/donations/${donationId}/paypal/${action}`, { orderId: "ORDER-FREE" });
      expect(answer.status, action).toBe(503);
    }
    const state = (await (await fetch(`${server.url}/donations/${donationId}`)).json()) as { status: string };
    expect(state.status).not.toBe("succeeded");
  } else expect(created.status, text).toBe(503);
});

it("gives watch mode, which asks for it, the local provider", () => {
  expect(watchLike.deps.paypal).not.toBeNull();
});
