import { describe, expect, it } from "vitest";
import { COOKIE_EXPIRY_DAYS, cookieOptionsFor, cookieStorageFor } from "../../src/auth/amplify.js";
import { resolveAuthConfig } from "../../src/auth/config.js";

describe("token cookies", () => {
  it("last one year on path / with Secure, the configured SameSite and domain", () => {
    const config = resolveAuthConfig({
      userPoolId: "ap-southeast-2_AbC123xyz",
      userPoolClientId: "client123",
      cookieDomain: "nzf.org.au",
      sameSite: "strict",
    })!;
    expect(COOKIE_EXPIRY_DAYS).toBe(365);
    expect(cookieOptionsFor(config)).toEqual({
      path: "/",
      expires: 365,
      domain: "nzf.org.au",
      secure: true,
      sameSite: "strict",
    });
    // The library's own checks accept what the build-time check accepted.
    expect(() => cookieStorageFor(config)).not.toThrow();
  });

  it("leave the domain to the browser when none is configured", () => {
    const config = resolveAuthConfig({ userPoolId: "ap-southeast-2_AbC123xyz", userPoolClientId: "client123" })!;
    expect(cookieOptionsFor(config)).toEqual({ path: "/", expires: 365, secure: true, sameSite: "lax" });
  });

  it("sameSite none with secure passes both the build-time check and the library's", () => {
    const config = resolveAuthConfig({
      userPoolId: "ap-southeast-2_AbC123xyz",
      userPoolClientId: "client123",
      sameSite: "none",
    })!;
    expect(() => cookieStorageFor(config)).not.toThrow();
  });
});
