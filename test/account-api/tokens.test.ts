/**
 * The token checks on their own, with a key pair made here: AWS's verifier (aws-jwt-verify) must
 * take only this pool's access tokens for this app client, and refuse each broken claim once. The
 * pool's JWKS is served by a stand-in of `fetch` (what the verifier fetches it with), so the
 * verifier runs as in production.
 */
import { generateKeyPairSync, sign, type JsonWebKey } from "node:crypto";
import { afterEach, describe, expect, it, vi } from "vitest";
import { financialYearOf } from "../../src/account-api/store.js";
import {
  bearerToken,
  createTokenVerifier,
  KeysUnavailable,
  poolIssuer,
  TokenRejected,
} from "../../src/account-api/tokens.js";

const POOL = "ap-southeast-2_TEST";
const ISSUER = `https://cognito-idp.ap-southeast-2.amazonaws.com/${POOL}`;
const CLIENT = "client-1";
const { privateKey, publicKey } = generateKeyPairSync("rsa", { modulusLength: 2048 });
const other = generateKeyPairSync("rsa", { modulusLength: 2048 });
const jwk = { ...(publicKey.export({ format: "jwk" }) as JsonWebKey), kid: "k1", alg: "RS256", use: "sig" };

const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString("base64url");
function jwt(
  claims: Record<string, unknown>,
  header: Record<string, unknown> = { alg: "RS256", kid: "k1" },
  key = privateKey,
): string {
  const input = `${b64(header)}.${b64(claims)}`;
  return `${input}.${sign("RSA-SHA256", Buffer.from(input), key).toString("base64url")}`;
}
const now = Math.floor(Date.now() / 1000);
const exp = now + 3600;
const access = { sub: "u-1", token_use: "access", client_id: CLIENT, iss: ISSUER, exp, iat: now };
const idToken = {
  sub: "u-1",
  email: "victim@example.com",
  email_verified: true,
  token_use: "id",
  aud: CLIENT,
  iss: ISSUER,
  exp,
  iat: now,
};

/** A verifier of this pool, whose JWKS fetches (recorded in `fetched`) get the test's key. */
function verifier(endpoint?: string) {
  const fetched: string[] = [];
  vi.stubGlobal("fetch", async (url: string | URL) => {
    fetched.push(String(url));
    return Response.json({ keys: [jwk] });
  });
  const verify = createTokenVerifier({ userPoolId: POOL, clientId: CLIENT, ...(endpoint ? { endpoint } : {}) });
  return { verify, fetched };
}
afterEach(() => {
  vi.unstubAllGlobals();
});

describe("user pool access-token verifier (aws-jwt-verify)", () => {
  it("accepts the pool's access token for this client and answers its sub only", async () => {
    const { verify, fetched } = verifier();
    const token = jwt(access);
    expect(await verify(token)).toEqual({ sub: "u-1", accessToken: token });
    expect(fetched).toEqual([`${ISSUER}/.well-known/jwks.json`]);
  });

  it("checks a custom endpoint's issuer (cognito-local) the same way", async () => {
    const endpoint = "http://127.0.0.1:9229";
    const issuer = poolIssuer({ userPoolId: POOL, endpoint });
    expect(issuer).toBe(`${endpoint}/${POOL}`);
    const { verify, fetched } = verifier(endpoint);
    expect((await verify(jwt({ ...access, iss: issuer }))).sub).toBe("u-1");
    expect(fetched).toEqual([`${issuer}/.well-known/jwks.json`]);
    // Cognito's own issuer is not this pool's here, and the other way round.
    await expect(verify(jwt(access))).rejects.toBeInstanceOf(TokenRejected);
    await expect(verifier().verify(jwt({ ...access, iss: issuer }))).rejects.toBeInstanceOf(TokenRejected);
  });

  it.each([
    ["an ID token, even a valid one with a verified e-mail", idToken],
    ["another pool", { ...access, iss: `${ISSUER}x` }],
    ["another app client", { ...access, client_id: "client-2" }],
    ["an access token with the client in aud only", { ...access, client_id: undefined, aud: CLIENT }],
    ["expired", { ...access, exp: now - 60 }],
    ["no expiry", { ...access, exp: undefined }],
    ["no token_use", { ...access, token_use: undefined }],
    ["no sub", { ...access, sub: "" }],
  ])("refuses %s", async (_, claims) => {
    await expect(verifier().verify(jwt(claims))).rejects.toBeInstanceOf(TokenRejected);
  });

  it("refuses forged, unsigned and malformed tokens", async () => {
    const { verify } = verifier();
    await expect(verify(jwt(access, undefined, other.privateKey))).rejects.toBeInstanceOf(TokenRejected);
    await expect(verify(`${b64({ alg: "none", kid: "k1" })}.${b64(access)}.`)).rejects.toBeInstanceOf(TokenRejected);
    await expect(verify(jwt(access, { alg: "HS256", kid: "k1" }))).rejects.toBeInstanceOf(TokenRejected);
    await expect(verify("a.b")).rejects.toBeInstanceOf(TokenRejected);
    await expect(verify("!!.??.##")).rejects.toBeInstanceOf(TokenRejected);
    await expect(verify(jwt(access, { alg: "RS256", kid: "k9" }))).rejects.toBeInstanceOf(TokenRejected);
  });

  it("reports an unreachable JWKS as unavailable, not as a bad token", async () => {
    const verify = createTokenVerifier({
      userPoolId: POOL,
      clientId: CLIENT,
      endpoint: "http://127.0.0.1:9",
    });
    await expect(verify(jwt({ ...access, iss: `http://127.0.0.1:9/${POOL}` }))).rejects.toBeInstanceOf(KeysUnavailable);
  });

  it("reads the bearer token", () => {
    expect(bearerToken("Bearer abc.def.ghi")).toBe("abc.def.ghi");
    expect(bearerToken("bearer  abc")).toBe("abc");
    expect(bearerToken("abc")).toBeUndefined();
    expect(bearerToken("Bearer a b")).toBeUndefined();
    expect(bearerToken(undefined)).toBeUndefined();
  });
});

describe("financial year", () => {
  it("runs 1 July to 30 June and is named by the year it ends", () => {
    expect(financialYearOf("2026-06-30")).toBe(2026);
    expect(financialYearOf("2026-07-01")).toBe(2027);
    expect(financialYearOf("2026-01-15")).toBe(2026);
    expect(financialYearOf("2025-12-31")).toBe(2026);
  });
});
