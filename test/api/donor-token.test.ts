/**
 * A gift given signed in is filed under the donor's account by the access token sent with
 * POST /donations, checked by the same verifier as /graphql (aws-jwt-verify, set up from the
 * service's NZF_COGNITO_* settings as deployed). The attacks first: a token that is not this pool's
 * access token for this app client, whoever it names, files nothing under anybody; the gift is
 * still taken, as a guest's (the donor can add it to their account later with a verified e-mail).
 *
 * The real service on PGlite, the Stripe stand-in (paid only by its signed webhook), cognito-local.
 */
import { generateKeyPairSync, randomUUID, sign, type KeyObject, createPrivateKey } from "node:crypto";
import { readFile } from "node:fs/promises";
import { resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { donationRequest } from "../support/donation-request.js";
import { type CognitoLocal, startCognitoLocal } from "../support/cognito-local.js";
import {
  startTestPaymentsService,
  TEST_PUBLISHABLE_KEY,
  type TestPaymentsService,
} from "../support/payments-service.js";

let cognito: CognitoLocal;
let service: TestPaymentsService;
const PASSWORD = "long enough phrase";
const VICTIM = "hafsa@example.com";
const ATTACKER = "mallory@example.com";

interface Tokens {
  access: string;
  id: string;
  sub: string;
}

const claimsOf = (token: string) => JSON.parse(Buffer.from(token.split(".")[1]!, "base64url").toString());
const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString("base64url");
function signed(header: Record<string, unknown>, claims: Record<string, unknown>, key: KeyObject): string {
  const input = `${b64(header)}.${b64(claims)}`;
  return `${input}.${sign("RSA-SHA256", Buffer.from(input), key).toString("base64url")}`;
}

async function signUp(email: string, clientId = cognito.clientId): Promise<Tokens> {
  await cognito.call("SignUp", {
    ClientId: clientId,
    Username: email,
    Password: PASSWORD,
    UserAttributes: [{ Name: "email", Value: email }],
  });
  await cognito.call("ConfirmSignUp", { ClientId: clientId, Username: email, ConfirmationCode: cognito.code });
  return signIn(email, clientId);
}

async function signIn(email: string, clientId = cognito.clientId): Promise<Tokens> {
  const auth = await cognito.call<{ AuthenticationResult: { AccessToken: string; IdToken: string } }>("InitiateAuth", {
    AuthFlow: "USER_PASSWORD_AUTH",
    ClientId: clientId,
    AuthParameters: { USERNAME: email, PASSWORD },
  });
  const access = auth.AuthenticationResult.AccessToken;
  return { access, id: auth.AuthenticationResult.IdToken, sub: claimsOf(access).sub };
}

const give = async (authorization?: string) => {
  const res = await fetch(`${service.url}/donations`, {
    method: "POST",
    headers: {
      "Content-Type": "application/json",
      "Idempotency-Key": randomUUID(),
      ...(authorization ? { Authorization: authorization } : {}),
    },
    body: JSON.stringify(
      donationRequest({ donor: { firstName: "M", lastName: "X", email: ATTACKER, phone: "0412 345 678" } }),
    ),
  });
  expect(res.status).toBe(201);
  return (await res.json()) as { donationId: string; clientSecret: string };
};

const subOf = async (donationId: string) =>
  (await service.db.selectFrom("donations").select("user_sub").where("id", "=", donationId).executeTakeFirstOrThrow())
    .user_sub;

/** Pays as Stripe.js would, then waits for the signed webhook to make it paid. */
async function pay(created: { donationId: string; clientSecret: string }) {
  const id = created.clientSecret.split("_secret_")[0]!;
  const res = await fetch(`${service.stripe.url}/v1/payment_intents/${id}/confirm`, {
    method: "POST",
    headers: { "Content-Type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({
      key: TEST_PUBLISHABLE_KEY,
      client_secret: created.clientSecret,
      payment_method: "pm_card_visa",
    }),
  });
  expect(res.status).toBe(200);
  await expect
    .poll(
      async () =>
        ((await (await fetch(`${service.url}/donations/${created.donationId}`)).json()) as { status: string }).status,
    )
    .toBe("succeeded");
}

async function historyOf(tokens: Tokens): Promise<string[]> {
  const res = await fetch(`${service.url}/graphql`, {
    method: "POST",
    headers: {
      "Content-Type": "application/json",
      Accept: "application/graphql-response+json",
      Authorization: `Bearer ${tokens.access}`,
    },
    body: JSON.stringify({ query: "{ donations { id } }" }),
  });
  const json = (await res.json()) as { data: { donations: { id: string }[] } };
  expect(res.status, JSON.stringify(json)).toBe(200);
  return json.data.donations.map((d) => d.id);
}

let victim: Tokens;
let attacker: Tokens;

beforeAll(async () => {
  cognito = await startCognitoLocal();
  service = await startTestPaymentsService({
    env: {
      NZF_COGNITO_USER_POOL_ID: cognito.userPoolId,
      NZF_COGNITO_CLIENT_ID: cognito.clientId,
      NZF_COGNITO_ENDPOINT: cognito.endpoint,
    },
  });
  victim = await signUp(VICTIM);
  attacker = await signUp(ATTACKER);
}, 120_000);

afterAll(async () => {
  await service?.stop();
  await cognito?.stop();
});

