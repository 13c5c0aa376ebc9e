/**
 * The account API inside the payments service: the service's Hono app with /graphql mounted, on
 * the service's database (PGlite from the migrated dump), access tokens from cognito-local. The
 * donations are rows as the service writes them (a donation, its paid charges from the signed
 * webhooks, the receipt it issued), so what is tested is the account's reading of them: by `sub`
 * only, one history row per charge, plans "n of 12", the guest claim, plan choices kept in
 * `account_plans`. Everything over app.fetch with real Requests.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { localPlanProvider } from "../../src/account-api/plan-provider.js";
import { type AccountService, createAccountService } from "../../src/account-api/service.js";
import { createApiApp } from "../../src/api/app.js";
import { corsPolicy } from "../../src/api/cors.js";
import type { ApiDb } from "../../src/api/db/open.js";
import { DEFAULT_FUND_RULES } from "../../src/payments/fund-rules.js";
import { openTestApiDb } from "../support/api-db.js";
import { type CognitoLocal, startCognitoLocal } from "../support/cognito-local.js";
import { setServiceClock } from "../support/service-clock.js";

let cognito: CognitoLocal;
let database: ApiDb;
let account: AccountService;
let app: ReturnType<typeof createApiApp>;
const provider = localPlanProvider();
const tokens: Record<string, { access: string; sub: string }> = {};

async function signUp(email: string) {
  await cognito.call("SignUp", {
    ClientId: cognito.clientId,
    Username: email,
    Password: "long enough",
    UserAttributes: [{ Name: "email", Value: email }],
  });
  await cognito.call("ConfirmSignUp", { ClientId: cognito.clientId, Username: email, ConfirmationCode: cognito.code });
  const auth = await cognito.call<{ AuthenticationResult: { AccessToken: string } }>("InitiateAuth", {
    AuthFlow: "USER_PASSWORD_AUTH",
    ClientId: cognito.clientId,
    AuthParameters: { USERNAME: email, PASSWORD: "long enough" },
  });
  const access = auth.AuthenticationResult.AccessToken;
  tokens[email] = { access, sub: JSON.parse(Buffer.from(access.split(".")[1]!, "base64url").toString()).sub };
}

async function gql(query: string, email: string | null, variables: Record<string, unknown> = {}) {
  const res = await app.fetch(
    new Request("http://service.local/graphql", {
      method: "POST",
      headers: {
        "content-type": "application/json",
        accept: "application/graphql-response+json",
        ...(email ? { authorization: `Bearer ${tokens[email]!.access}` } : {}),
      },
      body: JSON.stringify({ query, variables }),
    }),
  );
  return { status: res.status, json: (await res.json()) as any };
}

const monthly = (start: string, n: number) =>
  Array.from({ length: n }, (_, i) => {
    const [y, m, d] = start.split("-").map(Number) as [number, number, number];
    return { date: new Date(Date.UTC(y, m - 1 + i, d)).toISOString().slice(0, 10), amountCents: 10_000 };
  });

/** A donation row as the service writes it on POST /donations. */
async function insertDonation(row: {
  id: string;
  fund: string;
  frequency: string;
  amount: number;
  status: string;
  email: string;
  sub: string | null;
  schedule: { date: string; amountCents: number }[];
  openEnded?: boolean;
  createdAt: string;
}) {
  const finite = !row.openEnded && row.frequency !== "once";
  await database.db
    .insertInto("donations")
    .values({
      id: row.id,
      reference: `NZF-${row.id.slice(4, 8).toUpperCase()}-TEST`,
      idempotency_key: `key-${row.id}`,
      fund: row.fund,
      frequency: row.frequency,
      intent_type: "payment",
      amount_cents: row.amount,
      fee_cents: 0,
      total_cents: row.amount,
      schedule_total_cents: finite ? row.schedule.reduce((s, c) => s + c.amountCents, 0) : null,
      open_ended: row.openEnded ?? false,
      schedule: JSON.stringify(row.schedule),
      instalments: finite
        ? JSON.stringify({ count: row.schedule.length, giftCents: 120_000, endDate: row.schedule.at(-1)!.date })
        : null,
      status: row.status as "succeeded",
      donor_first_name: "Hafsa",
      donor_last_name: "Noor",
      donor_email: row.email,
      donor_phone: "0412 345 678",
      cover_fees: false,
      client_secret: "pi_secret",
      user_sub: row.sub,
      created_at: new Date(row.createdAt),
      updated_at: new Date(row.createdAt),
    })
    .execute();
}

