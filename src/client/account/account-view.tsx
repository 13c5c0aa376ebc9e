/**
 * The signed-in view: the donor's giving (history, receipts, tax summary, regular gifts), then
 * their account: who is signed in, password, e-mail and phone, devices, and signing out.
 */
import { useEffect, useRef, useState } from "react";
// Loaded on demand: keeps the framework in its one shared chunk (framework.ts says why).
import "../framework.js";
import type { AccountDetails, AuthAdapter, MfaPreference } from "../../auth/types.js";
import type { AccountApi } from "./account-api.js";
import { Actions } from "./field.js";
import { GivingSection } from "./giving-section.js";
import type { ReceiptIssuer } from "./printable.js";
import { SecuritySection, type SecurityProps } from "./security-section.js";
import { useOnDemand } from "./use-on-demand.js";

const MFA_TEXT: Record<MfaPreference, string> = {
  NOMFA: "Off",
  SMS_MFA: "Text message (SMS)",
  SOFTWARE_TOKEN_MFA: "Authenticator app",
  EMAIL_OTP: "E-mail",
};

export interface AccountViewProps {
  account: AccountDetails;
  /** The account API, or null when this build has none. */
  api: AccountApi | null;
  issuer?: ReceiptIssuer;
  /** Present once the auth library has loaded (always, on this step). */
  adapter: AuthAdapter | null;
  /** Whether the pool allows two-step sign-in (NZF_COGNITO_MFA); off by default. */
  mfa: boolean;
  onChanged: (account: AccountDetails) => void;
  onSessionEnded: (message: string) => void;
  onSignOut: (global: boolean) => void;
}

export function AccountView({
  account,
  api,
  issuer,
  adapter,
  mfa,
  onChanged,
  onSessionEnded,
  onSignOut,
}: AccountViewProps) {
  return (
    <>
      <GivingSection api={api} donorEmail={account.email ?? account.username} issuer={issuer} />
      <h3>Your details</h3>
      <dl className="account-details">
        <dt>Signed in as</dt>
        <dd>{account.email ?? account.username}</dd>
        {mfa ? (
          <>
            <dt>Two-step sign-in</dt>
            <dd>{MFA_TEXT[account.mfaPreference]}</dd>
          </>
        ) : null}
      </dl>
      {adapter ? (
        <SecuritySection account={account} adapter={adapter} onChanged={onChanged} onSessionEnded={onSessionEnded} />
      ) : null}
      {adapter && mfa ? (
        <LazyTwoStep account={account} adapter={adapter} onChanged={onChanged} onSessionEnded={onSessionEnded} />
      ) : null}
      <SignOut onSignOut={onSignOut} />
    </>
  );
}

/**
 * Two-step sign-in, loaded when shown (only pools that allow MFA; the default pool does not):
 * it and the authenticator's QR code stay out of the page's up-front code.
 */
function LazyTwoStep(props: SecurityProps) {
  const loaded = useOnDemand(() => import("./two-step-section.js"));
  if (loaded === null) return <p aria-busy="true">Loading two-step sign-in…</p>;
  if (loaded === "failed")
    return (
      <p role="alert">
        Two-step sign-in could not be shown: this page could not load its code. Reload the page to try again.
      </p>
    );
  const { TwoStepSection } = loaded.value;
  return <TwoStepSection {...props} />;
}

/** Sign out here at once; everywhere only after a question, since every device then needs the password again. */
function SignOut({ onSignOut }: { onSignOut: (global: boolean) => void }) {
  const [asking, setAsking] = useState(false);
  const question = useRef<HTMLParagraphElement>(null);
  useEffect(() => {
    if (asking) question.current?.focus();
  }, [asking]);
  return (
    <>
      <h3>Sign out</h3>
      <p>Sign out of all devices ends every session of your account, on this device and any other.</p>
      {asking ? (
        <div className="account-confirm" role="group" aria-labelledby="account-sign-out-question">
          <p id="account-sign-out-question" ref={question} tabIndex={-1}>
            Sign out of all devices? Every phone and computer signed in to your account, this one too, will need your
            password again.
          </p>
          <Actions>
            <button type="button" onClick={() => onSignOut(true)}>
              Yes, sign out everywhere
            </button>
            <button type="button" onClick={() => setAsking(false)}>
              No, stay signed in
            </button>
          </Actions>
        </div>
      ) : (
        <Actions>
          <button type="button" onClick={() => onSignOut(false)}>
            Sign out
          </button>
          <button type="button" onClick={() => setAsking(true)}>
            Sign out of all devices
          </button>
        </Actions>
      )}
    </>
  );
}
