/**
 * The hosted sign-in's rules, attacker first: where a donor may be sent back to after signing in
 * (never off the site, however the address is spelled), and which tokens are refused.
 */
import { describe, expect, it } from "vitest";
import { resolveAuthConfig } from "../../src/auth/config.js";
import {
  foreignTokenReason,
  isHostedAnswer,
  poolIssuer,
  returnPathFor,
  safeReturnUrl,
} from "../../src/auth/hosted-rules.js";
import { describeAuthError, EARLIER_SITE_MESSAGES } from "../../src/auth/messages.js";

const ORIGIN = "https://nzf.org.au";

describe("the return path after a hosted sign-in", () => {
  it.each([
    "https://evil.example/",
    "//evil.example/account/",
    "/\\evil.example/",
    "\\\\evil.example",
    "/\t/evil.example/",
    "/\n/evil.example/",
    "javascript:alert(1)",
    "data:text/html,hi",
    " /account/",
    "",
    "http://nzf.org.au/account/",
  ])("refuses %j", (value) => {
    expect(safeReturnUrl(value, ORIGIN)).toBeNull();
  });

  it("keeps a page of the site, without the OAuth answer's parameters", () => {
    expect(safeReturnUrl("/pay/zakat/?fund=zakat#give", ORIGIN)).toBe("https://nzf.org.au/pay/zakat/?fund=zakat#give");
    expect(safeReturnUrl("/account/?code=abc&state=xyz#regular-gifts", ORIGIN)).toBe(
      "https://nzf.org.au/account/#regular-gifts",
    );
    // A path that looks like a host stays a path on this site.
    expect(safeReturnUrl("/%2F%2Fevil.example/", ORIGIN)).toBe("https://nzf.org.au/%2F%2Fevil.example/");
  });

  it("returns to ?return= when it is on the site, else to /account/ and its section", () => {
    expect(returnPathFor(`${ORIGIN}/account/?return=%2Fpay%2Fzakat%2F`)).toBe("/pay/zakat/");
    expect(returnPathFor(`${ORIGIN}/account/?return=https%3A%2F%2Fevil.example%2F`)).toBe("/account/");
    expect(returnPathFor(`${ORIGIN}/account/?return=%2F%2Fevil.example`)).toBe("/account/");
    expect(returnPathFor(`${ORIGIN}/account/#regular-gifts`)).toBe("/account/#regular-gifts");
  });

  it("knows the hosted sign-in's answer only on /account/ with a state", () => {
    expect(isHostedAnswer(`${ORIGIN}/account/?code=c&state=s`)).toBe(true);
    expect(isHostedAnswer(`${ORIGIN}/account/?error=access_denied&state=s`)).toBe(true);
    expect(isHostedAnswer(`${ORIGIN}/account/?code=c`)).toBe(false);
    expect(isHostedAnswer(`${ORIGIN}/pay/zakat/?code=c&state=s`)).toBe(false);
  });
});

describe("the tokens a hosted sign-in brings back", () => {
  const config = { userPoolId: "ap-southeast-2_Abc123", userPoolClientId: "client1" };
  const iss = "https://cognito-idp.ap-southeast-2.amazonaws.com/ap-southeast-2_Abc123";
  const now = 1_800_000_000;
  const access = { iss, token_use: "access", client_id: "client1", exp: now + 3600, sub: "u1" };
  const id = { iss, aud: "client1", exp: now + 3600, sub: "u1", token_use: "id" };

  it("accepts the pool's own tokens for this app client", () => {
    expect(poolIssuer(config)).toBe(iss);
    expect(poolIssuer({ ...config, userPoolEndpoint: "http://127.0.0.1:9229/" })).toBe(
      "http://127.0.0.1:9229/ap-southeast-2_Abc123",
    );
    expect(foreignTokenReason({ idToken: id, accessToken: access }, config, now)).toBeNull();
  });

  it.each([
    ["another issuer", { accessToken: { ...access, iss: "https://evil.example" }, idToken: id }],
    ["another pool", { accessToken: { ...access, iss: `${iss}x` }, idToken: id }],
    ["an ID token from elsewhere", { accessToken: access, idToken: { ...id, iss: "https://evil.example" } }],
    ["another app client", { accessToken: { ...access, client_id: "client2" }, idToken: id }],
    ["an ID token for another client", { accessToken: access, idToken: { ...id, aud: "client2" } }],
    ["an ID token passed as access token", { accessToken: { ...id, client_id: "client1" }, idToken: id }],
    ["an expired token", { accessToken: { ...access, exp: now }, idToken: id }],
    ["tokens of two users", { accessToken: access, idToken: { ...id, sub: "u2" } }],
    ["no access token", { idToken: id }],
  ])("refuses %s", (_, tokens) => {
    expect(foreignTokenReason(tokens, config, now)).not.toBeNull();
  });
});

describe("the hosted sign-in's settings and messages", () => {
  const pool = { userPoolId: "ap-southeast-2_Abc123", userPoolClientId: "client1" };

  it("takes a domain name or a loopback stand-in, nothing else", () => {
    expect(resolveAuthConfig({ ...pool, hostedDomain: "Auth.NZF.org.au" })?.hostedDomain).toBe("auth.nzf.org.au");
    expect(resolveAuthConfig({ ...pool, hostedDomain: "127.0.0.1:8443" })?.hostedDomain).toBe("127.0.0.1:8443");
    expect(resolveAuthConfig(pool)?.hostedDomain).toBeUndefined();
    for (const bad of [
      "https://auth.nzf.org.au",
      "auth.nzf.org.au/login",
      "evil.example:443",
      "cognito-idp.ap-southeast-2.amazonaws.com",
      "not a domain",
    ])
      expect(() => resolveAuthConfig({ ...pool, hostedDomain: bad }), bad).toThrow(/NZF_COGNITO_HOSTED_DOMAIN/);
    expect(() => resolveAuthConfig({ hostedDomain: "auth.nzf.org.au" })).toThrow(/no user pool/);
  });

  it("says the library's sentences, and sends the donor back to the form", () => {
    const state = describeAuthError(Object.assign(new Error("x"), { name: "InvalidOAuthState" }));
    expect(state.message.startsWith(EARLIER_SITE_MESSAGES.invalidOAuthState)).toBe(true);
    expect(state.message.startsWith("Invalid state in OAuth flow")).toBe(true);
    expect(state.invalidatesSession).toBe(true);
    const out = describeAuthError(Object.assign(new Error("x"), { name: "SignOutTimeout" }));
    expect(out.message.startsWith("Signout timeout fail")).toBe(true);
    for (const name of ["HostedSignInRefused", "HostedSignInTimeout", "HostedTokensRejected", "HostedSignInCancelled"])
      expect(describeAuthError(Object.assign(new Error("invalid_grant"), { name })).message).not.toMatch(
        /invalid_grant|Authentication Error/,
      );
  });
});