async function insertCharge(id: string, donationId: string, amount: number, at: string) {
  await database.db
    .insertInto("charges")
    .values({
      id,
      donation_id: donationId,
      amount_cents: amount,
      status: "succeeded",
      charged_at: new Date(at) as never,
    })
    .execute();
}

const HAFSA = "hafsa@example.com";
const OTHER = "omar@example.com";

beforeAll(async () => {
  await setServiceClock(() => new Date("2026-03-20T01:00:00Z"));
  [cognito, database] = await Promise.all([startCognitoLocal(), openTestApiDb()]);
  account = createAccountService({
    db: database.db as never,
    userPoolId: cognito.userPoolId,
    clientId: cognito.clientId,
    endpoint: cognito.endpoint,
    provider,
  });
  app = createApiApp(
    {
      db: database.db,
      stripe: null,
      webhookSecret: "whsec_test",
      paypal: null,
      cors: corsPolicy("loopback"),
      rulesFor: (fund) => DEFAULT_FUND_RULES[fund],
      identifyDonor: account.identifyDonor,
    },
    { graphql: account.graphql },
  );
  await signUp(HAFSA);
  await signUp(OTHER);
  const hafsa = tokens[HAFSA]!.sub;
  // 12 monthly zakat instalments from 15 March 2026: two paid (webhooks wrote the charges).
  await insertDonation({
    id: "don_plan0001",
    fund: "zakat",
    frequency: "monthly-instalments",
    amount: 10_000,
    status: "succeeded",
    email: HAFSA,
    sub: hafsa,
    schedule: monthly("2026-03-15", 12),
    createdAt: "2026-03-15T01:00:00Z",
  });
  await insertCharge("pi_first", "don_plan0001", 10_000, "2026-03-15T01:00:00Z");
  // A sadaqah gift that failed, and a checkout never paid.
  await insertDonation({
    id: "don_fail0001",
    fund: "sadaqah",
    frequency: "once",
    amount: 3_000,
    status: "failed",
    email: HAFSA,
    sub: hafsa,
    schedule: [{ date: "2026-03-16", amountCents: 3_000 }],
    createdAt: "2026-03-16T01:00:00Z",
  });
  await insertDonation({
    id: "don_aban0001",
    fund: "sadaqah",
    frequency: "once",
    amount: 5_000,
    status: "requires_payment_method",
    email: HAFSA,
    sub: hafsa,
    schedule: [{ date: "2026-03-17", amountCents: 5_000 }],
    createdAt: "2026-03-17T01:00:00Z",
  });
  // A guest gift with Hafsa's e-mail, the domain in capitals.
  await insertDonation({
    id: "don_gues0001",
    fund: "fidyah",
    frequency: "once",
    amount: 4_500,
    status: "succeeded",
    email: "hafsa@EXAMPLE.com",
    sub: null,
    schedule: [{ date: "2026-03-18", amountCents: 4_500 }],
    createdAt: "2026-03-18T01:00:00Z",
  });
  await insertCharge("pi_guest", "don_gues0001", 4_500, "2026-03-18T01:00:00Z");
}, 120_000);

afterAll(async () => {
  await database?.close();
  await cognito?.stop();
});

