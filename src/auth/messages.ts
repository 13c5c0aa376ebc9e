/**
 * Donor-facing text for everything the user pool or the auth library can say. The library's errors carry a Cognito exception name and the service's own
 * message; we map both to a sentence that says what happened and what to do, and never show a raw
 * stack, JSON or an unknown service message. Browser-safe: no node: imports.
 */

/** The validation sentences the earlier site showed, kept word for word so donors and support staff meet the same words. */
export const EARLIER_SITE_MESSAGES = {
  emptyUsername: "Username cannot be empty",
  emptyPassword: "Password cannot be empty",
  emptyCode: "Confirmation code cannot be empty",
  emptyChallenge: "Challenge response cannot be empty",
  signUpError: "Error creating account",
  noMfa: "No valid MFA method provided",
  invalidMfa: "Invalid MFA type",
  invalidUsername: "The username should either be a string or one of the sign in types",
  defaultError: "Authentication Error",
  networkError: "Network Error",
  deviceConfig: "Device tracking has not been configured in this User Pool",
  autoSignIn: "Please use your credentials to sign in",
  notAuthenticated: "User is not authenticated",
  noAccessToken: "No Access token available",
  emptySessionUser: "Failed to get the session because the user is empty",
  invalidOAuthState: "Invalid state in OAuth flow",
  signOutTimeout: "Signout timeout fail",
} as const;

/** Minimum password length, no required character classes: length protects more than forced symbols do. */
export const MIN_PASSWORD_LENGTH = 8;

/** Service messages that mean the stored session is dead: sign out and clean storage. */
export const SESSION_INVALIDATING_MESSAGES = [
  "Access Token has been revoked",
  "Refresh Token has been revoked",
  "User is disabled.",
  "User does not exist.",
  "Refresh Token has expired",
  "Password reset required for the user",
] as const;

export interface DonorError {
  /** The sentence shown to the donor. */
  message: string;
  /** True when the stored session must be signed out and cleared. */
  invalidatesSession: boolean;
  /** Which field the message belongs beside, when it is about one field. */
  field?: "email" | "password" | "code" | "response";
  /** A next step the island can offer (confirm the account, reset the password). */
  next?: "confirm-sign-up" | "reset-password" | "sign-in";
}

export function validateEmail(value: string): string | null {
  const v = value.trim();
  if (!v) return EARLIER_SITE_MESSAGES.emptyUsername;
  if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(v)) return "Enter an e-mail address such as name@example.com.";
  return null;
}

export function validatePassword(value: string): string | null {
  if (!value) return EARLIER_SITE_MESSAGES.emptyPassword;
  if (value.length < MIN_PASSWORD_LENGTH) return `The password must have at least ${MIN_PASSWORD_LENGTH} characters.`;
  return null;
}

export function validateCode(value: string): string | null {
  return value.trim() ? null : EARLIER_SITE_MESSAGES.emptyCode;
}

export function validateChallengeResponse(value: string): string | null {
  return value.trim() ? null : EARLIER_SITE_MESSAGES.emptyChallenge;
}

const TRY_AGAIN_LATER = "Too many attempts. Wait a few minutes, then try again.";

