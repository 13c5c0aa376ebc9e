/**
 * The account API end to end: cognito-local issues the tokens, the payments service records the
 * donations (paid by the Stripe stand-in's signed webhooks) and answers GraphQL at /graphql, all
 * over real HTTP on 127.0.0.1. Figures
 * are worked out by hand in the comments, not copied from the code's output.
 */
import { readFile } from "node:fs/promises";
import { resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ACCOUNT_SCHEMA_SDL } from "../../src/account-api/schema.js";
import { createAccountService } from "../../src/account-api/service.js";
import { type Account, type Harness, raw, startAccountHarness } from "../support/account-api-harness.js";

let h: Harness;
/** 30 June 2026, noon in Sydney: the last day of financial year 2026. */
let clock = new Date("2026-06-30T02:00:00Z");
const A = "amina@example.com";
const B = "bilal@example.com";
let a: Account;
let b: Account;

const gql = (query: string, variables: Record<string, unknown> = {}, token: string | null = a.access) =>
  h.gql(query, variables, token);
const donate = (body: Record<string, unknown>, status: "succeeded" | "failed", token?: string) =>
  h.donate(body, status, token);

beforeAll(async () => {
  h = await startAccountHarness({ now: () => clock });
  a = await h.signUp(A);
  b = await h.signUp(B);
}, 60_000);

afterAll(async () => {
  await h?.stop();
});

