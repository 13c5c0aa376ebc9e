/**
 * Two-step sign-in, shown only when the pool allows MFA (NZF_COGNITO_MFA optional or on; off by
 * default): set up an authenticator app (AssociateSoftwareToken: a key to type and an
 * otpauth:// link, then VerifySoftwareToken with the app's code) and choose the preferred second
 * step (SetUserMFAPreference: Off, Authenticator app, Text message when the number is verified).
 */
import { useEffect, useRef, useState } from "react";
// Loaded on demand: keeps the framework in its one shared chunk (framework.ts says why).
import "../framework.js";
import { validateCode } from "../../auth/messages.js";
import type { MfaPreference } from "../../auth/types.js";
import { GroupedKey, QrCode } from "./authenticator-key.js";
import { Actions, Field } from "./field.js";
import { Messages, SmallForm, type SecurityProps } from "./security-section.js";
import { useTask } from "./use-task.js";

const CHOICES: { value: MfaPreference; label: string }[] = [
  { value: "NOMFA", label: "Off: sign in with your password only" },
  { value: "SOFTWARE_TOKEN_MFA", label: "Authenticator app" },
  { value: "SMS_MFA", label: "Text message to your phone" },
];

/** What is wrong with a typed authenticator code, said plainly; null when it looks like one. */
export function totpCodeProblem(typed: string): string | null {
  const digits = typed.replace(/[\s-]/g, "");
  if (/\D/.test(digits))
    return "The code is 6 digits only, with no letters: type the number your authenticator app shows.";
  if (digits.length !== 6)
    return `The code has 6 digits; you typed ${digits.length}. Type the whole number your authenticator app shows.`;
  return null;
}

export function TwoStepSection({ account, adapter, onChanged, onSessionEnded }: SecurityProps) {
  const task = useTask(onSessionEnded);
  const [setup, setSetup] = useState<{ secret: string; setupUri: string } | null>(null);
  const codeBox = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (setup) codeBox.current?.querySelector("input")?.focus();
  }, [setup]);
  const hasApp = account.mfaEnabled?.includes("TOTP") ?? false;
  const offered = CHOICES.filter(
    (c) =>
      c.value === "NOMFA" ||
      (c.value === "SOFTWARE_TOKEN_MFA" && hasApp) ||
      (c.value === "SMS_MFA" && account.phoneNumberVerified),
  );
  const reload = async () => onChanged(await adapter.loadAccount());

  return (
    <section className="account-security" aria-labelledby="account-two-step-title">
      <h3 id="account-two-step-title">Two-step sign-in</h3>
      <Messages task={task} />
      {setup ? (
        <SmallForm
          errors={task.errors}
          onSubmit={({ totpCode = "" }) => {
            const problem = validateCode(totpCode.trim()) ?? totpCodeProblem(totpCode);
            if (problem) return task.refuse({ totpCode: problem });
            void task.run(
              async () => {
                await adapter.verifyTotp(totpCode.replace(/[\s-]/g, ""));
                await adapter.setMfaPreference("SOFTWARE_TOKEN_MFA");
                setSetup(null);
                await reload();
                task.setNotice(
                  "Your authenticator app is set up. From now on you will enter its code after your password.",
                );
              },
              // The pool's "code mismatch" is about the app's code here, not an e-mail's.
              (donor) =>
                donor.field === "code" || donor.field === "response"
                  ? {
                      field: "totpCode",
                      message:
                        "That is not the code your authenticator app shows for National Zakat Foundation now. Codes change every 30 seconds: type the 6 digits it shows at this moment. If it never matches, check that the phone's clock is set automatically.",
                    }
                  : undefined,
            );
          }}
        >
          <p>
            Scan this code with your authenticator app (such as Google Authenticator or Microsoft Authenticator), or
            type the key below it.
          </p>
          <QrCode text={setup.setupUri} label="QR code of your authenticator key for National Zakat Foundation" />
          <p>
            Key: <GroupedKey secret={setup.secret} />
          </p>
          <p>
            On this phone you can <a href={setup.setupUri}>open the key in your authenticator app</a> instead.
          </p>
          <p className="account-hint">
            <strong>If you lose your phone:</strong> keep the key above somewhere safe (on paper, or in a password
            manager): it sets the same codes up on a new phone. Without it, contact our donor care team on 1300 975 707
            or info@nzf.org.au; once we have checked it is you, we turn two-step sign-in off so you can sign in with
            your password and set up a new app. The sign-in service has no backup codes.
          </p>
          <div ref={codeBox}>
            <Field
              name="totpCode"
              label="Code from the app"
              inputMode="numeric"
              autoComplete="one-time-code"
              errors={task.errors}
            />
          </div>
          <Actions>
            <button type="submit">Turn on the authenticator app</button>
            <button type="button" onClick={() => setSetup(null)}>
              Cancel
            </button>
          </Actions>
        </SmallForm>
      ) : (
        <>
          <SmallForm
            errors={task.errors}
            onSubmit={({ preference = "" }) => {
              const chosen = offered.find((c) => c.value === preference);
              if (!chosen) return task.refuse({ preference: "Choose how you want to sign in, then press Save." });
              void task.run(async () => {
                await adapter.setMfaPreference(chosen.value);
                await reload();
                task.setNotice(
                  chosen.value === "NOMFA"
                    ? "Two-step sign-in is off. You sign in with your password only."
                    : `Two-step sign-in is on: ${chosen.label.toLowerCase()}.`,
                );
              });
            }}
          >
            <fieldset aria-invalid={task.errors.preference ? true : undefined}>
              <legend>Second step when you sign in</legend>
              {offered.map((c) => (
                <div key={c.value}>
                  <input
                    type="radio"
                    id={`account-mfa-${c.value}`}
                    name="preference"
                    value={c.value}
                    defaultChecked={account.mfaPreference === c.value}
                  />
                  <label htmlFor={`account-mfa-${c.value}`}>{c.label}</label>
                </div>
              ))}
            </fieldset>
            {task.errors.preference ? (
              <p className="account-field-error">
                <strong>Error:</strong> {task.errors.preference}
              </p>
            ) : null}
            <Actions>
              <button type="submit">Save</button>
              <button type="button" onClick={() => void task.run(async () => setSetup(await adapter.setUpTotp()))}>
                {hasApp ? "Set up a new authenticator app" : "Set up an authenticator app"}
              </button>
            </Actions>
          </SmallForm>
        </>
      )}
    </section>
  );
}