// By Cognito exception (or Amplify validation) name. Messages that depend on the service's text
// (NotAuthorizedException means several things) are handled in describeAuthError.
const BY_NAME: Record<string, Omit<DonorError, "invalidatesSession">> = {
  UsernameExistsException: {
    message: "An account with this e-mail address already exists. Sign in, or reset your password.",
    field: "email",
    next: "sign-in",
  },
  AliasExistsException: {
    message: "An account with this e-mail address already exists. Sign in, or reset your password.",
    field: "email",
    next: "sign-in",
  },
  CodeMismatchException: {
    message: "That code is not correct. Check the e-mail we sent and try again.",
    field: "code",
  },
  ExpiredCodeException: { message: "That code has expired. Ask for a new code and try again.", field: "code" },
  InvalidPasswordException: {
    message: `The password is not accepted: use at least ${MIN_PASSWORD_LENGTH} characters.`,
    field: "password",
  },
  UserNotConfirmedException: {
    message: "Your e-mail address is not confirmed yet. Enter the code we sent you.",
    next: "confirm-sign-up",
  },
  PasswordResetRequiredException: {
    message: "You need to choose a new password. We will send a code to your e-mail address.",
    next: "reset-password",
  },
  UserNotFoundException: { message: "We could not find an account with this e-mail address.", field: "email" },
  LimitExceededException: { message: TRY_AGAIN_LATER },
  TooManyRequestsException: { message: TRY_AGAIN_LATER },
  TooManyFailedAttemptsException: { message: TRY_AGAIN_LATER },
  CodeDeliveryFailureException: { message: "We could not send the code. Check the e-mail address and try again." },
  NetworkError: {
    message: `${EARLIER_SITE_MESSAGES.networkError}: the sign-in service could not be reached. Check your connection and try again.`,
  },
  UserUnAuthenticatedException: { message: "You are signed out. Please sign in.", next: "sign-in" },
  UserAlreadyAuthenticatedException: { message: "You are already signed in on this device." },
  SignInInProgress: { message: "A sign-in is already in progress. Finish it or wait a moment." },
  AutoSignInException: { message: `${EARLIER_SITE_MESSAGES.autoSignIn}.`, next: "sign-in" },
  InvalidDeviceException: { message: `${EARLIER_SITE_MESSAGES.deviceConfig}.` },
  SoftwareTokenMFANotFoundException: { message: "No authenticator app is set up for this account." },
  EnableSoftwareTokenMFAException: {
    message: "That authenticator code is not correct. Try the current code.",
    field: "response",
  },
  InvalidParameterException: { message: "Some details were not accepted. Check them and try again." },
  EmptySignInUsername: { message: EARLIER_SITE_MESSAGES.emptyUsername, field: "email" },
  EmptySignUpUsername: { message: EARLIER_SITE_MESSAGES.emptyUsername, field: "email" },
  EmptyResetPasswordUsername: { message: EARLIER_SITE_MESSAGES.emptyUsername, field: "email" },
  EmptyConfirmSignUpUsername: { message: EARLIER_SITE_MESSAGES.emptyUsername, field: "email" },
  EmptyresendSignUpCodeUsername: { message: EARLIER_SITE_MESSAGES.emptyUsername, field: "email" },
  EmptyConfirmResetPasswordUsername: { message: EARLIER_SITE_MESSAGES.emptyUsername, field: "email" },
  EmptySignInPassword: { message: EARLIER_SITE_MESSAGES.emptyPassword, field: "password" },
  EmptySignUpPassword: { message: EARLIER_SITE_MESSAGES.emptyPassword, field: "password" },
  EmptyConfirmResetPasswordNewPassword: { message: EARLIER_SITE_MESSAGES.emptyPassword, field: "password" },
  EmptyConfirmSignUpCode: { message: EARLIER_SITE_MESSAGES.emptyCode, field: "code" },
  EmptyConfirmResetPasswordConfirmationCode: { message: EARLIER_SITE_MESSAGES.emptyCode, field: "code" },
  EmptyVerifyTOTPSetupCode: { message: EARLIER_SITE_MESSAGES.emptyCode, field: "response" },
  EmptyChallengeResponse: { message: EARLIER_SITE_MESSAGES.emptyChallenge, field: "response" },
  IncorrectMFAMethod: {
    message: `${EARLIER_SITE_MESSAGES.invalidMfa}: choose one of the methods offered.`,
    field: "response",
  },
  // The hosted sign-in (hosted-rules.ts HOSTED_ERRORS): nothing was signed in; the form is shown again.
  InvalidOAuthState: {
    message: `${EARLIER_SITE_MESSAGES.invalidOAuthState}: this answer from the sign-in page does not belong to a sign-in started in this browser, so it was not used. You are not signed in; please sign in again.`,
    next: "sign-in",
  },
  HostedSignInRefused: {
    message:
      "The sign-in page's answer could not be used (it may have expired, or have been used already). You are not signed in; please sign in again.",
    next: "sign-in",
  },
  HostedSignInCancelled: { message: "Sign-in was cancelled. You are not signed in.", next: "sign-in" },
  HostedSignInTimeout: {
    message: "The sign-in page did not finish within 10 seconds. You are not signed in; please try again.",
    next: "sign-in",
  },
  HostedTokensRejected: {
    message:
      "The sign-in service answered with a sign-in that is not for this site, so it was not used. You are not signed in. Please try again, and tell us if it happens again.",
    next: "sign-in",
  },
  SignOutTimeout: {
    message: `${EARLIER_SITE_MESSAGES.signOutTimeout}: the sign-in page did not confirm within 3 seconds that it signed you out there.`,
  },
};

/** Hosted sign-in failures: whatever was stored for it is gone, and the donor signs in again. */
const ENDS_HOSTED_SIGN_IN = new Set([
  "InvalidOAuthState",
  "HostedSignInRefused",
  "HostedSignInCancelled",
  "HostedSignInTimeout",
  "HostedTokensRejected",
]);

