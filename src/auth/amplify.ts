/**
 * The one place that talks to aws-amplify (v6, modular imports). The account island imports this
 * file lazily, so only /account loads the library. Tokens live in cookies (365 days, path /,
 * secure: the whole site sees the session, only over https) and nowhere else; SRP is the default flow, USER_PASSWORD_AUTH
 * is for the emulator (which has no SRP).
 */
import { Amplify, type ResourcesConfig } from "aws-amplify";
import {
  autoSignIn,
  confirmResetPassword,
  confirmSignIn,
  confirmSignUp,
  confirmUserAttribute,
  fetchAuthSession,
  fetchDevices,
  fetchMFAPreference,
  fetchUserAttributes,
  forgetDevice,
  getCurrentUser,
  resendSignUpCode,
  resetPassword,
  sendUserAttributeVerificationCode,
  setUpTOTP,
  signIn,
  signOut,
  signUp,
  updateMFAPreference,
  updatePassword,
  updateUserAttribute,
  verifyTOTPSetup,
} from "aws-amplify/auth";
import { cognitoUserPoolsTokenProvider } from "aws-amplify/auth/cognito";
import { CookieStorage, type KeyValueStorageInterface } from "aws-amplify/utils";
import { MIN_PASSWORD_LENGTH, EARLIER_SITE_MESSAGES } from "./messages.js";
import { retryWithBackoff } from "./backoff.js";
import {
  HOSTED_CALLBACK_PATH,
  HOSTED_ERRORS,
  HOSTED_SCOPES,
  HOSTED_SIGN_OUT_TIMEOUT_MS,
  hostedError,
  isHostedAnswer,
  oauthStorageKey,
  returnPathFor,
} from "./hosted-rules.js";
import { cookieNames, invalidatingSessionOn, singlePending, storedSessionKeys } from "./session-guard.js";
import { toMfaPreference, toResetStep, toSignInStep, toSignUpStep } from "./steps.js";
import type { AccountDetails, AuthAdapter, MfaType, PublicAuthConfig } from "./types.js";
import { userPoolCall, userPoolEndpoint } from "./user-pool-call.js";

/** Auth cookies last one year, so a donor who comes back within the year is still signed in. */
export const COOKIE_EXPIRY_DAYS = 365;

/** The token cookies' attributes: 365 days, path / (every page sees the session), secure. */
export function cookieOptionsFor(config: PublicAuthConfig): ConstructorParameters<typeof CookieStorage>[0] {
  return {
    expires: COOKIE_EXPIRY_DAYS,
    path: "/",
    secure: config.secure,
    sameSite: config.sameSite,
    ...(config.cookieDomain ? { domain: config.cookieDomain } : {}),
  };
}

export function cookieStorageFor(config: PublicAuthConfig): CookieStorage {
  return new CookieStorage(cookieOptionsFor(config));
}

/**
 * Amplify's hosted sign-in settings: the pool's hosted domain, and /account/ on this site as the
 * callback and sign-out URL (the app client must list exactly that URL).
 */
function hostedSignInConfig(domain: string) {
  const back = `${location.origin}${HOSTED_CALLBACK_PATH}`;
  return {
    oauth: {
      domain,
      scopes: HOSTED_SCOPES,
      redirectSignIn: [back],
      redirectSignOut: [back],
      responseType: "code" as const,
    },
  };
}

/**
 * `hosted`: include the hosted sign-in (needed to start one, to finish one, and for a sign-out that
 * also ends the hosted session). Amplify finishes a hosted sign-in in progress as soon as it is
 * configured with it, so the page that receives the answer configures it only once it listens.
 */
