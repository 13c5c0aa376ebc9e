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
  /** The pool's region (ap-southeast-2); from the pool id when unset. */
  region?: string;
  userPoolId: string;
  /** cognito-local's URL under watch mode (cognitoEndpoint); Cognito's regional endpoint when unset. */
  endpoint?: string;
  /** Per call; the SDK's own retries (throttling, 5xx) run inside it. */
  timeoutMs?: number;
}

export function createUserPoolDirectory(options: UserPoolDirectoryOptions): UserPoolDirectory {
  const region = options.region ?? options.userPoolId.slice(0, options.userPoolId.lastIndexOf("_"));
  const client = new CognitoIdentityProviderClient({
    region: region || "ap-southeast-2",
    ...(options.endpoint ? { endpoint: options.endpoint } : {}),
    maxAttempts: 2,
  });
  const timeoutMs = options.timeoutMs ?? 3000;
  return {
    async profile(accessToken) {
      const out = await client.send(new GetUserCommand({ AccessToken: accessToken }), {
        abortSignal: AbortSignal.timeout(timeoutMs),
      });
      const attr = (name: string) => out.UserAttributes?.find((a) => a.Name === name)?.Value;
      return { email: attr("email") ?? null, emailVerified: attr("email_verified") === "true" };
    },
  };
}
