/**
 * Build-time check of the user pool configuration, so a mistyped pool fails the build rather than
 * the first donor's sign-in. It runs once,
 * when the build starts, and turns options or environment variables into the public config that
 * the account island receives as props. A build with no user pool configured is allowed: it
 * returns null and the account page says that sign-in is unavailable.
 *
 * This file never runs in the browser; it is still free of node: imports, so any caller (a tool,
 * a worker) can use it.
 */
import { NzfError } from "../core/errors.js";
import type { AuthFlowType, PublicAuthConfig, SameSite } from "./types.js";

export interface AuthConfigOptions {
  region?: string;
  userPoolId?: string;
  userPoolClientId?: string;
  identityPoolId?: string;
  userPoolEndpoint?: string;
  cookieDomain?: string;
  sameSite?: string;
  secure?: boolean;
  authFlowType?: string;
  /** NZF_ACCOUNT_API_URL: the account GraphQL API (docs/account-api.md). */
  accountApiUrl?: string;
  /** NZF_COGNITO_MFA: off, optional or on, as the pool is set. */
  mfa?: string;
  /** NZF_COGNITO_HOSTED_DOMAIN: the pool's hosted sign-in domain (host, optionally with a port). */
  hostedDomain?: string;
}

/** Default region: Asia-Pacific (Sydney). */
export const DEFAULT_REGION = "ap-southeast-2";
/** Cognito's longest user pool id: anything longer is a typo. */
export const MAX_USER_POOL_ID_LENGTH = 55;
// Region prefix, underscore, alphanumeric suffix (the same shape Cognito and Amplify accept).
const USER_POOL_ID_SHAPE = /^[\w-]+_[0-9a-zA-Z]+$/;
const CLIENT_ID_SHAPE = /^[\w+]{1,128}$/;
const IDENTITY_POOL_ID_SHAPE = /^[\w-]+:[0-9a-f-]+$/;
const REGION_SHAPE = /^[a-z]{2}(-[a-z]+)+-\d$/;

/** Reads the NZF_COGNITO_* and NZF_COOKIE_* variables; empty strings count as unset. */
export function authOptionsFromEnv(env: Record<string, string | undefined>): AuthConfigOptions {
  const get = (key: string): string | undefined => {
    const value = env[key]?.trim();
    return value ? value : undefined;
  };
  const secure = get("NZF_COOKIE_SECURE");
  return {
    region: get("NZF_COGNITO_REGION"),
    userPoolId: get("NZF_COGNITO_USER_POOL_ID"),
    userPoolClientId: get("NZF_COGNITO_CLIENT_ID"),
    identityPoolId: get("NZF_COGNITO_IDENTITY_POOL_ID"),
    userPoolEndpoint: get("NZF_COGNITO_ENDPOINT"),
    cookieDomain: get("NZF_COOKIE_DOMAIN"),
    sameSite: get("NZF_COOKIE_SAMESITE"),
    secure: secure === undefined ? undefined : !/^(0|false|no|off)$/i.test(secure),
    authFlowType: get("NZF_AUTH_FLOW"),
    accountApiUrl: get("NZF_ACCOUNT_API_URL"),
    mfa: get("NZF_COGNITO_MFA"),
    hostedDomain: get("NZF_COGNITO_HOSTED_DOMAIN"),
  };
}

function invalid(message: string, subject: string, hint?: string): NzfError {
  return new NzfError("CONFIG_INVALID", message, { subject, hint });
}

/** The settings that mean something only with a user pool, by the variable that sets each. */
const POOL_SETTINGS: [keyof AuthConfigOptions, string][] = [
  ["mfa", "NZF_COGNITO_MFA"],
  ["hostedDomain", "NZF_COGNITO_HOSTED_DOMAIN"],
  ["authFlowType", "NZF_AUTH_FLOW"],
  ["identityPoolId", "NZF_COGNITO_IDENTITY_POOL_ID"],
  ["userPoolEndpoint", "NZF_COGNITO_ENDPOINT"],
  ["region", "NZF_COGNITO_REGION"],
  ["cookieDomain", "NZF_COOKIE_DOMAIN"],
  ["sameSite", "NZF_COOKIE_SAMESITE"],
  ["secure", "NZF_COOKIE_SECURE"],
];

