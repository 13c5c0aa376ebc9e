/**
 * Pre-fills the donor's name, e-mail, phone and address from their account when they are signed
 * in (src/auth/signed-in-profile.ts: the session cookie and one GetUser call, no auth library on
 * donation pages). Only empty fields are filled: what the donor typed, or what the form restored
 * from an earlier visit, always wins. Signed out, or the pool unreachable: nothing happens.
 */
import { useEffect } from "react";
import type { FormValues } from "./form-state.js";

export function useSignedInProfile(apply: (fill: (values: FormValues) => FormValues) => void): void {
  useEffect(() => {
    if (!hasAccountSession()) return;
    let live = true;
    // Loaded only for a signed-in donor (signed-in-prefill.ts): everyone else's form does not carry it.
    void import("./signed-in-prefill.js")
      .then((m) => m.profileFill(document.cookie))
      .then((fill) => {
        if (live && fill) apply(fill);
      })
      .catch(() => undefined);
    return () => {
      live = false;
    };
    // Once per page: the profile does not change while the form is open.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);
}

/**
 * Whether the account page left a session in this browser (Amplify's `LastAuthUser` cookie). A
 * signed-in donor's form hydrates at once (src/client/hydrate.ts), so it is filled before they start.
 */
export const hasAccountSession = (): boolean =>
  /(?:^|;\s*)CognitoIdentityServiceProvider\.[^=;]+\.LastAuthUser=/.test(document.cookie);