export function configureAmplify(config: PublicAuthConfig, storage: KeyValueStorageInterface, hosted = false): void {
  const oauth = hosted && config.hostedDomain && typeof location !== "undefined";
  const userPool = {
    userPoolId: config.userPoolId,
    userPoolClientId: config.userPoolClientId,
    ...(config.userPoolEndpoint ? { userPoolEndpoint: config.userPoolEndpoint } : {}),
    loginWith: { email: true, ...(oauth ? hostedSignInConfig(config.hostedDomain!) : {}) },
    signUpVerificationMethod: "code" as const,
    userAttributes: { email: { required: true } },
    mfa: config.mfa ? { status: config.mfa, totpEnabled: true, smsEnabled: true } : { status: "off" as const },
    passwordFormat: {
      minLength: MIN_PASSWORD_LENGTH,
      requireLowercase: false,
      requireUppercase: false,
      requireNumbers: false,
      requireSpecialCharacters: false,
    },
  };
  const auth: ResourcesConfig["Auth"] = config.identityPoolId
    ? { Cognito: { ...userPool, identityPoolId: config.identityPoolId, allowGuestAccess: true } }
    : { Cognito: userPool };
  Amplify.configure({ Auth: auth });
  cognitoUserPoolsTokenProvider.setKeyValueStorage(storage);
}