/** Validates the options; returns null when no user pool is configured at all. */
export function resolveAuthConfig(options: AuthConfigOptions): PublicAuthConfig | null {
  const { userPoolId, userPoolClientId } = options;
  if (!userPoolId && !userPoolClientId) {
    if (options.accountApiUrl)
      throw invalid(
        "NZF_ACCOUNT_API_URL is set but no user pool is: the account API needs a signed-in donor's token",
        "NZF_ACCOUNT_API_URL",
        "Set NZF_COGNITO_USER_POOL_ID and NZF_COGNITO_CLIENT_ID too, or remove NZF_ACCOUNT_API_URL.",
      );
    // A sign-in setting without a pool would be dropped without a word (MFA "on", say, on a site
    // that then has no accounts at all): say which, as for the account API.
    const given = POOL_SETTINGS.find(([key]) => options[key] !== undefined);
    if (given)
      throw invalid(
        `${given[1]} is set but no user pool is, so it would have no effect: the site would be built without sign-in`,
        given[1],
        `Set NZF_COGNITO_USER_POOL_ID and NZF_COGNITO_CLIENT_ID too, or remove ${given[1]}.`,
      );
    return null;
  }
  if (!userPoolId || !userPoolClientId) {
    throw invalid(
      "Both UserPoolId and ClientId are required",
      userPoolId ? "NZF_COGNITO_CLIENT_ID" : "NZF_COGNITO_USER_POOL_ID",
      "Set both NZF_COGNITO_USER_POOL_ID and NZF_COGNITO_CLIENT_ID, or neither to build without sign-in.",
    );
  }
  if (userPoolId.length > MAX_USER_POOL_ID_LENGTH || !USER_POOL_ID_SHAPE.test(userPoolId)) {
    throw invalid(
      "Invalid UserPoolId format",
      "NZF_COGNITO_USER_POOL_ID",
      `A user pool id looks like ap-southeast-2_AbC123xyz (region, underscore, letters and digits; at most ${MAX_USER_POOL_ID_LENGTH} characters).`,
    );
  }
  if (!CLIENT_ID_SHAPE.test(userPoolClientId)) {
    throw invalid(
      "Invalid ClientId format",
      "NZF_COGNITO_CLIENT_ID",
      "Copy the app client id from the user pool's App clients page.",
    );
  }

  const region = options.region ?? DEFAULT_REGION;
  if (!REGION_SHAPE.test(region)) {
    throw invalid(`Invalid region "${region}"`, "NZF_COGNITO_REGION", "Use an AWS region name such as ap-southeast-2.");
  }
  const endpoint = options.userPoolEndpoint;
  const poolRegion = userPoolId.slice(0, userPoolId.lastIndexOf("_"));
  // Amplify derives the region from the pool id; a different configured region would be silently
  // ignored, so say so now. A custom endpoint (cognito-local) has its own pool prefixes.
  if (!endpoint && poolRegion !== region) {
    throw invalid(
      `The user pool ${userPoolId} is in ${poolRegion}, but the region is ${region}`,
      "NZF_COGNITO_REGION",
      "Set NZF_COGNITO_REGION to the region the user pool id starts with.",
    );
  }
  if (endpoint !== undefined && !/^https?:\/\/[^/\s]+/.test(endpoint)) {
    throw invalid(
      `Invalid user pool endpoint "${endpoint}"`,
      "NZF_COGNITO_ENDPOINT",
      "Give a full URL such as http://127.0.0.1:9229/.",
    );
  }
  if (options.identityPoolId !== undefined && !IDENTITY_POOL_ID_SHAPE.test(options.identityPoolId)) {
    throw invalid(
      "Invalid IdentityPoolId format",
      "NZF_COGNITO_IDENTITY_POOL_ID",
      "An identity pool id looks like ap-southeast-2:0000-... (region, colon, id).",
    );
  }

  const secure = options.secure ?? true;
  const sameSite = (options.sameSite ?? "lax").toLowerCase();
  if (!isSameSite(sameSite)) {
    throw invalid(
      `The cookie sameSite value must be "strict", "lax" or "none", not "${options.sameSite}"`,
      "NZF_COOKIE_SAMESITE",
    );
  }
  if (sameSite === "none" && !secure) {
    throw invalid(
      'Cookie sameSite "none" requires the secure attribute',
      "NZF_COOKIE_SAMESITE",
      "Browsers drop SameSite=None cookies without Secure: keep NZF_COOKIE_SECURE on, or use sameSite lax.",
    );
  }
  const cookieDomain = options.cookieDomain;
  if (cookieDomain !== undefined && !/^\.?[a-z0-9-]+(\.[a-z0-9-]+)*$/i.test(cookieDomain)) {
    throw invalid(
      `Invalid cookie domain "${cookieDomain}"`,
      "NZF_COOKIE_DOMAIN",
      "Give a host name such as nzf.org.au, without scheme or path.",
    );
  }

  const authFlowType = options.authFlowType ?? "USER_SRP_AUTH";
  if (!isAuthFlow(authFlowType)) {
    throw invalid(
      `Unsupported auth flow "${authFlowType}"`,
      "NZF_AUTH_FLOW",
      "Use USER_SRP_AUTH (the default) or USER_PASSWORD_AUTH.",
    );
  }

  const mfa = (options.mfa ?? "off").toLowerCase();
  if (mfa !== "off" && mfa !== "optional" && mfa !== "on") {
    throw invalid(
      `Unknown MFA setting "${options.mfa}"`,
      "NZF_COGNITO_MFA",
      "Use off, optional or on, as the user pool's MFA is set (Sign-in experience > Multi-factor authentication).",
    );
  }

  const hostedDomain = options.hostedDomain === undefined ? undefined : hostedDomainOf(options.hostedDomain);

  const config: PublicAuthConfig = { region, userPoolId, userPoolClientId, authFlowType, sameSite, secure };
  if (hostedDomain) config.hostedDomain = hostedDomain;
  if (mfa !== "off") config.mfa = mfa;
  if (options.identityPoolId) config.identityPoolId = options.identityPoolId;
  if (endpoint) config.userPoolEndpoint = endpoint;
  if (cookieDomain) config.cookieDomain = cookieDomain;
  if (options.accountApiUrl) config.accountApiUrl = accountApiUrl(options.accountApiUrl);
  return config;
}

