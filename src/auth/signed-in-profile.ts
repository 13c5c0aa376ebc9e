/**
 * A signed-in donor's profile for the donation forms, without the auth library: the account page
 * keeps the session in cookies (`CognitoIdentityServiceProvider.<clientId>.<user>.accessToken`,
 * docs/accounts.md), so a donation page reads the access token from there and asks the user pool
 * for the donor's attributes with one `GetUser` call. The pool's endpoint is the token's issuer
 * minus the pool id (`https://cognito-idp.<region>.amazonaws.com`), which the CSP already allows.
 *
 * Only a live token is used: an expired one (the donor has not opened /account for an hour) is not
 * refreshed here, so the form is simply not pre-filled. Browser-safe; no node: imports.
 */

export interface SignedInProfile {
  firstName?: string;
  lastName?: string;
  email?: string;
  phone?: string;
  address?: { line1?: string; suburb?: string; state?: string; postcode?: string; country?: string };
}

const PREFIX = "CognitoIdentityServiceProvider.";

/** The access token of the last signed-in user in a cookie string, if any. */
export function accessTokenFromCookies(cookieString: string): string | null {
  const cookies = new Map<string, string>();
  for (const part of cookieString.split(";")) {
    const at = part.indexOf("=");
    if (at < 0) continue;
    try {
      cookies.set(decodeURIComponent(part.slice(0, at).trim()), decodeURIComponent(part.slice(at + 1).trim()));
    } catch {
      // a cookie of someone else's making that is not URI-encoded: not ours
    }
  }
  for (const [name, user] of cookies) {
    if (!name.startsWith(PREFIX) || !name.endsWith(".LastAuthUser")) continue;
    const client = name.slice(PREFIX.length, -".LastAuthUser".length);
    const token = cookies.get(`${PREFIX}${client}.${user}.accessToken`);
    if (token) return token;
  }
  return null;
}

/** The token's claims, or null when it is not a JWT. */
export function tokenClaims(token: string): Record<string, unknown> | null {
  const part = token.split(".")[1];
  if (!part) return null;
  try {
    const json = atob(part.replace(/-/g, "+").replace(/_/g, "/"));
    const claims = JSON.parse(new TextDecoder().decode(Uint8Array.from(json, (c) => c.charCodeAt(0)))) as unknown;
    return claims && typeof claims === "object" ? (claims as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

/**
 * The signed-in donor's access token from the cookies when it is still live (a minute to spare, so
 * it does not expire on the way), else null. Sent with a gift (POST /donations) so the service files
 * it under the donor's account; the service checks it, this only avoids sending a dead one.
 */
export function liveAccessToken(cookieString: string): string | null {
  const token = accessTokenFromCookies(cookieString);
  const claims = token ? tokenClaims(token) : null;
  if (!token || !claims || typeof claims.exp !== "number" || claims.exp * 1000 <= Date.now() + 60_000) return null;
  return token;
}

/** The user pool endpoint a token came from: its issuer without the pool id. */
export function endpointOf(claims: Record<string, unknown>): string | null {
  if (typeof claims.iss !== "string") return null;
  try {
    const url = new URL(claims.iss);
    if (url.protocol !== "https:" && !(url.protocol === "http:" && url.hostname === "127.0.0.1")) return null;
    return `${url.origin}${url.pathname.replace(/\/[^/]*$/, "")}/`;
  } catch {
    return null;
  }
}

/** Cognito's attributes as donation form fields. `address` is OIDC's JSON object, or plain text. */
export function profileFromAttributes(attributes: { Name: string; Value: string }[]): SignedInProfile {
  const a = new Map(attributes.map((x) => [x.Name, x.Value]));
  const profile: SignedInProfile = {};
  let first = a.get("given_name");
  let last = a.get("family_name");
  const name = a.get("name")?.trim();
  if (!first && !last && name) {
    const cut = name.lastIndexOf(" ");
    first = cut > 0 ? name.slice(0, cut) : name;
    last = cut > 0 ? name.slice(cut + 1) : undefined;
  }
  if (first) profile.firstName = first;
  if (last) profile.lastName = last;
  if (a.get("email")) profile.email = a.get("email");
  if (a.get("phone_number")) profile.phone = a.get("phone_number");
  const address = a.get("address");
  if (address) {
    try {
      const o = JSON.parse(address) as Record<string, string>;
      profile.address = {
        ...(o.street_address ? { line1: o.street_address } : {}),
        ...(o.locality ? { suburb: o.locality } : {}),
        ...(o.region ? { state: o.region } : {}),
        ...(o.postal_code ? { postcode: o.postal_code } : {}),
        ...(o.country ? { country: o.country } : {}),
      };
    } catch {
      profile.address = { line1: address };
    }
  }
  return profile;
}

/** The signed-in donor's profile, or null (signed out, token expired, pool unreachable). */
export async function fetchSignedInProfile(cookieString: string): Promise<SignedInProfile | null> {
  const token = accessTokenFromCookies(cookieString);
  const claims = token ? tokenClaims(token) : null;
  if (!token || !claims) return null;
  if (typeof claims.exp !== "number" || claims.exp * 1000 <= Date.now()) return null;
  const endpoint = endpointOf(claims);
  if (!endpoint) return null;
  try {
    const response = await fetch(endpoint, {
      method: "POST",
      headers: {
        "Content-Type": "application/x-amz-json-1.1",
        "X-Amz-Target": "AWSCognitoIdentityProviderService.GetUser",
      },
      body: JSON.stringify({ AccessToken: token }),
    });
    if (!response.ok) return null;
    const user = (await response.json()) as { UserAttributes?: { Name: string; Value: string }[] };
    return profileFromAttributes(user.UserAttributes ?? []);
  } catch {
    return null;
  }
}