export function createAmplifyAdapter(config: PublicAuthConfig): AuthAdapter {
  const storage = cookieStorageFor(config);
  // Every cookie this page sees, read when needed (a dead session's cookies are removed by name).
  const listKeys = () => cookieNames(document.cookie);
  // A page that is the hosted sign-in's answer finishes it in currentUser(), listening first.
  let hostedAnswer = Boolean(config.hostedDomain) && typeof location !== "undefined" && isHostedAnswer(location.href);
  const hostedConfigured = () => Boolean(config.hostedDomain) && !hostedAnswer;
  configureAmplify(config, storage, hostedConfigured());
  const authFlowType = config.authFlowType;
  let lastUsername: string | undefined;

  const forgetStoredSession = async (): Promise<void> => {
    for (const key of storedSessionKeys(listKeys(), config.userPoolClientId)) await storage.removeItem(key);
  };

  /** Finishes the hosted sign-in whose answer this page is; goes back to the page it started from. */
  const finishHostedSignIn = async (): Promise<void> => {
    hostedAnswer = false;
    let configured = false;
    const configureWithHostedSignIn = () => {
      configured = true;
      configureAmplify(config, storage, true);
    };
    try {
      const hosted = await import("./hosted-sign-in.js");
      const back = new URL(
        await hosted.completeHostedSignIn(config, { configureWithHostedSignIn, discardSession: forgetStoredSession }),
      );
      if (back.pathname + back.search !== location.pathname + location.search) {
        location.replace(back.href);
        // The page is leaving: nothing more to show here.
        await new Promise(() => {});
      } else if (back.hash !== location.hash) location.replace(back.href);
    } finally {
      if (!configured) configureWithHostedSignIn();
    }
  };

  /** Was this session signed in through the hosted page? Its sign-out then leaves for the hosted sign-out. */
  const hostedSession = () =>
    hostedConfigured() &&
    typeof localStorage !== "undefined" &&
    (localStorage.getItem(oauthStorageKey(config.userPoolClientId, "oauthSignIn")) ?? "").startsWith("true");

  /** A hosted sign-out leaves the page at once when it works: still here after 3 s, it has failed. */
  const leavesWithin = (ms: number) =>
    new Promise<never>((_, reject) => {
      const timer = setTimeout(() => reject(hostedError(HOSTED_ERRORS.signOutTimeout)), ms);
      addEventListener("pagehide", () => clearTimeout(timer), { once: true });
    });

  const clearSession = async (): Promise<void> => {
    await signOut().catch(() => undefined);
    for (const key of storedSessionKeys(listKeys(), config.userPoolClientId)) await storage.removeItem(key);
  };
  const guard = <T>(call: () => Promise<T>) => invalidatingSessionOn(call, clearSession);

  /**
   * GlobalSignOut ends every session of the account (its refresh tokens stop working, and its
   * access tokens at the pool); then this device's refresh token is revoked with RevokeToken,
   * which also revokes the tokens issued from it. Amplify's own global sign-out swallows a failed
   * GlobalSignOut and revokes nothing, so the calls are made here and a failure reaches the donor.
   */
  const signOutEverywhere = async (): Promise<{ complete: boolean }> => {
    const endpoint = userPoolEndpoint(config);
    const accessToken = (await fetchAuthSession()).tokens?.accessToken?.toString();
    const user = await storage.getItem(`CognitoIdentityServiceProvider.${config.userPoolClientId}.LastAuthUser`);
    const refreshToken = user
      ? await storage.getItem(`CognitoIdentityServiceProvider.${config.userPoolClientId}.${user}.refreshToken`)
      : null;
    try {
      if (!accessToken)
        throw Object.assign(new Error(EARLIER_SITE_MESSAGES.notAuthenticated), { name: "NotAuthorizedException" });
      await userPoolCall(endpoint, "GlobalSignOut", { AccessToken: accessToken });
      if (!refreshToken) return { complete: true };
      // RevokeToken retried (./backoff.ts: from 100 ms, doubling, up to 100 ms jitter, 5 s in all): a brief
      // outage must not leave this device's refresh token working after the donor signed out everywhere.
      const revoked = await retryWithBackoff(() =>
        userPoolCall(endpoint, "RevokeToken", { Token: refreshToken, ClientId: config.userPoolClientId }),
      );
      return { complete: revoked.ok };
    } finally {
      await signOut().catch(() => undefined);
    }
  };

  const passwordSignIn = singlePending(async (email: string, password: string) => {
    lastUsername = email;
    return toSignInStep(await signIn({ username: email, password, options: { authFlowType } }), email);
  });

  return {
    async currentUser() {
      if (hostedAnswer) await finishHostedSignIn();
      try {
        const user = await guard(() => getCurrentUser());
        return { username: user.signInDetails?.loginId ?? user.username };
      } catch (error) {
        if ((error as Error).name === "UserUnAuthenticatedException") return null;
        throw error;
      }
    },
    async signUp(email, password) {
      lastUsername = email;
      const out = await signUp({
        username: email,
        password,
        options: { userAttributes: { email }, autoSignIn: { authFlowType } },
      });
      return toSignUpStep(out);
    },
    async confirmSignUp(email, code) {
      return toSignUpStep(await confirmSignUp({ username: email, confirmationCode: code }));
    },
    async resendSignUpCode(email) {
      const out = await resendSignUpCode({ username: email });
      return out.destination ? { destination: out.destination } : {};
    },
    async autoSignIn() {
      return toSignInStep(await autoSignIn(), lastUsername);
    },
    signIn: (email, password) => passwordSignIn(email, password),
    async confirmSignIn(response) {
      if (!response.trim())
        throw Object.assign(new Error(EARLIER_SITE_MESSAGES.emptyChallenge), { name: "EmptyChallengeResponse" });
      return toSignInStep(await confirmSignIn({ challengeResponse: response }), lastUsername);
    },
    async resetPassword(email) {
      return toResetStep(await resetPassword({ username: email }));
    },
    async confirmResetPassword(email, code, newPassword) {
      await confirmResetPassword({ username: email, confirmationCode: code, newPassword });
    },
    loadAccount: () =>
      guard(async () => {
        const account = await loadAccount();
        // Amplify keeps this browser's device key beside the session; that device is "this device".
        const user = await storage.getItem(`CognitoIdentityServiceProvider.${config.userPoolClientId}.LastAuthUser`);
        const key = user
          ? await storage.getItem(`CognitoIdentityServiceProvider.${config.userPoolClientId}.${user}.deviceKey`)
          : null;
        if (key && account.devices)
          account.devices = account.devices.map((d) => (d.id === key ? { ...d, current: true } : d));
        return account;
      }),
    async signOut({ global }) {
      const hosted = hostedSession();
      // A global sign-out that fails (network) must not leave this device signed in.
      try {
        let done = { complete: true };
        if (global) done = await signOutEverywhere();
        else await signOut();
        // Amplify has sent the page to the hosted sign-out, which ends the hosted session too.
        if (hosted) await leavesWithin(HOSTED_SIGN_OUT_TIMEOUT_MS);
        return done;
      } finally {
        for (const key of storedSessionKeys(listKeys(), config.userPoolClientId)) await storage.removeItem(key);
      }
    },
    ...(config.hostedDomain
      ? {
          async hostedSignIn() {
            const hosted = await import("./hosted-sign-in.js");
            await hosted.startHostedSignIn(returnPathFor(location.href));
          },
        }
      : {}),
    async sessionToken(forceRefresh) {
      const session = await guard(() => fetchAuthSession({ forceRefresh }));
      // The account API takes access tokens only: an ID token carries the e-mail, which is never a key to data.
      return session.tokens?.accessToken?.toString() ?? null;
    },
    async changePassword(oldPassword, newPassword) {
      await guard(() => updatePassword({ oldPassword, newPassword }));
    },
    async forgetDevice(id) {
      await guard(() => forgetDevice({ device: { id } }));
    },
    async updateContact(attribute, value) {
      const out = await guard(() => updateUserAttribute({ userAttribute: { attributeKey: attribute, value } }));
      const step = out.nextStep;
      return step.updateAttributeStep === "CONFIRM_ATTRIBUTE_WITH_CODE"
        ? {
            codeSent: true,
            ...(step.codeDeliveryDetails?.destination ? { destination: step.codeDeliveryDetails.destination } : {}),
          }
        : { codeSent: false };
    },
    async sendContactCode(attribute) {
      const out = await guard(() => sendUserAttributeVerificationCode({ userAttributeKey: attribute }));
      return out.destination ? { destination: out.destination } : {};
    },
    async confirmContact(attribute, code) {
      await guard(() => confirmUserAttribute({ userAttributeKey: attribute, confirmationCode: code }));
    },
    async setUpTotp() {
      const details = await guard(() => setUpTOTP());
      const user = await storage.getItem(`CognitoIdentityServiceProvider.${config.userPoolClientId}.LastAuthUser`);
      return {
        secret: details.sharedSecret,
        setupUri: details.getSetupUri("National Zakat Foundation", lastUsername ?? user ?? undefined).toString(),
      };
    },
    async verifyTotp(code) {
      if (!code.trim())
        throw Object.assign(new Error(EARLIER_SITE_MESSAGES.emptyCode), { name: "EmptyVerifyTOTPSetupCode" });
      await guard(() => verifyTOTPSetup({ code: code.trim() }));
    },
    async setMfaPreference(preference) {
      // Only the chosen method is touched (turning SMS on needs a verified number); Off turns both off.
      await guard(() =>
        preference === "SOFTWARE_TOKEN_MFA"
          ? updateMFAPreference({ totp: "PREFERRED" })
          : preference === "SMS_MFA"
            ? updateMFAPreference({ sms: "PREFERRED" })
            : updateMFAPreference({ totp: "DISABLED", sms: "DISABLED" }),
      );
    },
  };
}

