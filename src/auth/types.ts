/**
 * Public, browser-safe types shared by the build-time config check (config.ts), the Amplify
 * wrapper (amplify.ts) and the account island. Nothing here is secret: a user pool id and an app
 * client id are public identifiers that every browser sees anyway.
 */

export type AuthFlowType = "USER_SRP_AUTH" | "USER_PASSWORD_AUTH";
export type SameSite = "strict" | "lax" | "none";

/** What the account island needs to talk to the user pool; serialised into the page as island props. */
export interface PublicAuthConfig {
  region: string;
  userPoolId: string;
  userPoolClientId: string;
  identityPoolId?: string;
  /** A user pool endpoint other than Cognito's (cognitoEndpoint: cognito-local under watch mode); absent for a real pool. */
  userPoolEndpoint?: string;
  authFlowType: AuthFlowType;
  cookieDomain?: string;
  sameSite: SameSite;
  secure: boolean;
  /** The account GraphQL API (NZF_ACCOUNT_API_URL); absent: the page says history and gifts cannot be shown. */
  accountApiUrl?: string;
  /** The pool allows MFA (NZF_COGNITO_MFA optional or on); absent when it is off (the default). */
  mfa?: "optional" | "on";
  /** The pool's hosted sign-in domain (NZF_COGNITO_HOSTED_DOMAIN); absent: only the page's own form. */
  hostedDomain?: string;
}

/** Where a sign-in (or sign-up) stands after a call: the island shows the matching step. */
export type SignInStep =
  | { step: "DONE" }
  | { step: "CONFIRM_SIGN_UP"; destination?: string }
  | { step: "NEW_PASSWORD_REQUIRED" }
  | { step: "SMS_CODE"; destination?: string }
  | { step: "TOTP_CODE" }
  | { step: "EMAIL_CODE"; destination?: string }
  | { step: "MFA_SETUP_TOTP"; secret: string; setupUri?: string }
  | { step: "MFA_SETUP_EMAIL" }
  | { step: "MFA_SETUP_SELECTION"; allowed: MfaType[] }
  | { step: "MFA_SELECTION"; allowed: MfaType[] }
  | { step: "CUSTOM_CHALLENGE"; parameters: Record<string, string> }
  | { step: "RESET_PASSWORD" }
  | { step: "UNSUPPORTED"; name: string };

export type MfaType = "SMS" | "TOTP" | "EMAIL";

export type SignUpStep =
  | { step: "DONE" }
  | { step: "CONFIRM_SIGN_UP"; destination?: string }
  | { step: "AUTO_SIGN_IN" };

export type ResetStep = { step: "CONFIRM_RESET_PASSWORD"; destination?: string } | { step: "DONE" };

/** Preferred MFA in Cognito's own names (NOMFA, SMS_MFA, SOFTWARE_TOKEN_MFA, EMAIL_OTP). */
export type MfaPreference = "NOMFA" | "SMS_MFA" | "SOFTWARE_TOKEN_MFA" | "EMAIL_OTP";

export interface AccountDevice {
  id: string;
  name?: string;
  lastSeen?: string;
  /** The device this browser signed in as (its key is the one Amplify keeps for this sign-in). */
  current?: boolean;
}

export interface AccountDetails {
  username: string;
  email?: string;
  emailVerified: boolean;
  phoneNumber?: string;
  phoneNumberVerified: boolean;
  mfaPreference: MfaPreference;
  /** The second steps set up (fetchMFAPreference's `enabled`); absent when none. */
  mfaEnabled?: MfaType[];
  /** null when the pool does not track devices (the call failed with the device-tracking error). */
  devices: AccountDevice[] | null;
}

/**
 * What the island needs from an auth back end. amplify.ts implements it with aws-amplify; the
 * component tests implement it with a scripted fake so every step (including MFA) can be driven.
 */
export interface AuthAdapter {
  currentUser(): Promise<{ username: string } | null>;
  signUp(email: string, password: string): Promise<SignUpStep>;
  confirmSignUp(email: string, code: string): Promise<SignUpStep>;
  resendSignUpCode(email: string): Promise<{ destination?: string }>;
  autoSignIn(): Promise<SignInStep>;
  signIn(email: string, password: string): Promise<SignInStep>;
  /**
   * Only with a hosted sign-in domain: leaves for the pool's hosted sign-in page; the donor comes
   * back signed in to the page that sent them to /account/ (`?return=`, checked) or to this one.
   */
  hostedSignIn?(): Promise<void>;
  confirmSignIn(response: string): Promise<SignInStep>;
  resetPassword(email: string): Promise<ResetStep>;
  confirmResetPassword(email: string, code: string, newPassword: string): Promise<void>;
  loadAccount(): Promise<AccountDetails>;
  /**
   * Signs out here, or (global) everywhere. `complete: false`: the global sign-out worked but this
   * device's refresh token could not be revoked within the retry budget (it lapses by itself).
   */
  signOut(options: { global: boolean }): Promise<void | { complete: boolean }>;
  /**
   * The signed-in donor's ID token for the account API (null when signed out); `forceRefresh`
   * gets a new one from the refresh token (after the API answered 401).
   */
  sessionToken(forceRefresh: boolean): Promise<string | null>;
  /** ChangePassword: the current password, then the new one. */
  changePassword(oldPassword: string, newPassword: string): Promise<void>;
  /** ForgetDevice: this device or another of the donor's remembered devices. */
  forgetDevice(id: string): Promise<void>;
  /** UpdateUserAttributes for e-mail or phone; the pool sends a code to the new address when it must be verified. */
  updateContact(attribute: ContactAttribute, value: string): Promise<{ codeSent: boolean; destination?: string }>;
  /** GetUserAttributeVerificationCode: a (new) code for an address not yet verified. */
  sendContactCode(attribute: ContactAttribute): Promise<{ destination?: string }>;
  /** VerifyUserAttribute with the code the donor received. */
  confirmContact(attribute: ContactAttribute, code: string): Promise<void>;
  /** AssociateSoftwareToken: a new authenticator-app key and its otpauth:// link. */
  setUpTotp(): Promise<{ secret: string; setupUri: string }>;
  /** VerifySoftwareToken with the app's current code; the app is then set up. */
  verifyTotp(code: string): Promise<void>;
  /** SetUserMFAPreference: which second step is preferred (NOMFA turns both off). */
  setMfaPreference(preference: MfaPreference): Promise<void>;
}

export type ContactAttribute = "email" | "phone_number";
