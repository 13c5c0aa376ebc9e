/**
 * Turns the auth library's "next step" objects into our small SignInStep / SignUpStep unions, so
 * the island never depends on the library's types and a new library step shows as UNSUPPORTED
 * (with a clear message) instead of a blank screen. Browser-safe, no library import.
 */
import type { MfaType, ResetStep, SignInStep, SignUpStep } from "./types.js";

interface LibraryCodeDelivery {
  destination?: string;
}

export interface LibrarySignInOutput {
  isSignedIn?: boolean;
  nextStep: {
    signInStep: string;
    codeDeliveryDetails?: LibraryCodeDelivery;
    allowedMFATypes?: string[];
    additionalInfo?: Record<string, string>;
    totpSetupDetails?: { sharedSecret: string; getSetupUri(appName: string, accountName?: string): URL };
  };
}

export interface LibrarySignUpOutput {
  isSignUpComplete?: boolean;
  nextStep: { signUpStep: string; codeDeliveryDetails?: LibraryCodeDelivery };
}

/** The issuer name an authenticator app shows next to the code. */
export const TOTP_ISSUER = "National Zakat Foundation";

function mfaTypes(values: string[] | undefined): MfaType[] {
  return (values ?? []).filter((v): v is MfaType => v === "SMS" || v === "TOTP" || v === "EMAIL");
}

export function toSignInStep(output: LibrarySignInOutput, accountName?: string): SignInStep {
  const next = output.nextStep;
  const destination = next.codeDeliveryDetails?.destination;
  switch (next.signInStep) {
    case "DONE":
      return { step: "DONE" };
    case "CONFIRM_SIGN_UP":
      return { step: "CONFIRM_SIGN_UP" };
    case "RESET_PASSWORD":
      return { step: "RESET_PASSWORD" };
    case "CONFIRM_SIGN_IN_WITH_NEW_PASSWORD_REQUIRED":
      return { step: "NEW_PASSWORD_REQUIRED" };
    case "CONFIRM_SIGN_IN_WITH_SMS_CODE":
      return destination ? { step: "SMS_CODE", destination } : { step: "SMS_CODE" };
    case "CONFIRM_SIGN_IN_WITH_TOTP_CODE":
      return { step: "TOTP_CODE" };
    case "CONFIRM_SIGN_IN_WITH_EMAIL_CODE":
      return destination ? { step: "EMAIL_CODE", destination } : { step: "EMAIL_CODE" };
    case "CONTINUE_SIGN_IN_WITH_TOTP_SETUP": {
      const details = next.totpSetupDetails;
      if (!details) return { step: "UNSUPPORTED", name: next.signInStep };
      return {
        step: "MFA_SETUP_TOTP",
        secret: details.sharedSecret,
        setupUri: details.getSetupUri(TOTP_ISSUER, accountName).toString(),
      };
    }
    case "CONTINUE_SIGN_IN_WITH_EMAIL_SETUP":
      return { step: "MFA_SETUP_EMAIL" };
    case "CONTINUE_SIGN_IN_WITH_MFA_SETUP_SELECTION":
      return { step: "MFA_SETUP_SELECTION", allowed: mfaTypes(next.allowedMFATypes) };
    case "CONTINUE_SIGN_IN_WITH_MFA_SELECTION":
      return { step: "MFA_SELECTION", allowed: mfaTypes(next.allowedMFATypes) };
    case "CONFIRM_SIGN_IN_WITH_CUSTOM_CHALLENGE":
      return { step: "CUSTOM_CHALLENGE", parameters: { ...(next.additionalInfo ?? {}) } };
    default:
      return { step: "UNSUPPORTED", name: next.signInStep };
  }
}

export function toSignUpStep(output: LibrarySignUpOutput): SignUpStep {
  const next = output.nextStep;
  if (next.signUpStep === "CONFIRM_SIGN_UP") {
    const destination = next.codeDeliveryDetails?.destination;
    return destination ? { step: "CONFIRM_SIGN_UP", destination } : { step: "CONFIRM_SIGN_UP" };
  }
  if (next.signUpStep === "COMPLETE_AUTO_SIGN_IN") return { step: "AUTO_SIGN_IN" };
  return { step: "DONE" };
}

export function toResetStep(output: {
  nextStep: { resetPasswordStep: string; codeDeliveryDetails?: LibraryCodeDelivery };
}): ResetStep {
  if (output.nextStep.resetPasswordStep === "DONE") return { step: "DONE" };
  const destination = output.nextStep.codeDeliveryDetails?.destination;
  return destination ? { step: "CONFIRM_RESET_PASSWORD", destination } : { step: "CONFIRM_RESET_PASSWORD" };
}

/** Amplify's preferred MFA type in Cognito's own names; none preferred is NOMFA. */
export function toMfaPreference(
  preferred: string | undefined,
): "NOMFA" | "SMS_MFA" | "SOFTWARE_TOKEN_MFA" | "EMAIL_OTP" {
  if (preferred === "SMS") return "SMS_MFA";
  if (preferred === "TOTP") return "SOFTWARE_TOKEN_MFA";
  if (preferred === "EMAIL") return "EMAIL_OTP";
  return "NOMFA";
}
