/**
 * What the user pool says about the signed-in donor, asked with their own access token (GetUser,
 * through AWS's SDK). The access token carries no e-mail, on purpose: the e-mail and whether the
 * pool has verified it are read from the pool itself, at the moment they matter (claiming guest
 * gifts), so a stale or forged claim in a token can never stand in for them.
 */
import { CognitoIdentityProviderClient, GetUserCommand } from "@aws-sdk/client-cognito-identity-provider";

export interface PoolProfile {
  email: string | null;
  /** The pool's `email_verified`: the donor proved they read that mailbox. */
  emailVerified: boolean;
}

export interface UserPoolDirectory {
  profile(accessToken: string): Promise<PoolProfile>;
}

export interface UserPoolDirectoryOptions {
  userPoolId: string;
  /** cognito-local's URL under watch mode (cognitoEndpoint); Cognito's regional endpoint when unset. */
  endpoint?: string;
}

/** Per call; the SDK's own retries (throttling, 5xx) run inside it. */
const CALL_TIMEOUT_MS = 3000;

export function createUserPoolDirectory(options: UserPoolDirectoryOptions): UserPoolDirectory {
  // The pool's region is its id's prefix (ap-southeast-2_AbC123).
  const region = options.userPoolId.slice(0, options.userPoolId.lastIndexOf("_"));
  const client = new CognitoIdentityProviderClient({
    region: region || "ap-southeast-2",
    ...(options.endpoint ? { endpoint: options.endpoint } : {}),
    maxAttempts: 2,
  });
  return {
    async profile(accessToken) {
      const out = await client.send(new GetUserCommand({ AccessToken: accessToken }), {
        abortSignal: AbortSignal.timeout(CALL_TIMEOUT_MS),
      });
      const attr = (name: string) => out.UserAttributes?.find((a) => a.Name === name)?.Value;
      return { email: attr("email") ?? null, emailVerified: attr("email_verified") === "true" };
    },
  };
}
