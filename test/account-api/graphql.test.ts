/**
 * The account API as a Fetch handler (what the payments service's Hono app mounts): Request in,
 * Response out, with a stand-in verifier and pool, so the time budget and the crash path can be
 * driven directly; the time budget is 200 ms here (the module of limits mocked), 5 s in production.
 */
import { describe, expect, it, vi } from "vitest";
import { createAccountGraphql } from "../../src/account-api/graphql.js";
import { type AccountRecords, createStoreOver } from "../../src/account-api/store.js";
import { TokenRejected } from "../../src/account-api/tokens.js";

vi.mock("../../src/account-api/graphql-limits.js", async (importOriginal) => {
  const { LIMITS } = await importOriginal<typeof import("../../src/account-api/graphql-limits.js")>();
  return { LIMITS: { ...LIMITS, timeBudgetMs: 200 } };
});

const verifyToken = async (token: string) => {
  if (token !== "good") throw new TokenRejected("not good");
  return { sub: "u-1", accessToken: token };
};
/** No donations at all: this file tests the handler, not the records (the service's: service.test.ts). */
const none: AccountRecords = {
  ofSub: async () => [],
  guestsLike: async () => [],
  claim: async () => {},
  savePlan: async () => {},
};
const createAccountStore = () => createStoreOver(none);
const userPool = { profile: async () => ({ email: "a@example.com", emailVerified: true }) };
const post = (query: string, token = "good") =>
  new Request("http://api.local/graphql", {
    method: "POST",
    headers: { "content-type": "application/json", authorization: `Bearer ${token}` },
    body: JSON.stringify({ query }),
  });

describe("createAccountGraphql", () => {
  it("answers a Fetch Request with a Response", async () => {
    const api = createAccountGraphql({ store: createAccountStore(), verifyToken, userPool });
    const res = await api.fetch(post("{ me { id email emailVerified } donations { id } }"));
    expect(res.status).toBe(200);
    expect(res.headers.get("cache-control")).toBe("no-store");
    expect(await res.json()).toEqual({
      data: { me: { id: "u-1", email: "a@example.com", emailVerified: true }, donations: [] },
    });
    expect((await api.fetch(post("{ me { id } }", "bad"))).status).toBe(401);
  });

  it("answers 503 when a request passes its time budget, and logs a crash without showing it", async () => {
    const logged: string[] = [];
    const logger = {
      debug() {},
      info() {},
      warn: (_: string, m: string) => void logged.push(`warn ${m}`),
      error: (_: string, m: string) => void logged.push(`error ${m}`),
    };
    const store = createAccountStore();
    const stalled = {
      ...store,
      donations: () => new Promise<never>(() => {}),
      receipts: () => {
        throw new Error("disk on fire at /var/secret/path");
      },
    } as unknown as typeof store;
    const api = createAccountGraphql({ store: stalled, verifyToken, userPool, logger });
    const slow = await api.fetch(post("{ donations { id } }"));
    expect(slow.status).toBe(503);
    expect((await slow.json()).errors[0].extensions.code).toBe("TIMEOUT");
    expect(logged.some((l) => l.includes("passed its 200 ms budget"))).toBe(true);

    const crash = await api.fetch(post("{ receipts { number } }"));
    const body = await crash.text();
    expect(body).not.toContain("/var/secret");
    expect(JSON.parse(body).errors[0]).toMatchObject({ extensions: { code: "INTERNAL" } });
    expect(logged.some((l) => l.startsWith("error") && l.includes("disk on fire"))).toBe(true);
  });
});