// NotAuthorizedException and friends: the service's message tells which case it is.
const BY_MESSAGE: Record<string, Omit<DonorError, "invalidatesSession">> = {
  "Incorrect username or password.": { message: "The e-mail address or password is not correct.", field: "password" },
  "Access Token has been revoked": {
    message: "You were signed out on all devices. Please sign in again.",
    next: "sign-in",
  },
  "Refresh Token has been revoked": {
    message: "You were signed out on all devices. Please sign in again.",
    next: "sign-in",
  },
  "Refresh Token has expired": { message: "Your session has expired. Please sign in again.", next: "sign-in" },
  "Access Token has expired": { message: "Your session has expired. Please sign in again.", next: "sign-in" },
  "User is disabled.": { message: "This account is disabled. Contact NZF if you think this is a mistake." },
  "User does not exist.": { message: "This account no longer exists. You have been signed out.", next: "sign-in" },
  "Password reset required for the user": {
    message: "You need to choose a new password. We will send a code to your e-mail address.",
    next: "reset-password",
  },
  "Invalid session for the user, session is expired.": {
    message: "This step took too long. Please sign in again.",
    next: "sign-in",
  },
  [EARLIER_SITE_MESSAGES.deviceConfig]: { message: `${EARLIER_SITE_MESSAGES.deviceConfig}.` },
  [EARLIER_SITE_MESSAGES.notAuthenticated]: { message: "You are signed out. Please sign in.", next: "sign-in" },
  // The catalogue's own sentences, then what to do.
  [EARLIER_SITE_MESSAGES.signUpError]: {
    message: `${EARLIER_SITE_MESSAGES.signUpError}: the sign-in service did not create it. Nothing was saved; please try again in a moment.`,
  },
  [EARLIER_SITE_MESSAGES.noAccessToken]: {
    message: `${EARLIER_SITE_MESSAGES.noAccessToken}: your sign-in on this device has ended. Please sign in again.`,
    next: "sign-in",
  },
  [EARLIER_SITE_MESSAGES.emptySessionUser]: {
    message: `${EARLIER_SITE_MESSAGES.emptySessionUser}: you are signed out on this device. Please sign in again.`,
    next: "sign-in",
  },
};

function nameAndMessage(error: unknown): { name: string; message: string } {
  if (error && typeof error === "object") {
    const e = error as { name?: unknown; message?: unknown; __type?: unknown };
    const rawName = typeof e.name === "string" ? e.name : typeof e.__type === "string" ? e.__type : "";
    // Cognito's wire format may say "com.amazonaws...#NotAuthorizedException".
    const name = rawName.includes("#") ? rawName.slice(rawName.lastIndexOf("#") + 1) : rawName;
    return { name, message: typeof e.message === "string" ? e.message : "" };
  }
  return { name: "", message: typeof error === "string" ? error : "" };
}

export function invalidatesSession(error: unknown): boolean {
  const { message } = nameAndMessage(error);
  return SESSION_INVALIDATING_MESSAGES.some((m) => message === m || message.startsWith(m));
}

/** Which form the error came from: some exceptions mean different things in different flows. */
export type AuthContext = "sign-in" | "sign-up" | "confirm" | "reset" | "challenge" | "account";

/** Maps anything thrown by the auth library (or our adapter) to text for the donor. */
export function describeAuthError(error: unknown, context?: AuthContext): DonorError {
  const { name, message } = nameAndMessage(error);
  const invalid = invalidatesSession(error) || ENDS_HOSTED_SIGN_IN.has(name);
  // A password policy complaint while signing in only means "wrong password" (some pools and the
  // emulator answer that way); never hint at the policy of an existing password.
  if (context === "sign-in" && name === "InvalidPasswordException")
    return { ...BY_MESSAGE["Incorrect username or password."]!, invalidatesSession: false };
  // Without an account, "not found" on sign-in must not reveal which e-mail addresses exist.
  if (context === "sign-in" && name === "UserNotFoundException" && !invalid)
    return { ...BY_MESSAGE["Incorrect username or password."]!, invalidatesSession: false };
  const byMessage = BY_MESSAGE[message] ?? (message.endsWith(".") ? undefined : BY_MESSAGE[`${message}.`]);
  const found = byMessage ?? BY_NAME[name];
  if (found) return { ...found, invalidatesSession: invalid };
  if (name === "TypeError" && /fetch|network/i.test(message))
    return { ...BY_NAME.NetworkError!, invalidatesSession: false };
  if (name === "NotAuthorizedException")
    return {
      message: "You are not allowed to do this. Please sign in again.",
      invalidatesSession: invalid,
      next: "sign-in",
    };
  // Unknown: never echo a raw service message, stack or JSON.
  return {
    message: `${EARLIER_SITE_MESSAGES.defaultError}: something went wrong. Please try again in a moment.`,
    invalidatesSession: invalid,
  };
}
