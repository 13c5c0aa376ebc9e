import { describe, expect, it } from "vitest";
import { authOptionsFromEnv, resolveAuthConfig } from "../../src/auth/config.js";
import { NzfError } from "../../src/core/errors.js";

const POOL = "ap-southeast-2_AbC123xyz";
const CLIENT = "3n4b5urk1ft4fl3mg5e62d9ado";

function errorOf(run: () => unknown): NzfError {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(NzfError);
    return error as NzfError;
  }
  throw new Error("expected an error");
}

describe("resolveAuthConfig", () => {
  it("returns null when no user pool is configured, so the build still succeeds", () => {
    expect(resolveAuthConfig({})).toBeNull();
    expect(
      resolveAuthConfig(authOptionsFromEnv({ NZF_COGNITO_USER_POOL_ID: "", NZF_COGNITO_CLIENT_ID: " " })),
    ).toBeNull();
  });

  it("refuses a sign-in setting given without a user pool, naming it, instead of dropping it", () => {
    for (const [variable, value] of [
      ["NZF_COGNITO_MFA", "on"],
      ["NZF_AUTH_FLOW", "USER_PASSWORD_AUTH"],
      ["NZF_COGNITO_REGION", "ap-southeast-2"],
      ["NZF_COOKIE_SECURE", "false"],
      ["NZF_COOKIE_DOMAIN", "nzf.org.au"],
    ]) {
      const error = errorOf(() => resolveAuthConfig(authOptionsFromEnv({ [variable!]: value })));
      expect(error.code).toBe("CONFIG_INVALID");
      expect(error.subject).toBe(variable);
      expect(error.message).toContain(`${variable} is set but no user pool is`);
      expect(error.hint).toContain("NZF_COGNITO_USER_POOL_ID");
    }
  });

  it("applies the defaults: Sydney, lax, secure, SRP", () => {
    expect(resolveAuthConfig({ userPoolId: POOL, userPoolClientId: CLIENT })).toEqual({
      region: "ap-southeast-2",
      userPoolId: POOL,
      userPoolClientId: CLIENT,
      authFlowType: "USER_SRP_AUTH",
      sameSite: "lax",
      secure: true,
    });
  });

  it("requires both ids", () => {
    for (const options of [{ userPoolId: POOL }, { userPoolClientId: CLIENT }]) {
      const error = errorOf(() => resolveAuthConfig(options));
      expect(error.code).toBe("CONFIG_INVALID");
      expect(error.message).toBe("Both UserPoolId and ClientId are required");
    }
  });

  it("rejects a pool id longer than 55 characters or badly shaped", () => {
    const long = "ap-southeast-2_" + "a".repeat(41); // 56 characters
    expect(long).toHaveLength(56);
    const fiftyFive = "ap-southeast-2_" + "a".repeat(40);
    expect(resolveAuthConfig({ userPoolId: fiftyFive, userPoolClientId: CLIENT })?.userPoolId).toBe(fiftyFive);
    for (const userPoolId of [
      long,
      "ap-southeast-2AbC",
      "ap-southeast-2_",
      "_abc",
      "ap-southeast-2_ab-c",
      "ap southeast_abc",
    ]) {
      const error = errorOf(() => resolveAuthConfig({ userPoolId, userPoolClientId: CLIENT }));
      expect(error.message).toBe("Invalid UserPoolId format");
      expect(error.subject).toBe("NZF_COGNITO_USER_POOL_ID");
    }
  });

  it("checks sameSite and secure like the cookie storage does", () => {
    const base = { userPoolId: POOL, userPoolClientId: CLIENT };
    expect(resolveAuthConfig({ ...base, sameSite: "Strict" })?.sameSite).toBe("strict");
    expect(resolveAuthConfig({ ...base, sameSite: "none" })?.sameSite).toBe("none");
    expect(errorOf(() => resolveAuthConfig({ ...base, sameSite: "loose" })).message).toBe(
      'The cookie sameSite value must be "strict", "lax" or "none", not "loose"',
    );
    const none = errorOf(() => resolveAuthConfig({ ...base, sameSite: "none", secure: false }));
    expect(none.message).toBe('Cookie sameSite "none" requires the secure attribute');
    expect(none.subject).toBe("NZF_COOKIE_SAMESITE");
  });

  it("rejects a region that does not match the pool id unless a custom endpoint is set", () => {
    expect(errorOf(() => resolveAuthConfig({ userPoolId: "us-east-1_abc", userPoolClientId: CLIENT })).subject).toBe(
      "NZF_COGNITO_REGION",
    );
    const local = resolveAuthConfig({
      userPoolId: "local_5aB1",
      userPoolClientId: CLIENT,
      userPoolEndpoint: "http://127.0.0.1:9229",
    });
    expect(local?.userPoolEndpoint).toBe("http://127.0.0.1:9229");
    expect(
      errorOf(() =>
        resolveAuthConfig({ userPoolId: POOL, userPoolClientId: CLIENT, userPoolEndpoint: "127.0.0.1:9229" }),
      ).subject,
    ).toBe("NZF_COGNITO_ENDPOINT");
  });

  it("accepts USER_PASSWORD_AUTH and rejects other flows", () => {
    const base = { userPoolId: POOL, userPoolClientId: CLIENT };
    expect(resolveAuthConfig({ ...base, authFlowType: "USER_PASSWORD_AUTH" })?.authFlowType).toBe("USER_PASSWORD_AUTH");
    expect(errorOf(() => resolveAuthConfig({ ...base, authFlowType: "CUSTOM_WITHOUT_SRP" })).subject).toBe(
      "NZF_AUTH_FLOW",
    );
  });

  it("reads every NZF_ variable from the environment", () => {
    const config = resolveAuthConfig(
      authOptionsFromEnv({
        NZF_COGNITO_REGION: "ap-southeast-2",
        NZF_COGNITO_USER_POOL_ID: POOL,
        NZF_COGNITO_CLIENT_ID: CLIENT,
        NZF_COGNITO_IDENTITY_POOL_ID: "ap-southeast-2:1b2c3d4e-0000-1111-2222-333344445555",
        NZF_COOKIE_DOMAIN: "nzf.org.au",
        NZF_COOKIE_SAMESITE: "strict",
        NZF_COOKIE_SECURE: "true",
        NZF_AUTH_FLOW: "USER_PASSWORD_AUTH",
      }),
    );
    expect(config).toEqual({
      region: "ap-southeast-2",
      userPoolId: POOL,
      userPoolClientId: CLIENT,
      identityPoolId: "ap-southeast-2:1b2c3d4e-0000-1111-2222-333344445555",
      cookieDomain: "nzf.org.au",
      sameSite: "strict",
      secure: true,
      authFlowType: "USER_PASSWORD_AUTH",
    });
    expect(authOptionsFromEnv({ NZF_COOKIE_SECURE: "false" }).secure).toBe(false);
    expect(
      errorOf(() =>
        resolveAuthConfig({ userPoolId: POOL, userPoolClientId: CLIENT, cookieDomain: "https://nzf.org.au/" }),
      ).subject,
    ).toBe("NZF_COOKIE_DOMAIN");
  });
});
