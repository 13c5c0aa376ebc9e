/**
 * The donation form's fields from a signed-in donor's profile, loaded only for a donor whose browser
 * has an account session (use-signed-in-profile.ts), so no one else's form carries this code.
 */
import { fetchSignedInProfile, type SignedInProfile } from "../../auth/signed-in-profile.js";
import type { FormValues } from "./form-state.js";
import { AU_STATES } from "./states.js";

/** What to do to the form once the profile is read: null when signed out or the pool is unreachable. */
export async function profileFill(cookie: string): Promise<((values: FormValues) => FormValues) | null> {
  const profile = await fetchSignedInProfile(cookie);
  return profile ? (values) => prefilled(values, profile) : null;
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
