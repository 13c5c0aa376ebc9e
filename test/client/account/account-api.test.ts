/**
 * The account island's GraphQL client: the ID token on every request, one refresh and retry on a
 * 401 (never more), the API's own sentences passed on, and plain words when the API cannot be
 * reached or answers something that is not GraphQL. The browser's `fetch` is stood in for by a
 * script of answers.
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import { AccountApiError, createAccountApi, UNREACHABLE } from "../../../src/client/account/account-api.js";

type Reply = { status: number; body: unknown } | "network-down";

/** The global fetch from now on: the replies in turn, each request seen. */
function scripted(replies: Reply[]) {
  const seen: { auth: string | null; body: string }[] = [];
  const fake = (async (_url: string, init: RequestInit) => {
    seen.push({ auth: new Headers(init.headers).get("authorization"), body: String(init.body) });
    const next = replies.shift();
    if (!next || next === "network-down") throw new TypeError("Failed to fetch");
    return new Response(typeof next.body === "string" ? next.body : JSON.stringify(next.body), {
      status: next.status,
    });
  }) as unknown as typeof fetch;
  vi.stubGlobal("fetch", fake);
  return { seen };
}
afterEach(() => {
  vi.unstubAllGlobals();
});

const tokens = () => {
  let n = 0;
  const asked: boolean[] = [];
  return {
    asked,
    token: async (force: boolean) => {
      asked.push(force);
      return `token-${force ? ++n : n}`;
    },
  };
};

const UNAUTH = {
  errors: [{ message: "The user is not authenticated. Sign in again.", extensions: { code: "UNAUTHENTICATED" } }],
};

describe("createAccountApi", () => {
  it("sends the token and the query, and returns data", async () => {
    const { seen } = scripted([{ status: 200, body: { data: { me: { id: "u1" } } } }]);
    const t = tokens();
    const api = createAccountApi({ url: "http://api.test/graphql", token: t.token });
    expect(await api.request("{ me { id } }", { year: 2026 })).toEqual({ me: { id: "u1" } });
    expect(seen).toEqual([
      { auth: "Bearer token-0", body: JSON.stringify({ query: "{ me { id } }", variables: { year: 2026 } }) },
    ]);
    expect(t.asked).toEqual([false]);
  });

  it("on a 401 refreshes the token once and retries; a second 401 gives the API's sentence", async () => {
    const once = scripted([
      { status: 401, body: UNAUTH },
      { status: 200, body: { data: { ok: true } } },
    ]);
    const t = tokens();
    const api = createAccountApi({ url: "http://api.test/graphql", token: t.token });
    expect(await api.request("{ ok }")).toEqual({ ok: true });
    expect(once.seen.map((s) => s.auth)).toEqual(["Bearer token-0", "Bearer token-1"]);
    expect(t.asked).toEqual([false, true]);

    const twice = scripted([
      { status: 401, body: UNAUTH },
      { status: 401, body: UNAUTH },
      { status: 200, body: { data: {} } },
    ]);
    const api2 = createAccountApi({ url: "http://api.test/graphql", token: tokens().token });
    const error = await api2.request("{ ok }").catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AccountApiError);
    expect((error as AccountApiError).code).toBe("UNAUTHENTICATED");
    expect((error as AccountApiError).message).toBe("The user is not authenticated. Sign in again.");
    expect(twice.seen).toHaveLength(2);
  });

  it("passes on a refusal's message and code; says plainly when the API is unreachable or not GraphQL", async () => {
    scripted([
      {
        status: 200,
        body: { data: null, errors: [{ message: "The amount is below $1.", extensions: { code: "BELOW_MINIMUM" } }] },
      },
    ]);
    const api = createAccountApi({ url: "http://api.test/graphql", token: tokens().token });
    await expect(api.request("mutation { x }")).rejects.toMatchObject({
      code: "BELOW_MINIMUM",
      message: "The amount is below $1.",
    });

    scripted(["network-down"]);
    const down = createAccountApi({ url: "http://api.test/graphql", token: tokens().token });
    await expect(down.request("{ ok }")).rejects.toMatchObject({ code: "NETWORK", message: UNREACHABLE });

    scripted([{ status: 502, body: "<html>Bad gateway</html>" }]);
    const html = createAccountApi({ url: "http://api.test/graphql", token: tokens().token });
    await expect(html.request("{ ok }")).rejects.toMatchObject({ code: "BAD_RESPONSE", message: UNREACHABLE });
  });
});
