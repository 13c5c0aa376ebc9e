/**
 * The payments client sends the signed-in donor's access token with a new gift, and with nothing
 * else: the token goes where the service files the gift under the account (POST /donations), never
 * to the reads, the changes of a pending gift or PayPal's calls. The browser's `fetch` is stood in
 * for, and records each request.
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import { createPaymentsClient } from "../../src/payments/client.js";
import { donationRequest } from "../support/donation-request.js";

function recording(token: () => string | null) {
  const seen: { method: string; path: string; authorization: string | null }[] = [];
  vi.stubGlobal("fetch", async (url: string | URL, init?: RequestInit) => {
    const headers = new Headers(init?.headers);
    seen.push({
      method: init?.method ?? "GET",
      path: new URL(String(url)).pathname,
      authorization: headers.get("authorization"),
    });
    return new Response(JSON.stringify({ donationId: "don_1", status: "processing" }), { status: 200 });
  });
  const client = createPaymentsClient({ baseUrl: "https://api.example.org/main", accessToken: token });
  return { client, seen };
}
afterEach(() => {
  vi.unstubAllGlobals();
});

describe("the donor's access token", () => {
  it("goes with POST /donations as a bearer token, read at each request", async () => {
    let token: string | null = "tok-1";
    const { client, seen } = recording(() => token);
    await client.createDonation(donationRequest(), "key-1");
    token = null; // signed out, or expired meanwhile
    await client.createDonation(donationRequest(), "key-2");
    expect(seen).toEqual([
      { method: "POST", path: "/main/donations", authorization: "Bearer tok-1" },
      { method: "POST", path: "/main/donations", authorization: null },
    ]);
  });

  it("goes nowhere else", async () => {
    const { client, seen } = recording(() => "tok-1");
    await client.getDonation("don_1");
    await client.updateDonation("don_1", "key-1", donationRequest(), "key-2");
    await client.createPayPalOrder("don_1", "key-3");
    await client.capturePayPal("don_1", { orderId: "O-1" } as never, "key-4");
    expect(seen.map((s) => s.authorization)).toEqual([null, null, null, null]);
    expect(seen).toHaveLength(4);
  });
});