describe("the account API in the payments service", () => {
  it("is mounted at /graphql and refuses guests", async () => {
    const guest = await gql("{ donations { id } }", null);
    expect(guest.status).toBe(401);
    expect(guest.json.errors[0].extensions.code).toBe("UNAUTHENTICATED");
  });

  it("knows the donor of a donation by the access token (identifyDonor)", async () => {
    expect(await account.identifyDonor(`Bearer ${tokens[HAFSA]!.access}`)).toBe(tokens[HAFSA]!.sub);
    expect(await account.identifyDonor("Bearer not-a-token")).toBeNull();
    expect(await account.identifyDonor(undefined)).toBeNull();
  });

  it("reads the donor's plans and charges from the service's tables, by sub only", async () => {
    const res = await gql(
      "{ regularGifts { id schedule paidCount chargeCount nextChargeDate endDate status } donations { id status chargeNumber chargeCount receipt { number } } claimableGuestGifts }",
      HAFSA,
    );
    expect(res.status, JSON.stringify(res.json)).toBe(200);
    expect(res.json.data.regularGifts).toEqual([
      {
        id: "gift_don_plan0001",
        schedule: "monthly-instalments",
        paidCount: 1,
        chargeCount: 12,
        nextChargeDate: "2026-04-15",
        endDate: "2027-02-15",
        status: "ACTIVE",
      },
    ]);
    // The failed gift is history; the checkout never paid is not.
    expect(res.json.data.donations.map((d: { id: string; status: string }) => [d.id, d.status])).toEqual([
      ["don_fail0001", "FAILED"],
      ["don_plan0001", "SUCCEEDED"],
    ]);
    expect(res.json.data.claimableGuestGifts).toBe(1);
    const other = await gql("{ donations { id } regularGifts { id } claimableGuestGifts }", OTHER);
    expect(other.json.data).toEqual({ donations: [], regularGifts: [], claimableGuestGifts: 0 });
    const stranger = await gql(`mutation { pauseRegularGift(id: "gift_don_plan0001") { changed } }`, OTHER);
    expect(stranger.json.errors[0].extensions.code).toBe("GIFT_NOT_FOUND");
  });

  it("a second instalment's charge from the webhook shows as 2 of 12", async () => {
    await insertCharge("in_second", "don_plan0001", 10_000, "2026-04-15T01:00:00Z");
    const res = await gql("{ regularGifts { paidCount nextChargeDate } donations { chargeNumber date } }", HAFSA);
    expect(res.json.data.regularGifts[0]).toEqual({ paidCount: 2, nextChargeDate: "2026-05-15" });
    expect(res.json.data.donations.filter((d: { chargeNumber: number }) => d.chargeNumber === 2)).toEqual([
      { chargeNumber: 2, date: "2026-04-15" },
    ]);
  });

  it("keeps the donor's plan choices in account_plans, after the provider took them", async () => {
    const paused = await gql(
      `mutation { pauseRegularGift(id: "gift_don_plan0001") { changed gift { status } } }`,
      HAFSA,
    );
    expect(paused.json.data.pauseRegularGift).toEqual({ changed: true, gift: { status: "PAUSED" } });
    const row = await database.db
      .withTables<{ account_plans: { donation_id: string; paused: boolean; cancelled: boolean } }>()
      .selectFrom("account_plans")
      .selectAll()
      .executeTakeFirst();
    expect(row).toMatchObject({ donation_id: "don_plan0001", paused: true, cancelled: false });
    expect(provider.calls).toEqual(["pause gift_don_plan0001"]);
    const again = await gql("{ regularGifts { status nextChargeDate } }", HAFSA);
    expect(again.json.data.regularGifts[0]).toEqual({ status: "PAUSED", nextChargeDate: null });
  });

  it("files the guest gift under the account when the donor asks, in the database", async () => {
    const claim = await gql("mutation { claimGuestGifts(confirm: true) { claimed } }", HAFSA);
    expect(claim.json.data.claimGuestGifts.claimed).toBe(1);
    const row = await database.db
      .selectFrom("donations")
      .select("user_sub")
      .where("id", "=", "don_gues0001")
      .executeTakeFirstOrThrow();
    expect(row.user_sub).toBe(tokens[HAFSA]!.sub);
    const res = await gql("{ donations { id } claimableGuestGifts }", HAFSA);
    expect(res.json.data.donations.map((d: { id: string }) => d.id)).toContain("don_gues0001");
    expect(res.json.data.claimableGuestGifts).toBe(0);
  });
});