async function loadAccount(): Promise<AccountDetails> {
  const [user, attributes, mfa] = await Promise.all([getCurrentUser(), fetchUserAttributes(), fetchMFAPreference()]);
  let devices: AccountDetails["devices"];
  try {
    // The library asks for at most 60 devices, Cognito's largest page; a donor has far fewer.
    devices = (await fetchDevices()).map((d) => ({
      id: d.id,
      ...(d.name ? { name: d.name } : {}),
      ...(d.lastAuthenticatedDate ? { lastSeen: d.lastAuthenticatedDate.toISOString() } : {}),
    }));
  } catch (error) {
    if (
      !/Device tracking|InvalidParameter|ResourceNotFound/.test(`${(error as Error).name} ${(error as Error).message}`)
    )
      throw error;
    devices = null;
  }
  return {
    username: user.signInDetails?.loginId ?? attributes.email ?? user.username,
    ...(attributes.email ? { email: attributes.email } : {}),
    emailVerified: attributes.email_verified === "true",
    ...(attributes.phone_number ? { phoneNumber: attributes.phone_number } : {}),
    phoneNumberVerified: attributes.phone_number_verified === "true",
    mfaPreference: toMfaPreference(mfa.preferred),
    ...(mfa.enabled?.length ? { mfaEnabled: mfa.enabled as MfaType[] } : {}),
    devices,
  };
}
