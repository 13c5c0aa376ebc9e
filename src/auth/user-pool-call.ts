/**
 * One user pool call without the auth library: POST to the pool's endpoint with the action in the
 * X-Amz-Target header and JSON in and out, which is how every Cognito identity provider call is made.
 * Used where Amplify does not make the call the way the site needs (GlobalSignOut then RevokeToken).
 * A refusal throws an Error named after Cognito's exception, with the service's message, so
 * describeAuthError (messages.ts) maps it like any library error. Browser-safe.
 */
import type { PublicAuthConfig } from "./types.js";

/** The pool's endpoint: the custom one (cognito-local) or Cognito's in the pool's region. */
export function userPoolEndpoint(config: Pick<PublicAuthConfig, "userPoolEndpoint" | "userPoolId">): string {
  if (config.userPoolEndpoint) return config.userPoolEndpoint.replace(/\/*$/, "/");
  const region = config.userPoolId.slice(0, config.userPoolId.lastIndexOf("_"));
  return `https://cognito-idp.${region}.amazonaws.com/`;
}

export async function userPoolCall<T = Record<string, unknown>>(
  endpoint: string,
  action: string,
  body: Record<string, unknown>,
  doFetch: typeof fetch = (...args) => fetch(...args),
): Promise<T> {
  const response = await doFetch(endpoint, {
    method: "POST",
    headers: {
      "Content-Type": "application/x-amz-json-1.1",
      "X-Amz-Target": `AWSCognitoIdentityProviderService.${action}`,
    },
    body: JSON.stringify(body),
  });
  const text = await response.text();
  let json: Record<string, unknown> = {};
  try {
    json = text ? (JSON.parse(text) as Record<string, unknown>) : {};
  } catch {
    // not JSON: described by the status below
  }
  if (!response.ok) {
    const type = String(json.__type ?? response.headers.get("x-amzn-errortype") ?? "UnknownError");
    const name = type.slice(type.lastIndexOf("#") + 1).replace(/:.*$/, "");
    throw Object.assign(new Error(String(json.message ?? json.Message ?? `HTTP ${response.status}`)), { name });
  }
  return json as T;
}
