/**
 * The account API end to end: cognito-local issues the tokens, the payments dev server records the
 * donations, the account API dev server answers GraphQL, all over real HTTP on 127.0.0.1. Figures
 * are worked out by hand in the comments, not copied from the code's output.
 */
import { randomUUID } from "node:crypto";
import { readFile } from "node:fs/promises";
import { request as httpRequest } from "node:http";
import { resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { printSchema } from "graphql/index.js";
import { accountSchema } from "../../src/account-api/resolvers.js";
import { ACCOUNT_SCHEMA_SDL } from "../../src/account-api/schema.js";
import { createAccountStore } from "../../src/account-api/store.js";
import { createTokenVerifier } from "../../src/account-api/tokens.js";
import {
  recordDonationsInto,
  startAccountApiDevServer,
  type AccountApiDevServer,
} from "../../src/server/account-api-dev-server.js";
import { startPaymentsDevServer, type PaymentsDevServer } from "../../src/server/payments-dev-server.js";
import { startCognitoLocal, type CognitoLocal } from "../support/cognito-local.js";

interface Raw {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  json: any;
  text: string;
}

function raw(url: string, method: string, headers: Record<string, string>, body?: string | Buffer): Promise<Raw> {
  return new Promise((ok, fail) => {
    const req = httpRequest(url, { method, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("end", () => {
        const text = Buffer.concat(chunks).toString("utf8");
        let json: unknown;
        try {
          json = JSON.parse(text);
        } catch {
          json = undefined;
        }
        ok({ status: res.statusCode ?? 0, headers: res.headers, json, text });
      });
    });
    req.on("error", fail);
    req.end(body);
  });
}

let cognito: CognitoLocal;
let payments: PaymentsDevServer;
let account: AccountApiDevServer;
/** 30 June 2026, noon in Sydney: the last day of financial year 2026. */
let clock = new Date("2026-06-30T02:00:00Z");
/** What the servers logged: a crash shows here, and the last test checks there was none. */
const logged: string[] = [];
const logger = {
  debug() {},
  info() {},
  warn: (_: string, m: string) => void logged.push(`warn ${m}`),
  error: (_: string, m: string) => void logged.push(`error ${m}`),
};
const tokens: Record<string, { id: string; access: string }> = {};
const A = "amina@example.com";
const B = "bilal@example.com";

async function signIn(email: string) {
  await cognito.call("SignUp", {
    ClientId: cognito.clientId,
    Username: email,
    Password: "long enough",
    UserAttributes: [{ Name: "email", Value: email }],
  });
  await cognito.call("ConfirmSignUp", {
    ClientId: cognito.clientId,
    Username: email,
    ConfirmationCode: (await cognito.readStoredCode(email)) ?? cognito.code,
  });
  const auth = await cognito.call<{ AuthenticationResult: { AccessToken: string; IdToken: string } }>("InitiateAuth", {
    AuthFlow: "USER_PASSWORD_AUTH",
    ClientId: cognito.clientId,
    AuthParameters: { USERNAME: email, PASSWORD: "long enough" },
  });
  tokens[email] = { id: auth.AuthenticationResult.IdToken, access: auth.AuthenticationResult.AccessToken };
}

function gql(
  query: string,
  variables: Record<string, unknown> = {},
  token: string | null = tokens[A]!.id,
): Promise<Raw> {
  const headers: Record<string, string> = {
    "content-type": "application/json",
    accept: "application/graphql-response+json",
  };
  if (token !== null) headers.authorization = `Bearer ${token}`;
  return raw(account.graphqlUrl, "POST", headers, JSON.stringify({ query, variables }));
}

async function donate(body: Record<string, unknown>, status: "succeeded" | "failed", token?: string): Promise<string> {
  const donor = { firstName: "Amina", lastName: "Khan", email: A, phone: "0412 345 678" };
  const headers: Record<string, string> = { "content-type": "application/json", "idempotency-key": randomUUID() };
  if (token) headers.authorization = `Bearer ${token}`;
  const res = await raw(
    `${payments.url}/donations`,
    "POST",
    headers,
    JSON.stringify({ currency: "AUD", frequency: "once", anonymous: false, coverFees: false, donor, ...body }),
  );
  expect(res.status, res.text).toBe(201);
  payments.setOutcome(res.json.donationId, status);
  return res.json.donationId as string;
}

beforeAll(async () => {
  cognito = await startCognitoLocal();
  const now = () => clock;
  const store = createAccountStore({ now });
  const verifyToken = createTokenVerifier({
    issuer: cognito.issuer,
    clientId: cognito.clientId,
    now,
  });
  payments = await startPaymentsDevServer({
    now,
    logger,
    onDonationCreated: recordDonationsInto(store, verifyToken, logger),
  });
  account = await startAccountApiDevServer({ store, verifyToken, logger });
  await signIn(A);
  await signIn(B);
}, 60_000);

afterAll(async () => {
  await account?.stop();
  await payments?.stop();
  await cognito?.stop();
});

describe("account API", () => {
  it("docs/account-api.graphql is the schema the server runs", async () => {
    const file = await readFile(resolve(import.meta.dirname, "../../docs/account-api.graphql"), "utf8");
    expect(file).toBe(ACCOUNT_SCHEMA_SDL);
    expect(printSchema(accountSchema())).toContain("cancelRegularGift(id: ID!, confirm: Boolean!): RegularGiftChange!");
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
    const [h, p, s] = tokens[A]!.id.split(".");
    const claims = JSON.parse(Buffer.from(p!, "base64url").toString());
    const forged = `${h}.${Buffer.from(JSON.stringify({ ...claims, sub: "someone-else" })).toString("base64url")}.${s}`;
    expect((await gql("{ me { id } }", {}, forged)).status).toBe(401);

    // Expired: an hour after the pool's 24-hour lifetime.
    const saved = clock;
    clock = new Date(claims.exp * 1000 + 3_600_000);
    expect((await gql("{ me { id } }")).json.errors[0].message).toMatch(/^The user is not authenticated/);
    clock = saved;
  });

  it("refuses a token of another app client, and answers 503 while the pool's keys cannot be fetched", async () => {
    const client = await cognito.call<{ UserPoolClient: { ClientId: string } }>("CreateUserPoolClient", {
      UserPoolId: cognito.userPoolId,
      ClientName: "other",
      ExplicitAuthFlows: ["ALLOW_USER_PASSWORD_AUTH"],
    });
    const auth = await cognito.call<{ AuthenticationResult: { IdToken: string } }>("InitiateAuth", {
      AuthFlow: "USER_PASSWORD_AUTH",
      ClientId: client.UserPoolClient.ClientId,
      AuthParameters: { USERNAME: A, PASSWORD: "long enough" },
    });
    const res = await gql("{ me { id } }", {}, auth.AuthenticationResult.IdToken);
    expect(res.status).toBe(401);
    expect(res.json.errors[0].message).toMatch(/^The user is not authenticated/);

    // An issuer nobody listens on (port 9 is discard, closed on loopback).
    const offline = await startAccountApiDevServer({
      store: createAccountStore(),
      verifyToken: createTokenVerifier({ issuer: "http://127.0.0.1:9/pool", clientId: cognito.clientId }),
    });
    try {
      const down = await raw(
        offline.graphqlUrl,
        "POST",
        { "content-type": "application/json", authorization: `Bearer ${tokens[A]!.id}` },
        JSON.stringify({ query: "{ me { id } }" }),
      );
      expect(down.status).toBe(503);
      expect(down.json.errors[0]).toEqual({
        message: "We cannot check your sign-in right now. Nothing was changed. Please try again in a minute.",
        extensions: { code: "UNAVAILABLE" },
      });
    } finally {
      await offline.stop();
    }
  });

  it("answers CORS preflight for the site on loopback only", async () => {
    const ok = await raw(account.graphqlUrl, "OPTIONS", {
      origin: "http://127.0.0.1:4321",
      "access-control-request-method": "POST",
      "access-control-request-headers": "authorization, content-type",
    });
    expect(ok.status).toBe(204);
    expect(ok.headers["access-control-allow-origin"]).toBe("http://127.0.0.1:4321");
    expect(ok.headers["access-control-allow-headers"]).toBe("Authorization, Content-Type");
    // The donation form sends the donor's token to the payments API too.
    const donations = await raw(`${payments.url}/donations`, "OPTIONS", {
      origin: "http://127.0.0.1:4321",
      "access-control-request-method": "POST",
    });
    expect(donations.status).toBe(204);
    expect(donations.headers["access-control-allow-headers"]).toContain("Authorization");
    const elsewhere = await raw(account.graphqlUrl, "OPTIONS", {
      origin: "https://evil.example",
      "access-control-request-method": "POST",
    });
    expect(elsewhere.status).toBe(403);
    expect(elsewhere.headers["access-control-allow-origin"]).toBeUndefined();
  });

  it("knows who is signed in from an ID or an access token", async () => {
    const id = await gql("{ me { id email } }");
    expect(id.status, logged.join("\n")).toBe(200);
    expect(id.json.data.me.email).toBe(A);
    const access = await gql("{ me { id email } }", {}, tokens[A]!.access);
    expect(access.json.data.me).toEqual({ id: id.json.data.me.id, email: null });
  });

  it("lists the donations a signed-in donor made, with receipts and the yearly tax summary", async () => {
    // Financial year 2026 (30 June 2026): zakat $100 with fees covered: ceil((10000 + 30) / 0.983) = 10204.
    const zakat = await donate({ fund: "zakat", amountCents: 10_000, coverFees: true }, "succeeded", tokens[A]!.id);
    // Qurban, a lamb: $450, not tax-deductible.
    await donate(
      { fund: "qurban", amountCents: 45_000, quantity: { count: 1, unitCents: 45_000, optionId: "lamb-australia" } },
      "succeeded",
      tokens[A]!.id,
    );
    // Monthly sadaqah, $25 a month.
    await donate({ fund: "sadaqah", amountCents: 2_500, frequency: "monthly" }, "succeeded", tokens[A]!.id);
    // Another donor's gift must not show in A's account.
    await donate(
      {
        fund: "zakat",
        amountCents: 7_000,
        donor: { firstName: "Bilal", lastName: "Ali", email: B, phone: "0412 345 679" },
      },
      "succeeded",
      tokens[B]!.id,
    );
    // Financial year 2027 (1 July 2026): zakat $50; a sadaqah $30 that failed (no receipt); a fidyah
    // gift made as a guest with A's e-mail (3 days × $15 = $45), which joins A's history by e-mail.
    clock = new Date("2026-07-01T02:00:00Z");
    await donate({ fund: "zakat", amountCents: 5_000 }, "succeeded", tokens[A]!.id);
    await donate({ fund: "sadaqah", amountCents: 3_000 }, "failed", tokens[A]!.id);
    await donate({ fund: "fidyah", amountCents: 4_500, quantity: { count: 3, unitCents: 1_500 } }, "succeeded");

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
      receipt: { totalCents: 10_204, taxDeductible: true, financialYear: 2026 },
    });
    expect(first.receipt.number).toMatch(/^NZF-[0-9A-Z]{4}-[0-9A-Z]{4}$/);
    expect(donations[1].receipt).toBeNull();
    expect(donations[3].regularGiftId).toMatch(/^gift_/);

    const receipts = (await gql("{ receipts { fund totalCents donorName } }")).json.data.receipts;
    expect(receipts).toHaveLength(5);
    // Made out to the name given with each donation.
    expect(receipts.map((r: { donorName: string }) => r.donorName)).toEqual(Array(5).fill("Amina Khan"));

    const fy = `query($y: Int!) { taxSummary(financialYear: $y) { financialYear from to deductibleTotalCents nonDeductibleTotalCents funds { fund totalCents count } receipts { fund } } }`;
    // 2026: zakat 10204 + sadaqah 2500 = 12704 deductible; qurban 45000 not.
    const y2026 = (await gql(fy, { y: 2026 })).json.data.taxSummary;
    expect(y2026).toMatchObject({
      from: "2025-07-01",
      to: "2026-06-30",
      deductibleTotalCents: 12_704,
      nonDeductibleTotalCents: 45_000,
    });
    expect(y2026.funds).toEqual([
      { fund: "zakat", totalCents: 10_204, count: 1 },
      { fund: "sadaqah", totalCents: 2_500, count: 1 },
    ]);
    // 2027: zakat 5000 + fidyah 4500 = 9500; the failed sadaqah counts for nothing.
    const y2027 = (await gql(fy, { y: 2027 })).json.data.taxSummary;
    expect(y2027).toMatchObject({
      from: "2026-07-01",
      to: "2027-06-30",
      deductibleTotalCents: 9_500,
      nonDeductibleTotalCents: 0,
    });
    expect(y2027.receipts.map((r: any) => r.fund)).toEqual(["fidyah", "zakat"]);

    const badYear = await gql(fy, { y: 26 });
    expect(badYear.json.errors[0]).toMatchObject({ extensions: { code: "INVALID_FINANCIAL_YEAR" } });
    expect(badYear.json.errors[0].message).toContain("2026 is 1 July 2025 to 30 June 2026");

    const other = (await gql("{ donations { fund totalCents } }", {}, tokens[B]!.id)).json.data.donations;
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
    const stranger = await run(pause, {}, tokens[B]!.id);
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
    const auth = { authorization: `Bearer ${tokens[A]!.id}` };
    // A client asking for application/graphql-response+json gets 4xx for a request error; one
    // asking only for application/json gets 200 with `errors` (the GraphQL over HTTP spec's legacy rule).
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
      const res = await raw(account.graphqlUrl, "POST", headers, body);
      expect(res.status, `${String(body).slice(0, 60)} → ${res.text}`).toBeGreaterThanOrEqual(400);
      expect(res.status).toBeLessThan(500);
    }
    expect(
      (
        await raw(
          `${account.graphqlUrl}?query=${encodeURIComponent('mutation { pauseRegularGift(id: "x") { changed } }')}`,
          "GET",
          auth,
        )
      ).status,
    ).toBe(405);
    expect((await raw(`${account.url}/%E0%A4%A`, "POST", json, "{}")).status).toBe(400);
    expect((await raw(`${account.url}/elsewhere`, "POST", json, "{}")).status).toBe(404);
    expect((await raw(account.graphqlUrl, "DELETE", auth)).status).toBe(405);
    const legacy = await raw(
      account.graphqlUrl,
      "POST",
      { ...auth, "content-type": "application/json", accept: "application/json" },
      JSON.stringify({ query: "{ nosuchfield }" }),
    );
    expect(legacy.status).toBe(200);
    expect(legacy.json.errors[0].message).toContain("nosuchfield");
    expect((await gql("{ me { email } }")).json.data.me.email).toBe(A);
    expect(logged.filter((line) => line.startsWith("error"))).toEqual([]);
  });
});
