/**
 * Revoked tokens in production: the account service built as `nzf-build api` and the Lambda build
 * it (no test hook), so what refuses a signed-out token is the pool itself (GetUser answers
 * NotAuthorizedException "Access Token has been revoked"), here cognito-local. "Sign out of all
 * devices" (GlobalSignOut) and this device's sign-out (RevokeToken) both make the API refuse the
 * token, within the 5 seconds an accepted token is believed; the payments service then takes a
 * gift with that token as a guest's. And the check itself: a pool that cannot be reached is not a
 * "not revoked".
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createRevocationCheck, REMEMBERED_TOKENS } from "../../src/account-api/revocation.js";
import { type AccountService, createAccountService } from "../../src/account-api/service.js";
import { KeysUnavailable } from "../../src/account-api/tokens.js";
import type { ApiDb } from "../../src/api/db/open.js";
import { openTestApiDb } from "../support/api-db.js";
import { type CognitoLocal, startCognitoLocal } from "../support/cognito-local.js";
import { setServiceClock } from "../support/service-clock.js";

let cognito: CognitoLocal;
let database: ApiDb;
let account: AccountService;
let clock = new Date("2026-03-20T01:00:00Z");

interface Session {
  access: string;
  refresh: string;
}

async function signIn(email: string): Promise<Session> {
  const auth = await cognito.call<{ AuthenticationResult: { AccessToken: string; RefreshToken: string } }>(
    "InitiateAuth",
    {
      AuthFlow: "USER_PASSWORD_AUTH",
      ClientId: cognito.clientId,
      AuthParameters: { USERNAME: email, PASSWORD: "long enough" },
    },
  );
  return { access: auth.AuthenticationResult.AccessToken, refresh: auth.AuthenticationResult.RefreshToken };
}

async function signUp(email: string): Promise<Session> {
  await cognito.call("SignUp", {
    ClientId: cognito.clientId,
    Username: email,
    Password: "long enough",
    UserAttributes: [{ Name: "email", Value: email }],
  });
  await cognito.call("ConfirmSignUp", { ClientId: cognito.clientId, Username: email, ConfirmationCode: cognito.code });
  return signIn(email);
}

const ask = (token: string) =>
  account.graphql.fetch(
    new Request("http://service.local/graphql", {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${token}` },
      body: JSON.stringify({ query: "{ me { id } }" }),
    }),
  );
const later = (ms: number) => {
  clock = new Date(clock.getTime() + ms);
};

beforeAll(async () => {
  await setServiceClock(() => clock);
  [cognito, database] = await Promise.all([startCognitoLocal(), openTestApiDb()]);
  // As accountServiceFromEnv makes it: the pool is asked whether a token was revoked.
  account = createAccountService({
    db: database.db as never,
    userPoolId: cognito.userPoolId,
    clientId: cognito.clientId,
    endpoint: cognito.endpoint,
  });
}, 120_000);

afterAll(async () => {
  await database?.close();
  await cognito?.stop();
});

describe("a revoked token, in production", () => {
  it("sign out of all devices (GlobalSignOut): the API and the payments service refuse the token", async () => {
    const phone = await signUp("amina@example.com");
    const laptop = await signIn("amina@example.com");
    expect((await ask(phone.access)).status).toBe(200);
    expect((await ask(laptop.access)).status).toBe(200);
    await cognito.call("GlobalSignOut", { AccessToken: laptop.access });
    later(6_000);
    for (const token of [phone.access, laptop.access]) {
      const res = await ask(token);
      expect(res.status).toBe(401);
      expect(((await res.json()) as { errors: { message: string }[] }).errors[0]!.message).toMatch(
        /^The user is not authenticated/,
      );
      // A gift given with it is a guest's: never filed under the signed-out account.
      expect(await account.identifyDonor(`Bearer ${token}`)).toBeNull();
    }
    // Its refresh token is refused by the pool too: no new session from it.
    await expect(
      cognito.call("InitiateAuth", {
        AuthFlow: "REFRESH_TOKEN_AUTH",
        ClientId: cognito.clientId,
        AuthParameters: { REFRESH_TOKEN: phone.refresh },
      }),
    ).rejects.toThrow();
    // Signing in again works.
    expect((await ask((await signIn("amina@example.com")).access)).status).toBe(200);
  });

  it("this device's sign-out (RevokeToken): a token never shown before is refused at once", async () => {
    const session = await signUp("omar@example.com");
    await cognito.call("RevokeToken", { Token: session.refresh, ClientId: cognito.clientId });
    expect((await ask(session.access)).status).toBe(401);
  });
});

describe("the revocation check", () => {
  it("asks the pool once per burst, remembers a revoked token, and never calls an unreachable pool a no", async () => {
    let now = 0;
    await setServiceClock(() => new Date(now));
    const asked: string[] = [];
    let answer: "ok" | "revoked" | "down" = "ok";
    const check = createRevocationCheck(async (token) => {
      asked.push(token);
      if (answer === "revoked")
        throw Object.assign(new Error("Access Token has been revoked"), { name: "NotAuthorizedException" });
      if (answer === "down") throw Object.assign(new Error("connect ECONNREFUSED"), { name: "TimeoutError" });
    });
    expect(await check("a")).toBe(false);
    expect(await check("a")).toBe(false);
    expect(asked).toEqual(["a"]);
    now = 5_001;
    answer = "revoked";
    expect(await check("a")).toBe(true);
    answer = "ok";
    expect(await check("a")).toBe(true);
    expect(asked).toEqual(["a", "a"]);
    answer = "down";
    await expect(check("b")).rejects.toBeInstanceOf(KeysUnavailable);
    // Bounded: once as many others are remembered, the oldest is forgotten (and asked about again).
    answer = "ok";
    for (let n = 0; n < REMEMBERED_TOKENS - 1; n++) await check(`t${n}`);
    await check("a");
    expect(asked.at(-1)).toBe(`t${REMEMBERED_TOKENS - 2}`);
    await check("another");
    await check("a");
    expect(asked.slice(-2)).toEqual(["another", "a"]);
  });
});
