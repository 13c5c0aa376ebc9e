/** The signed-in view: details, verification state (in words), devices and MFA preference. */
import type { AccountDetails, MfaPreference } from "../../auth/types.js";
import type { AccountApi } from "./account-api.js";
import { Actions } from "./field.js";
import { GivingSection } from "./giving-section.js";

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
  onSignOut: (global: boolean) => void;
}

export function AccountView({ account, api, onSignOut }: AccountViewProps) {
  return (
    <>
      <GivingSection api={api} donorEmail={account.email ?? account.username} />
      <h3>Your details</h3>
      <dl className="account-details">
        <dt>E-mail address</dt>
        <dd>
          {account.email ?? account.username} ({account.emailVerified ? "verified" : "not verified"})
        </dd>
        <dt>Phone number</dt>
        <dd>
          {account.phoneNumber
            ? `${account.phoneNumber} (${account.phoneNumberVerified ? "verified" : "not verified"})`
            : "Not given"}
        </dd>
        <dt>Two-step sign-in</dt>
        <dd>{MFA_TEXT[account.mfaPreference]}</dd>
      </dl>
      <h3>Signed-in devices</h3>
      {account.devices === null ? (
        <p>This site does not keep a list of your devices.</p>
      ) : account.devices.length === 0 ? (
        <p>No remembered devices.</p>
      ) : (
        <ul className="account-devices">
          {account.devices.map((device) => (
            <li key={device.id}>
              {device.name ?? "Unnamed device"}
              {device.lastSeen ? `, last used ${device.lastSeen.slice(0, 10)}` : ""}
            </li>
          ))}
        </ul>
      )}
      <Actions>
        <button type="button" onClick={() => onSignOut(false)}>
          Sign out
        </button>
        <button type="button" onClick={() => onSignOut(true)}>
          Sign out of all devices
        </button>
      </Actions>
    </>
  );
}