describe("account API", () => {
  it("docs/account-api.graphql is the schema the server runs", async () => {
    const file = await readFile(resolve(import.meta.dirname, "../../docs/account-api.graphql"), "utf8");
    expect(file).toBe(ACCOUNT_SCHEMA_SDL);
  });

  it("refuses guests and bad tokens with the user pool's sentences", async () => {
    const none = await gql("{ donations { id } }", {}, null);
    expect(none.status).toBe(401);
    expect(none.json.errors[0].message).toMatch(/^No current user\. Sign in/);
    expect(none.json.errors[0].extensions.code).toBe("UNAUTHENTICATED");
    expect(none.json.data).toBeUndefined();

    const garbage = await gql("{ me { id } }", {}, "not-a-token");
    expect(garbage.status).toBe(401);
    expect(garbage.json.errors[0].message).toMatch(/^The user is not authenticated\. .*sign in again/);

    // A token whose claims were changed after signing: the signature no longer matches.
    const [head, payload, signature] = a.access.split(".");
    const claims = JSON.parse(Buffer.from(payload!, "base64url").toString());
    const forged = `${head}.${Buffer.from(JSON.stringify({ ...claims, sub: b.sub })).toString("base64url")}.${signature}`;
    expect((await gql("{ me { id } }", {}, forged)).status).toBe(401);
    // Expiry and each claim: test/account-api/tokens.test.ts.
  });

  it("refuses a token of another app client, and answers 503 while the pool's keys cannot be fetched", async () => {
    const { cognito } = h;
    const client = await cognito.call<{ UserPoolClient: { ClientId: string } }>("CreateUserPoolClient", {
      UserPoolId: cognito.userPoolId,
      ClientName: "other",
      ExplicitAuthFlows: ["ALLOW_USER_PASSWORD_AUTH"],
    });
    const auth = await cognito.call<{ AuthenticationResult: { AccessToken: string } }>("InitiateAuth", {
      AuthFlow: "USER_PASSWORD_AUTH",
      ClientId: client.UserPoolClient.ClientId,
      AuthParameters: { USERNAME: A, PASSWORD: "long enough" },
    });
    const res = await gql("{ me { id } }", {}, auth.AuthenticationResult.AccessToken);
    expect(res.status).toBe(401);
    expect(res.json.errors[0].message).toMatch(/^The user is not authenticated/);

    // An issuer nobody listens on (port 9 is discard, closed on loopback): the service's handler
    // over the same database, with a pool whose keys cannot be fetched.
    const offline = createAccountService({
      db: h.service.db as never,
      userPoolId: cognito.userPoolId,
      clientId: cognito.clientId,
      endpoint: "http://127.0.0.1:9",
    });
    const answer = await offline.graphql.fetch(
      new Request(h.graphqlUrl, {
        method: "POST",
        headers: { "content-type": "application/json", authorization: `Bearer ${a.access}` },
        body: JSON.stringify({ query: "{ me { id } }" }),
      }),
    );
    expect(answer.status).toBe(503);
    expect(((await answer.json()) as { errors: unknown[] }).errors[0]).toEqual({
      message: "We cannot check your sign-in right now. Nothing was changed. Please try again in a minute.",
      extensions: { code: "UNAVAILABLE" },
    });
  });

  it("answers CORS preflight for the site on loopback only", async () => {
    const { graphqlUrl, service } = h;
    const ok = await raw(graphqlUrl, "OPTIONS", {
      origin: "http://127.0.0.1:4321",
      "access-control-request-method": "POST",
      "access-control-request-headers": "authorization, content-type",
    });
    expect(ok.status).toBe(204);
    expect(ok.headers["access-control-allow-origin"]).toBe("http://127.0.0.1:4321");
    expect(ok.headers["access-control-allow-headers"]).toMatch(/^Authorization, Content-Type\b/);
    // The donation form sends the donor's token to the payments API too.
    const donations = await raw(`${service.url}/donations`, "OPTIONS", {
      origin: "http://127.0.0.1:4321",
      "access-control-request-method": "POST",
    });
    expect(donations.status).toBe(204);
    expect(donations.headers["access-control-allow-headers"]).toContain("Authorization");
    const elsewhere = await raw(graphqlUrl, "OPTIONS", {
      origin: "https://evil.example",
      "access-control-request-method": "POST",
    });
    expect(elsewhere.status).toBe(403);
    expect(elsewhere.headers["access-control-allow-origin"]).toBeUndefined();
  });

  it("knows who is signed in from the access token, and the e-mail from the pool", async () => {
    const me = await gql("{ me { id email emailVerified } }");
    expect(me.status, h.logged.join("\n")).toBe(200);
    expect(me.json.data.me).toEqual({ id: a.sub, email: A, emailVerified: true });
  });

  it("lists the donations a signed-in donor made, with receipts and the yearly tax summary", async () => {
    // Financial year 2026 (30 June 2026): zakat $100 with fees covered: ceil((10000 + 30) / 0.983) = 10204.
    const zakat = await donate({ fund: "zakat", amountCents: 10_000, coverFees: true }, "succeeded", a.access);
    // Qurban, a lamb: $450, not tax-deductible.
    await donate(
      { fund: "qurban", amountCents: 45_000, quantity: { count: 1, unitCents: 45_000, optionId: "lamb-australia" } },
      "succeeded",
      a.access,
    );
    // Monthly sadaqah, $25 a month.
    await donate({ fund: "sadaqah", amountCents: 2_500, frequency: "monthly" }, "succeeded", a.access);
    // Another donor's gift must not show in A's account.
    await donate(
      {
        fund: "zakat",
        amountCents: 7_000,
        donor: { firstName: "Bilal", lastName: "Ali", email: B, phone: "0412 345 679" },
      },
      "succeeded",
      b.access,
    );
    // Financial year 2027 (1 July 2026): zakat $50; a sadaqah $30 that failed (no receipt); a fidyah
    // gift made as a guest with A's e-mail (3 days × $15 = $45), which joins A's history when A asks.
    clock = new Date("2026-07-01T02:00:00Z");
    await donate({ fund: "zakat", amountCents: 5_000 }, "succeeded", a.access);
    await donate({ fund: "sadaqah", amountCents: 3_000 }, "failed", a.access);
    await donate({ fund: "fidyah", amountCents: 4_500, quantity: { count: 3, unitCents: 1_500 } }, "succeeded");
    expect((await gql("{ donations { fund } }")).json.data.donations).toHaveLength(5);
    const claimed = await gql("mutation { claimGuestGifts(confirm: true) { claimed } }");
    expect(claimed.json.data.claimGuestGifts.claimed).toBe(1);

    const list = await gql(
      "{ donations { id fund schedule amountCents feeCents totalCents date status regularGiftId receipt { number totalCents taxDeductible financialYear } } }",
    );
    expect(list.status, list.text).toBe(200);
    const donations = list.json.data.donations as any[];
    expect(donations.map((d) => [d.fund, d.schedule, d.totalCents, d.date, d.status])).toEqual([
      ["fidyah", "once", 4_500, "2026-07-01", "SUCCEEDED"],
      ["sadaqah", "once", 3_000, "2026-07-01", "FAILED"],
      ["zakat", "once", 5_000, "2026-07-01", "SUCCEEDED"],
      ["sadaqah", "monthly", 2_500, "2026-06-30", "SUCCEEDED"],
      ["qurban", "once", 45_000, "2026-06-30", "SUCCEEDED"],
      ["zakat", "once", 10_204, "2026-06-30", "SUCCEEDED"],
    ]);
    const first = donations.at(-1)!;
    expect(first).toMatchObject({
      id: zakat,
      amountCents: 10_000,
      feeCents: 204,
      // Zakat is not tax-deductible (the zakat page says so).
      receipt: { totalCents: 10_204, taxDeductible: false, financialYear: 2026 },
    });
    expect(first.receipt.number).toMatch(/^NZF-[0-9A-Z]{4}-[0-9A-Z]{4}$/);
    expect(donations[1].receipt).toBeNull();
    expect(donations[3].regularGiftId).toMatch(/^gift_/);

    const receipts = (await gql("{ receipts { fund totalCents donorName } }")).json.data.receipts;
    expect(receipts).toHaveLength(5);
    // Made out to the name given with each donation.
    expect(receipts.map((r: { donorName: string }) => r.donorName)).toEqual(Array(5).fill("Amina Khan"));

    const fy = `query($y: Int!) { taxSummary(financialYear: $y) { financialYear from to deductibleTotalCents nonDeductibleTotalCents funds { fund totalCents count } receipts { fund } } }`;
    // 2026: sadaqah 2500 deductible; zakat 10204 + qurban 45000 = 55204 not.
    const y2026 = (await gql(fy, { y: 2026 })).json.data.taxSummary;
    expect(y2026).toMatchObject({
      from: "2025-07-01",
      to: "2026-06-30",
      deductibleTotalCents: 2_500,
      nonDeductibleTotalCents: 55_204,
    });
    expect(y2026.funds).toEqual([{ fund: "sadaqah", totalCents: 2_500, count: 1 }]);
    // 2027: fidyah 4500 deductible, zakat 5000 not; the failed sadaqah counts for nothing.
    const y2027 = (await gql(fy, { y: 2027 })).json.data.taxSummary;
    expect(y2027).toMatchObject({
      from: "2026-07-01",
      to: "2027-06-30",
      deductibleTotalCents: 4_500,
      nonDeductibleTotalCents: 5_000,
    });
    expect(y2027.receipts.map((r: any) => r.fund)).toEqual(["fidyah"]);

    const badYear = await gql(fy, { y: 26 });
    expect(badYear.json.errors[0]).toMatchObject({ extensions: { code: "INVALID_FINANCIAL_YEAR" } });
    expect(badYear.json.errors[0].message).toContain("2026 is 1 July 2025 to 30 June 2026");

    const other = (await gql("{ donations { fund totalCents } }", {}, b.access)).json.data.donations;
    expect(other).toEqual([{ fund: "zakat", totalCents: 7_000 }]);
  });

  it("pauses, resumes, changes and cancels a regular gift, each safe to repeat", async () => {
    const gifts = (await gql("{ regularGifts { id fund schedule amountCents status nextChargeDate } }")).json.data
      .regularGifts;
    expect(gifts).toHaveLength(1);
    const gift = gifts[0];
    // Started 30 June 2026, monthly: the next charge is 30 July 2026.
    expect(gift).toMatchObject({
      fund: "sadaqah",
      schedule: "monthly",
      amountCents: 2_500,
      status: "ACTIVE",
      nextChargeDate: "2026-07-30",
    });
    const fields = "gift { status amountCents totalCents nextChargeDate } changed message";
    const run = async (mutation: string, vars: Record<string, unknown> = {}, token?: string) => {
      const declared = mutation.includes("$c") ? "$id: ID!, $c: Boolean!" : "$id: ID!";
      const res = await gql(`mutation(${declared}) { ${mutation} }`, { id: gift.id, ...vars }, token);
      expect(res.status, res.text).toBe(200);
      return res.json;
    };
    const pause = `pauseRegularGift(id: $id) { ${fields} }`;
    const paused = (await run(pause)).data.pauseRegularGift;
    expect(paused).toEqual({
      gift: { status: "PAUSED", amountCents: 2_500, totalCents: 2_500, nextChargeDate: null },
      changed: true,
      message: "Your monthly gift to Sadaqah is paused. Nothing more will be charged until you resume it.",
    });
    expect((await run(pause)).data.pauseRegularGift).toMatchObject({ changed: false, gift: { status: "PAUSED" } });

    const resume = `resumeRegularGift(id: $id) { ${fields} }`;
    expect((await run(resume)).data.resumeRegularGift).toMatchObject({
      changed: true,
      gift: { status: "ACTIVE", nextChargeDate: "2026-07-30" },
      message: "Your monthly gift to Sadaqah is active again.",
    });
    expect((await run(resume)).data.resumeRegularGift.changed).toBe(false);

    const change = `changeRegularGiftAmount(id: $id, amountCents: $a) { ${fields} }`;
    expect((await run(change.replace("$a", "4000"))).data.changeRegularGiftAmount).toMatchObject({
      changed: true,
      gift: { amountCents: 4_000, totalCents: 4_000 },
      message: "Your monthly gift to Sadaqah is now $40 each time, from the next charge.",
    });
    expect((await run(change.replace("$a", "4000"))).data.changeRegularGiftAmount.changed).toBe(false);
    const tooSmall = await run(change.replace("$a", "500"));
    expect(tooSmall.errors[0]).toMatchObject({
      message: "The minimum gift is $10. Enter a larger amount.",
      extensions: { code: "BELOW_MINIMUM" },
    });

    // Another donor cannot touch it.
    const stranger = await run(pause, {}, b.access);
    expect(stranger.errors[0].extensions.code).toBe("GIFT_NOT_FOUND");

    const cancel = `cancelRegularGift(id: $id, confirm: $c) { ${fields} }`;
    const unconfirmed = await run(cancel, { c: false });
    expect(unconfirmed.errors[0]).toMatchObject({ extensions: { code: "CONFIRMATION_REQUIRED" } });
    expect(unconfirmed.errors[0].message).toMatch(/^Cancelling cannot be undone\. Confirm/);
    expect((await gql("{ regularGifts { status } }")).json.data.regularGifts[0].status).toBe("ACTIVE");
    expect((await run(cancel, { c: true })).data.cancelRegularGift).toMatchObject({
      changed: true,
      gift: { status: "CANCELLED", nextChargeDate: null },
    });
    expect((await run(cancel, { c: true })).data.cancelRegularGift.changed).toBe(false);
    const afterCancel = await run(resume);
    expect(afterCancel.errors[0].extensions.code).toBe("GIFT_CANCELLED");
    expect(afterCancel.errors[0].message).toContain("start a new gift on the Sadaqah page");
  });

  it("answers malformed requests with 4xx and stays up", async () => {
    const { graphqlUrl, service } = h;
    const auth = { authorization: `Bearer ${a.access}` };
    // A client asking for application/graphql-response+json gets 4xx for a request error; one
    // asking only for application/json gets 200 with `errors` (GraphQL over HTTP's rule for older clients).
    const json = { ...auth, "content-type": "application/json", accept: "application/graphql-response+json" };
    const cases: [Record<string, string>, string | Buffer, string?][] = [
      [json, "{not json"],
      [json, "[1,2,3]"],
      [json, JSON.stringify({ query: "{ donations { id " })],
      [json, JSON.stringify({ query: "{ nosuchfield }" })],
      [json, JSON.stringify({ query: 42 })],
      [
        json,
        JSON.stringify({
          query: "query($y: Int!) { taxSummary(financialYear: $y) { from } }",
          variables: { y: "two" },
        }),
      ],
      [json, ""],
      [{ ...auth, "content-type": "text/plain" }, JSON.stringify({ query: "{ me { id } }" })],
      [json, Buffer.alloc(40_000, "a")],
      [json, Buffer.from([0xff, 0xfe, 0x00, 0x7b])],
    ];
    for (const [headers, body] of cases) {
      const res = await raw(graphqlUrl, "POST", headers, body);
      expect(res.status, `${String(body).slice(0, 60)} → ${res.text}`).toBeGreaterThanOrEqual(400);
      expect(res.status).toBeLessThan(500);
    }
    expect(
      (
        await raw(
          `${graphqlUrl}?query=${encodeURIComponent('mutation { pauseRegularGift(id: "x") { changed } }')}`,
          "GET",
          auth,
        )
      ).status,
    ).toBe(405);
    expect((await raw(`${service.url}/%E0%A4%A`, "POST", json, "{}")).status).toBe(400);
    expect((await raw(`${service.url}/elsewhere`, "POST", json, "{}")).status).toBe(404);
    expect((await raw(graphqlUrl, "DELETE", auth)).status).toBe(405);
    const legacy = await raw(
      graphqlUrl,
      "POST",
      { ...auth, "content-type": "application/json", accept: "application/json" },
      JSON.stringify({ query: "{ nosuchfield }" }),
    );
    expect(legacy.status).toBe(200);
    expect(legacy.json.errors[0].message).toContain("nosuchfield");
    expect((await gql("{ me { email } }")).json.data.me.email).toBe(A);
    expect(h.logged.filter((line) => line.startsWith("error"))).toEqual([]);
  });
});