describe("POST /donations with a token: attacks", () => {
  it("an access token for another app client of the same pool files nothing", async () => {
    const other = await cognito.call<{ UserPoolClient: { ClientId: string } }>("CreateUserPoolClient", {
      UserPoolId: cognito.userPoolId,
      ClientName: "another-app",
      ExplicitAuthFlows: ["ALLOW_USER_PASSWORD_AUTH", "ALLOW_REFRESH_TOKEN_AUTH"],
    });
    const theirs = await signIn(VICTIM, other.UserPoolClient.ClientId);
    expect(claimsOf(theirs.access).client_id).not.toBe(cognito.clientId);
    const created = await give(`Bearer ${theirs.access}`);
    expect(await subOf(created.donationId)).toBeNull();
    await pay(created);
    expect(await historyOf(victim)).not.toContain(created.donationId);
  });

  it("a valid access token of someone else's pool (same keys, another issuer) files nothing", async () => {
    const pool = await cognito.call<{ UserPool: { Id: string } }>("CreateUserPool", {
      PoolName: "someone-else",
      UsernameAttributes: ["email"],
      Policies: { PasswordPolicy: { MinimumLength: 8 } },
    });
    const client = await cognito.call<{ UserPoolClient: { ClientId: string } }>("CreateUserPoolClient", {
      UserPoolId: pool.UserPool.Id,
      ClientName: "their-site",
      ExplicitAuthFlows: ["ALLOW_USER_PASSWORD_AUTH"],
    });
    const theirs = await signUp(ATTACKER, client.UserPoolClient.ClientId);
    expect(claimsOf(theirs.access).iss).not.toBe(cognito.issuer);
    // Signed by the same key as this pool's tokens: only the issuer tells them apart, and it does.
    const created = await give(`Bearer ${theirs.access}`);
    expect(await subOf(created.donationId)).toBeNull();
  });

  it("forged tokens naming the victim file nothing, even when paid", async () => {
    const [header, , signature] = attacker.access.split(".");
    const swapped = `${header}.${b64({ ...claimsOf(attacker.access), sub: victim.sub })}.${signature}`;
    const own = generateKeyPairSync("rsa", { modulusLength: 2048 }).privateKey;
    const ownKey = signed(
      JSON.parse(Buffer.from(header!, "base64url").toString()),
      { ...claimsOf(attacker.access), sub: victim.sub },
      own,
    );
    const unsigned = `${b64({ alg: "none", kid: "CognitoLocal" })}.${b64({ ...claimsOf(victim.access) })}.`;
    for (const token of [swapped, ownKey, unsigned]) {
      const created = await give(`Bearer ${token}`);
      expect(await subOf(created.donationId)).toBeNull();
      if (token === swapped) await pay(created);
    }
    expect(await historyOf(victim)).toEqual([]);
    expect(await historyOf(attacker)).toEqual([]);
  });

  it("an ID token, an expired access token and a malformed header file nothing", async () => {
    // cognito-local's signing key is published with it: an expired token signed by "the pool".
    const jwk = JSON.parse(
      await readFile(
        resolve(import.meta.dirname, "../../node_modules/cognito-local/lib/keys/cognitoLocal.private.json"),
        "utf8",
      ),
    ).jwk;
    const poolKey = createPrivateKey({ key: jwk, format: "jwk" });
    const now = Math.floor(Date.now() / 1000);
    const expired = signed(
      { alg: "RS256", kid: "CognitoLocal" },
      { ...claimsOf(victim.access), iat: now - 7200, exp: now - 3600 },
      poolKey,
    );
    // The same key and claims, not expired: the forgery above differs only by its expiry.
    const fresh = signed({ alg: "RS256", kid: "CognitoLocal" }, { ...claimsOf(victim.access) }, poolKey);
    for (const authorization of [
      `Bearer ${victim.id}`,
      `Bearer ${expired}`,
      `Basic ${victim.access}`,
      "Bearer",
      `Bearer ${"a".repeat(8000)}`,
    ]) {
      const created = await give(authorization);
      expect(await subOf(created.donationId), authorization.slice(0, 30)).toBeNull();
    }
    expect(await subOf((await give(`Bearer ${fresh}`)).donationId)).toBe(victim.sub);
  });
});

describe("POST /donations with the donor's own token", () => {
  it("files the gift under the donor's sub only, and it shows in their history once the webhook says paid", async () => {
    const created = await give(`Bearer ${attacker.access}`);
    expect(await subOf(created.donationId)).toBe(attacker.sub);
    // Not paid yet: not history.
    expect(await historyOf(attacker)).not.toContain(created.donationId);
    await pay(created);
    expect(await historyOf(attacker)).toContain(created.donationId);
    expect(await historyOf(victim)).not.toContain(created.donationId);
  });

  it("a replay of the same request answers the first donation, whoever's token it carries", async () => {
    const key = randomUUID();
    const body = JSON.stringify(donationRequest());
    const post = (token: string) =>
      fetch(`${service.url}/donations`, {
        method: "POST",
        headers: { "Content-Type": "application/json", "Idempotency-Key": key, Authorization: `Bearer ${token}` },
        body,
      });
    const first = (await (await post(victim.access)).json()) as { donationId: string };
    const again = (await (await post(attacker.access)).json()) as { donationId: string };
    expect(again.donationId).toBe(first.donationId);
    expect(await subOf(first.donationId)).toBe(victim.sub);
  });
});
