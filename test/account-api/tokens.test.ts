/**
 * The token checks on their own, with a key pair made here: each claim the Cognito authorizer
 * checks is broken once and must be refused.
 */
import { generateKeyPairSync, sign, type JsonWebKey } from "node:crypto";
import { describe, expect, it } from "vitest";
import { financialYearOf } from "../../src/account-api/store.js";
import { bearerToken, createTokenVerifier, KeysUnavailable, TokenRejected } from "../../src/account-api/tokens.js";

const ISSUER = "https://cognito-idp.ap-southeast-2.amazonaws.com/ap-southeast-2_TEST";
const CLIENT = "client-1";
const NOW = new Date("2026-06-30T02:00:00Z");
const { privateKey, publicKey } = generateKeyPairSync("rsa", { modulusLength: 2048 });
const other = generateKeyPairSync("rsa", { modulusLength: 2048 });
const jwk = { ...(publicKey.export({ format: "jwk" }) as JsonWebKey), kid: "k1" };

const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString("base64url");
function jwt(
  claims: Record<string, unknown>,
  header: Record<string, unknown> = { alg: "RS256", kid: "k1" },
  key = privateKey,
): string {
  const input = `${b64(header)}.${b64(claims)}`;
  return `${input}.${sign("RSA-SHA256", Buffer.from(input), key).toString("base64url")}`;
}
const exp = Math.floor(NOW.getTime() / 1000) + 3600;
const idClaims = { sub: "u-1", email: "Amina@Example.com", token_use: "id", aud: CLIENT, iss: ISSUER, exp };

function verifier() {
  const fetched: string[] = [];
  const verify = createTokenVerifier({
    issuer: ISSUER,
    clientId: CLIENT,
    now: () => NOW,
    fetchJwks: async (url) => (fetched.push(url), { keys: [jwk] }),
  });
  return { verify, fetched };
}

describe("user pool token verifier", () => {
  it("accepts the pool's ID and access tokens for this client", async () => {
    const { verify, fetched } = verifier();
    expect(await verify(jwt(idClaims))).toEqual({ sub: "u-1", email: "amina@example.com", tokenUse: "id" });
    expect(await verify(jwt({ sub: "u-1", token_use: "access", client_id: CLIENT, iss: ISSUER, exp }))).toEqual({
      sub: "u-1",
      email: undefined,
      tokenUse: "access",
    });
    expect(fetched).toEqual([`${ISSUER}/.well-known/jwks.json`]);
  });

  it.each([
    ["another pool", { ...idClaims, iss: `${ISSUER}x` }],
    ["another app client", { ...idClaims, aud: "client-2" }],
    [
      "an access token for another client",
      { sub: "u-1", token_use: "access", client_id: "client-2", iss: ISSUER, exp },
    ],
    ["expired", { ...idClaims, exp: Math.floor(NOW.getTime() / 1000) }],
    ["no expiry", { ...idClaims, exp: undefined }],
    ["a refresh-like token with no token_use", { ...idClaims, token_use: undefined }],
    ["no sub", { ...idClaims, sub: "" }],
  ])("refuses %s", async (_, claims) => {
    await expect(verifier().verify(jwt(claims))).rejects.toBeInstanceOf(TokenRejected);
  });

  it("refuses forged, unsigned and malformed tokens", async () => {
    const { verify, fetched } = verifier();
    await expect(verify(jwt(idClaims, undefined, other.privateKey))).rejects.toThrow("bad signature");
    await expect(verify(`${b64({ alg: "none" })}.${b64(idClaims)}.`)).rejects.toThrow("alg none is not RS256");
    await expect(verify("a.b")).rejects.toThrow("not a JWT");
    await expect(verify("!!.??.##")).rejects.toThrow("not a JWT");
    await expect(verify(`${b64([1])}.${b64(idClaims)}.x`)).rejects.toThrow("not a JWT");
    // An unknown key id refetches the JWKS, but not again within a minute.
    await expect(verify(jwt(idClaims, { alg: "RS256", kid: "k9" }))).rejects.toThrow("no key k9");
    await expect(verify(jwt(idClaims, { alg: "RS256", kid: "k8" }))).rejects.toThrow("no key k8");
    expect(fetched).toHaveLength(1);
  });

  it("reports an unreachable JWKS as unavailable, not as a bad token", async () => {
    const verify = createTokenVerifier({
      issuer: ISSUER,
      clientId: CLIENT,
      now: () => NOW,
      fetchJwks: async () => Promise.reject(new Error("ECONNREFUSED")),
    });
    await expect(verify(jwt(idClaims))).rejects.toBeInstanceOf(KeysUnavailable);
  });

  it("reads the bearer token", () => {
    expect(bearerToken("Bearer abc.def.ghi")).toBe("abc.def.ghi");
    expect(bearerToken("bearer  abc")).toBe("abc");
    expect(bearerToken("abc")).toBe("abc");
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
