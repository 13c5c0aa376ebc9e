/**
 * The real aws-amplify v6 (in Node) through our adapter against cognito-local: sign up, confirm,
 * auto sign-in, account view, sign out, sign in again, token refresh through the test bridge.
 * The emulator has no SRP, so the flow is USER_PASSWORD_AUTH here.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { fetchAuthSession } from "aws-amplify/auth";
import { createAmplifyAdapter } from "../../src/auth/amplify.js";
import { resolveAuthConfig } from "../../src/auth/config.js";
import { describeAuthError } from "../../src/auth/messages.js";
import type { AuthAdapter } from "../../src/auth/types.js";
import { startCognitoLocal, type CognitoLocal } from "../support/cognito-local.js";
import { pageCookies } from "../support/page-cookies.js";

let cognito: CognitoLocal;
let adapter: AuthAdapter;
const jar = pageCookies();
vi.stubGlobal("document", jar.document);

beforeAll(async () => {
  cognito = await startCognitoLocal();
  const config = resolveAuthConfig({
    userPoolId: cognito.userPoolId,
    userPoolClientId: cognito.clientId,
    userPoolEndpoint: cognito.endpoint,
    authFlowType: "USER_PASSWORD_AUTH",
  });
  adapter = createAmplifyAdapter(config!);
});
afterAll(async () => {
  await cognito?.stop();
  vi.unstubAllGlobals();
  await jar.close();
});

describe("aws-amplify against cognito-local", () => {
  const email = "yusuf@example.org";
  const password = "eight ch";

  it("signs up, confirms with the code and signs in automatically", async () => {
    expect(await adapter.currentUser()).toBeNull();
    expect(await adapter.signUp(email, password)).toMatchObject({ step: "CONFIRM_SIGN_UP" });
    const wrong = await adapter.confirmSignUp(email, "999999").catch((e) => e);
    expect(describeAuthError(wrong).field).toBe("code");
    expect(await adapter.resendSignUpCode(email)).toEqual({ destination: "y***@e***" });
    expect(await adapter.confirmSignUp(email, cognito.code)).toEqual({ step: "AUTO_SIGN_IN" });
    expect(await adapter.autoSignIn()).toEqual({ step: "DONE" });
    expect(await adapter.currentUser()).toEqual({ username: email });
    const keys = jar.names();
    expect(
      keys.some(
        (k) => k.startsWith(`CognitoIdentityServiceProvider.${cognito.clientId}.`) && k.endsWith(".accessToken"),
      ),
    ).toBe(true);
  });

  it("shows the account: e-mail, no MFA, no devices tracked", async () => {
    const account = await adapter.loadAccount();
    // The confirmed sign-up verified the e-mail (the bridge marks it, as Cognito does with
    // AutoVerifiedAttributes email; the emulator alone would not).
    expect(account).toEqual({
      username: email,
      email,
      emailVerified: true,
      phoneNumberVerified: false,
      mfaPreference: "NOMFA",
      // The pool does not track devices: ListDevices answers "Device tracking has not been
      // configured in this User Pool" (through the bridge), which the adapter reports as null.
      devices: null,
    });
    expect(cognito.bridged).toContain("ListDevices");
  });

  it("refreshes tokens through the bridge (the emulator lacks GetTokensFromRefreshToken)", async () => {
    const before = cognito.bridged.filter((a) => a === "GetTokensFromRefreshToken").length;
    const session = await fetchAuthSession({ forceRefresh: true });
    expect(session.tokens?.idToken?.payload.email).toBe(email);
    expect(cognito.bridged.filter((a) => a === "GetTokensFromRefreshToken").length).toBe(before + 1);
  });

  it("signs out of this device and clears the stored tokens", async () => {
    await adapter.signOut({ global: false });
    expect(await adapter.currentUser()).toBeNull();
    expect(jar.names().filter((k) => /accessToken|idToken|refreshToken/.test(k))).toEqual([]);
  });

  it("rejects a wrong password with a clear message, then signs in", async () => {
    const wrong = await adapter.signIn(email, "not the password").catch((e) => e);
    // The emulator answers InvalidPasswordException where Cognito says NotAuthorizedException;
    // both must read as a wrong password on the sign-in form.
    expect(describeAuthError(wrong, "sign-in")).toMatchObject({
      message: "The e-mail address or password is not correct.",
      invalidatesSession: false,
    });
    expect(await adapter.signIn(email, password)).toEqual({ step: "DONE" });
    expect(await adapter.currentUser()).toEqual({ username: email });
    await adapter.signOut({ global: true });
    expect(await adapter.currentUser()).toBeNull();
  });

  it("allows only one pending password sign-in", async () => {
    const first = adapter.signIn(email, password);
    const second = await adapter.signIn(email, password).catch((e) => e);
    expect(describeAuthError(second).message).toBe("A sign-in is already in progress. Finish it or wait a moment.");
    expect(await first).toEqual({ step: "DONE" });
    await adapter.signOut({ global: false });
  });

  it("resets a forgotten password with a code", async () => {
    expect(await adapter.resetPassword(email)).toMatchObject({ step: "CONFIRM_RESET_PASSWORD" });
    await adapter.confirmResetPassword(email, cognito.code, "a new password");
    expect(await adapter.signIn(email, "a new password")).toEqual({ step: "DONE" });
    await adapter.signOut({ global: false });
  });
});
