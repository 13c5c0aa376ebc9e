/**
 * The donation forms' view of a signed-in donor: the access token found in Amplify's cookies, the
 * pool endpoint from its issuer, Cognito's attributes as form fields, and nothing at all when the
 * token is expired or the pool does not answer. The browser's `fetch` and clock are stood in for.
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import {
  accessTokenFromCookies,
  endpointOf,
  fetchSignedInProfile,
  liveAccessToken,
  profileFromAttributes,
} from "../../src/auth/signed-in-profile.js";

const b64 = (o: unknown) => Buffer.from(JSON.stringify(o)).toString("base64url");
const jwt = (claims: Record<string, unknown>) => `${b64({ alg: "RS256" })}.${b64(claims)}.sig`;
const ISS = "https://cognito-idp.ap-southeast-2.amazonaws.com/ap-southeast-2_Abc123";
const NOW = Date.UTC(2026, 10, 25);
const live = jwt({ iss: ISS, exp: NOW / 1000 + 600, token_use: "access" });

function cookiesFor(token: string, user = "a1b2-c3") {
  const base = "CognitoIdentityServiceProvider.client42";
  return [
    "_ga=GA1.1.1",
    `${encodeURIComponent(`${base}.LastAuthUser`)}=${encodeURIComponent(user)}`,
    `${encodeURIComponent(`${base}.${user}.idToken`)}=other`,
    `${encodeURIComponent(`${base}.${user}.accessToken`)}=${encodeURIComponent(token)}`,
  ].join("; ");
}

afterEach(() => {
  vi.unstubAllGlobals();
  vi.useRealTimers();
});

describe("signed-in profile for the donation forms", () => {
  it("finds the last user's access token in the cookies, and none when signed out", () => {
    expect(accessTokenFromCookies(cookiesFor(live))).toBe(live);
    expect(accessTokenFromCookies("_ga=GA1.1.1; theme=dark")).toBeNull();
    expect(accessTokenFromCookies("")).toBeNull();
  });

  it("gives a gift the token only while it is live, with a minute to spare", () => {
    vi.useFakeTimers({ toFake: ["Date"], now: NOW });
    expect(liveAccessToken(cookiesFor(live))).toBe(live);
    expect(liveAccessToken(cookiesFor(jwt({ iss: ISS, token_use: "access" })))).toBeNull();
    expect(liveAccessToken(cookiesFor("not-a-jwt"))).toBeNull();
    expect(liveAccessToken("_ga=GA1.1.1")).toBeNull();
    vi.setSystemTime(NOW + 541_000);
    expect(liveAccessToken(cookiesFor(live))).toBeNull();
  });

  it("takes the pool endpoint from the issuer; refuses plain http other than loopback", () => {
    expect(endpointOf({ iss: ISS })).toBe("https://cognito-idp.ap-southeast-2.amazonaws.com/");
    expect(endpointOf({ iss: "http://127.0.0.1:9229/local_pool" })).toBe("http://127.0.0.1:9229/");
    expect(endpointOf({ iss: "http://evil.example/pool" })).toBeNull();
    expect(endpointOf({})).toBeNull();
  });

  it("maps given and family names, a full name, phone and an OIDC address", () => {
    expect(
      profileFromAttributes([
        { Name: "email", Value: "amina@example.org" },
        { Name: "given_name", Value: "Amina" },
        { Name: "family_name", Value: "Khan" },
        { Name: "phone_number", Value: "+61412345678" },
        {
          Name: "address",
          Value:
            '{"street_address":"1 Main St","locality":"Lakemba","region":"NSW","postal_code":"2195","country":"AU"}',
        },
      ]),
    ).toEqual({
      firstName: "Amina",
      lastName: "Khan",
      email: "amina@example.org",
      phone: "+61412345678",
      address: { line1: "1 Main St", suburb: "Lakemba", state: "NSW", postcode: "2195", country: "AU" },
    });
    expect(profileFromAttributes([{ Name: "name", Value: "Nur Al Huda" }])).toEqual({
      firstName: "Nur Al",
      lastName: "Huda",
    });
    expect(profileFromAttributes([{ Name: "address", Value: "PO Box 1000" }])).toEqual({
      address: { line1: "PO Box 1000" },
    });
  });

  it("asks GetUser at the token's pool, and gives up quietly when expired or refused", async () => {
    const seen: { url: string; target: string | null; body: string }[] = [];
    const fake = (status: number) =>
      (async (url: string, init: RequestInit) => {
        seen.push({
          url,
          target: new Headers(init.headers).get("x-amz-target"),
          body: String(init.body),
        });
        return new Response(JSON.stringify({ UserAttributes: [{ Name: "email", Value: "amina@example.org" }] }), {
          status,
        });
      }) as unknown as typeof fetch;
    vi.useFakeTimers({ toFake: ["Date"], now: NOW });
    vi.stubGlobal("fetch", fake(200));
    expect(await fetchSignedInProfile(cookiesFor(live))).toEqual({
      email: "amina@example.org",
    });
    expect(seen).toEqual([
      {
        url: "https://cognito-idp.ap-southeast-2.amazonaws.com/",
        target: "AWSCognitoIdentityProviderService.GetUser",
        body: JSON.stringify({ AccessToken: live }),
      },
    ]);
    vi.stubGlobal("fetch", fake(400));
    expect(await fetchSignedInProfile(cookiesFor(live))).toBeNull();
    const expired = jwt({ iss: ISS, exp: NOW / 1000 - 1 });
    vi.stubGlobal("fetch", fake(200));
    expect(await fetchSignedInProfile(cookiesFor(expired))).toBeNull();
    expect(seen).toHaveLength(2);
  });
});
