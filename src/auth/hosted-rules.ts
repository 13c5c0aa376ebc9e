/**
 * The rules of the hosted sign-in (Cognito's hosted pages, authorization code with PKCE), apart
 * from the library that runs it, so they are tested on their own and cost the page nothing: the
 * time limits, where the donor may be sent back to, and which tokens are accepted.
 * Browser-safe, no imports: the account island reads it before the auth library has loaded.
 */

/** Waiting for the hosted sign-in to finish gives up after 10 s: the donor is told, not left waiting. */
export const HOSTED_SIGN_IN_TIMEOUT_MS = 10_000;
/** A hosted sign-out leaves the page at once when it works: still here after 3 s, it has failed. */
export const HOSTED_SIGN_OUT_TIMEOUT_MS = 3_000;
/** The page the hosted sign-in comes back to (the app client's callback and sign-out URL). */
export const HOSTED_CALLBACK_PATH = "/account/";
/**
 * Scopes asked of the hosted sign-in: the ID token's (openid, email, profile) and
 * aws.cognito.signin.user.admin, without which the access token cannot read or change the
 * donor's own account (GetUser, ChangePassword, devices).
 */
export const HOSTED_SCOPES = ["openid", "email", "profile", "aws.cognito.signin.user.admin"];

/** Error names the adapter throws for the hosted sign-in; messages.ts words them for the donor. */
export const HOSTED_ERRORS = {
  invalidState: "InvalidOAuthState",
  refused: "HostedSignInRefused",
  cancelled: "HostedSignInCancelled",
  timeout: "HostedSignInTimeout",
  foreignTokens: "HostedTokensRejected",
  signOutTimeout: "SignOutTimeout",
} as const;

export function hostedError(name: (typeof HOSTED_ERRORS)[keyof typeof HOSTED_ERRORS], detail = ""): Error {
  return Object.assign(new Error(detail || name), { name });
}

/**
 * Where a sign-in may send the donor back to: a page of this site and nothing else. The value is
 * resolved as the browser would resolve it (so "//evil.example", "/\\evil.example" and tabs or
 * line breaks inside "/\t/evil.example" are seen for what they are) and kept only when it stays on
 * this origin. Returns the absolute URL, or null.
 */
export function safeReturnUrl(value: unknown, origin: string): string | null {
  if (typeof value !== "string" || value === "" || value.length > 2000) return null;
  if (!value.startsWith("/")) return null;
  let url: URL;
  try {
    url = new URL(value, origin);
  } catch {
    return null;
  }
  if (url.origin !== origin || (url.protocol !== "https:" && url.protocol !== "http:")) return null;
  // The OAuth answer's own parameters never travel on.
  url.searchParams.delete("code");
  url.searchParams.delete("state");
  return url.href;
}

/**
 * The page a sign-in started from /account/ should come back to: the `return` parameter when
 * another page sent the donor here (/account/?return=/pay/zakat/), else /account/ itself with its
 * section (#regular-gifts).
 */
export function returnPathFor(href: string): string {
  const url = new URL(href);
  const asked = safeReturnUrl(url.searchParams.get("return"), url.origin);
  const target = new URL(asked ?? `${url.origin}${HOSTED_CALLBACK_PATH}${url.hash}`);
  return `${target.pathname}${target.search}${target.hash}`;
}

/** True when this page load is the hosted sign-in's answer (a code or an error, with a state). */
export function isHostedAnswer(href: string): boolean {
  const url = new URL(href);
  const query = url.searchParams;
  return url.pathname === HOSTED_CALLBACK_PATH && query.has("state") && (query.has("code") || query.has("error"));
}

/** The issuer of the pool's tokens: Cognito's URL for a real pool, or the custom endpoint's. */
export function poolIssuer(config: { userPoolId: string; userPoolEndpoint?: string }): string {
  if (config.userPoolEndpoint) return `${config.userPoolEndpoint.replace(/\/+$/, "")}/${config.userPoolId}`;
  const region = config.userPoolId.slice(0, config.userPoolId.lastIndexOf("_"));
  return `https://cognito-idp.${region}.amazonaws.com/${config.userPoolId}`;
}

/**
 * Why the tokens a hosted sign-in brought back must not be used, or null when they may. Checked
 * as OpenID Connect asks of a client (the ID token's issuer and audience) and as Cognito shapes
 * its access tokens (issuer, `token_use`, `client_id`), and neither may have expired: tokens from
 * another pool or another app client (a misconfigured or hostile hosted domain) are refused here,
 * before anything is shown, as the account API refuses them on its side.
 */
export function foreignTokenReason(
  tokens: { idToken?: Record<string, unknown>; accessToken?: Record<string, unknown> },
  config: { userPoolId: string; userPoolClientId: string; userPoolEndpoint?: string },
  nowSeconds: number,
): string | null {
  const issuer = poolIssuer(config);
  const { idToken: id, accessToken: access } = tokens;
  if (!access) return "no access token";
  if (access.iss !== issuer) return `access token issuer ${String(access.iss)}`;
  if (access.token_use !== "access") return "access token token_use";
  if (access.client_id !== config.userPoolClientId) return "access token client_id";
  if (typeof access.exp !== "number" || access.exp <= nowSeconds) return "access token expired";
  if (id) {
    if (id.iss !== issuer) return `ID token issuer ${String(id.iss)}`;
    const aud = Array.isArray(id.aud) ? id.aud : [id.aud];
    if (!aud.includes(config.userPoolClientId)) return "ID token audience";
    if (typeof id.exp !== "number" || id.exp <= nowSeconds) return "ID token expired";
    if (id.sub !== access.sub) return "ID and access tokens name different users";
  }
  return null;
}

/** Amplify's keys for a hosted sign-in in progress (localStorage, beside nothing secret). */
export function oauthStorageKey(clientId: string, key: "inflightOAuth" | "oauthSignIn"): string {
  return `CognitoIdentityServiceProvider.${clientId}.${key}`;
}
