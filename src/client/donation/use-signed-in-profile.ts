/**
 * Pre-fills the donor's name, e-mail, phone and address from their account when they are signed
 * in (src/auth/signed-in-profile.ts: the session cookie and one GetUser call, no auth library on
 * donation pages). Only empty fields are filled: what the donor typed, or what the form restored
 * from an earlier visit, always wins. Signed out, or the pool unreachable: nothing happens.
 */
import { useEffect } from "react";
import type { SignedInProfile } from "../../auth/signed-in-profile.js";
import type { FormValues } from "./form-state.js";
import { AU_STATES } from "./states.js";

export function useSignedInProfile(fill: (profile: SignedInProfile) => void): void {
  useEffect(() => {
    if (!hasAccountSession()) return;
    let live = true;
    // Fetched only for a signed-in donor: everyone else's form does not carry this code.
    void import("../../auth/signed-in-profile.js")
      .then((m) => m.fetchSignedInProfile(document.cookie))
      .then((profile) => {
        if (live && profile) fill(profile);
      })
      .catch(() => undefined);
    return () => {
      live = false;
    };
    // Once per page: the profile does not change while the form is open.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);
}

/** The form with the profile's values in the fields that are still empty. */
export function prefilled(values: FormValues, profile: SignedInProfile): FormValues {
  const next = { ...values };
  const put = (key: "firstName" | "lastName" | "email" | "phone" | "line1" | "suburb" | "postcode", value?: string) => {
    if (value && !next[key].trim()) next[key] = value;
  };
  put("firstName", profile.firstName);
  put("lastName", profile.lastName);
  put("email", profile.email);
  put("phone", profile.phone);
  const address = profile.address;
  if (address && !next.line1.trim()) {
    const country = address.country?.toUpperCase();
    // An ISO code; the full country list is loaded lazily by the form, so it is not checked here.
    const known = country && /^[A-Z]{2}$/.test(country) ? country : undefined;
    if (known) next.country = known;
    put("line1", address.line1);
    put("suburb", address.suburb);
    put("postcode", address.postcode);
    const state = address.state?.toUpperCase();
    if (!next.state && state && (next.country !== "AU" || AU_STATES.some(([code]) => code === state)))
      next.state = next.country === "AU" ? state : (address.state ?? "");
  }
  return next;
}

/**
 * Whether the account page left a session in this browser (Amplify's `LastAuthUser` cookie). A
 * signed-in donor's form hydrates at once (src/client/hydrate.ts), so it is filled before they start.
 */
export const hasAccountSession = (): boolean =>
  /(?:^|;\s*)CognitoIdentityServiceProvider\.[^=;]+\.LastAuthUser=/.test(document.cookie);
