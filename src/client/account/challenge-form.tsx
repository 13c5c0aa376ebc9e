/**
 * Every sign-in challenge the user pool can return, shown as the right next step: new password
 * required, SMS / TOTP / e-mail code, authenticator (TOTP) or e-mail MFA setup, MFA type selection
 * (for sign-in or for setup) and a custom challenge. The answer is always one `response` value.
 */
import { useIslandId } from "../island-id.js";
import { EARLIER_SITE_MESSAGES } from "../../auth/messages.js";
import type { MfaType, SignInStep } from "../../auth/types.js";
import { Actions, Field, formValues, type FieldErrors } from "./field.js";

export type ChallengeStep = Exclude<SignInStep, { step: "DONE" | "CONFIRM_SIGN_UP" | "RESET_PASSWORD" }>;

export function challengeTitle(step: ChallengeStep): string {
  switch (step.step) {
    case "NEW_PASSWORD_REQUIRED":
      return "Choose a new password";
    case "SMS_CODE":
      return "Enter the code we sent by text message";
    case "TOTP_CODE":
      return "Enter the code from your authenticator app";
    case "EMAIL_CODE":
      return "Enter the code we sent by e-mail";
    case "MFA_SETUP_TOTP":
      return "Set up an authenticator app";
    case "MFA_SETUP_EMAIL":
      return "Add an e-mail address for sign-in codes";
    case "MFA_SETUP_SELECTION":
      return "Choose how to set up sign-in codes";
    case "MFA_SELECTION":
      return "Choose how to receive your sign-in code";
    case "CUSTOM_CHALLENGE":
      return "Answer the security question";
    case "UNSUPPORTED":
      return "This sign-in step is not supported";
  }
}

const MFA_LABELS: Record<MfaType, string> = { SMS: "Text message (SMS)", TOTP: "Authenticator app", EMAIL: "E-mail" };

function MfaChoice({ allowed, errors }: { allowed: MfaType[]; errors: FieldErrors }) {
  const id = useIslandId("mfa");
  const error = errors.response;
  return (
    <fieldset aria-describedby={error ? `${id}-error` : undefined} aria-invalid={error ? true : undefined}>
      <legend>Method</legend>
      {allowed.length === 0 ? (
        <p>
          <strong>Error:</strong> {EARLIER_SITE_MESSAGES.noMfa}. Please contact NZF for help.
        </p>
      ) : null}
      {allowed.map((type) => (
        <div key={type}>
          <input type="radio" id={`${id}-${type}`} name="response" value={type} />
          <label htmlFor={`${id}-${type}`}>{MFA_LABELS[type]}</label>
        </div>
      ))}
      {error ? (
        <p id={`${id}-error`} className="account-field-error">
          <strong>Error:</strong> {error}
        </p>
      ) : null}
    </fieldset>
  );
}

export interface ChallengeFormProps {
  step: ChallengeStep;
  errors: FieldErrors;
  onSubmit: (values: Record<string, string>) => void;
  onCancel: () => void;
}

export function ChallengeForm({ step, errors, onSubmit, onCancel }: ChallengeFormProps) {
  const submit = (event: React.FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    onSubmit(formValues(event.currentTarget));
  };
  const code = <Field name="response" label="Code" inputMode="numeric" autoComplete="one-time-code" errors={errors} />;
  let body: React.ReactNode;
  switch (step.step) {
    case "NEW_PASSWORD_REQUIRED":
      body = (
        <Field
          name="response"
          label="New password"
          type="password"
          autoComplete="new-password"
          hint="At least 8 characters."
          errors={errors}
        />
      );
      break;
    case "SMS_CODE":
    case "EMAIL_CODE":
      body = (
        <>
          {step.destination ? <p>We sent a code to {step.destination}.</p> : null}
          {code}
        </>
      );
      break;
    case "TOTP_CODE":
      body = code;
      break;
    case "MFA_SETUP_TOTP":
      body = (
        <>
          <p>Add this account to your authenticator app with the setup key below, then enter the code the app shows.</p>
          <p>
            Setup key: <code className="account-secret">{step.secret}</code>
          </p>
          {step.setupUri ? (
            <p>
              <a href={step.setupUri}>Open in an authenticator app on this device</a>
            </p>
          ) : null}
          {code}
        </>
      );
      break;
    case "MFA_SETUP_EMAIL":
      body = <Field name="response" label="E-mail address" type="email" autoComplete="email" errors={errors} />;
      break;
    case "MFA_SETUP_SELECTION":
    case "MFA_SELECTION":
      body = <MfaChoice allowed={step.allowed} errors={errors} />;
      break;
    case "CUSTOM_CHALLENGE":
      body = (
        <>
          {step.parameters.question ? <p>{step.parameters.question}</p> : null}
          <Field name="response" label="Answer" autoComplete="off" errors={errors} />
        </>
      );
      break;
    case "UNSUPPORTED":
      return (
        <>
          <p>This account needs a sign-in step this site cannot show yet. Please contact NZF for help.</p>
          <Actions>
            <button type="button" onClick={onCancel}>
              Back to sign in
            </button>
          </Actions>
        </>
      );
  }
  return (
    <form noValidate onSubmit={submit}>
      {body}
      <Actions>
        <button type="submit">Continue</button>
        <button type="button" onClick={onCancel}>
          Cancel sign-in
        </button>
      </Actions>
    </form>
  );
}