const LOOPBACK = new Set(["localhost", "127.0.0.1", "[::1]"]);

/** The account API's GraphQL URL: https, or http on loopback (the local API), no query or fragment. */
function accountApiUrl(value: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw invalid(
      `NZF_ACCOUNT_API_URL "${value}" is not a URL`,
      "NZF_ACCOUNT_API_URL",
      "Give the GraphQL endpoint, e.g. https://<api-id>.appsync-api.ap-southeast-2.amazonaws.com/graphql",
    );
  }
  if (url.protocol !== "https:" && !(url.protocol === "http:" && LOOPBACK.has(url.hostname)))
    throw invalid(
      `NZF_ACCOUNT_API_URL must use https (only a loopback dev server may use http); got ${url.origin}`,
      "NZF_ACCOUNT_API_URL",
      "Donors' tokens are sent to it: use the https address of the account API.",
    );
  if (url.search || url.hash)
    throw invalid("NZF_ACCOUNT_API_URL must not have a query string or fragment", "NZF_ACCOUNT_API_URL");
  return url.href;
}

/**
 * The hosted sign-in domain as Amplify takes it: a host name (a Cognito prefix domain or the
 * foundation's custom domain), or a loopback address with a port for a local stand-in. Amplify
 * puts `https://` before it, so a scheme or a path here would build a broken address.
 */
function hostedDomainOf(value: string): string {
  const hint =
    "Give the domain from the user pool's Domain page, without https:// or a path, e.g. auth.nzf.org.au or nzf.auth.ap-southeast-2.amazoncognito.com.";
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(value) || value.includes("/"))
    throw invalid(
      `NZF_COGNITO_HOSTED_DOMAIN "${value}" must be a domain name, without a scheme or a path`,
      "NZF_COGNITO_HOSTED_DOMAIN",
      hint,
    );
  const loopback = /^(127\.0\.0\.1|localhost|\[::1\]):\d{1,5}$/.test(value);
  const host = /^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/i.test(value);
  if (!loopback && !host)
    throw invalid(`NZF_COGNITO_HOSTED_DOMAIN "${value}" is not a domain name`, "NZF_COGNITO_HOSTED_DOMAIN", hint);
  if (/^cognito-idp\./i.test(value))
    throw invalid(
      `NZF_COGNITO_HOSTED_DOMAIN "${value}" is the user pool's API, not its hosted sign-in domain`,
      "NZF_COGNITO_HOSTED_DOMAIN",
      hint,
    );
  return value.toLowerCase();
}

function isSameSite(value: string): value is SameSite {
  return value === "strict" || value === "lax" || value === "none";
}

function isAuthFlow(value: string): value is AuthFlowType {
  return value === "USER_SRP_AUTH" || value === "USER_PASSWORD_AUTH";
}
