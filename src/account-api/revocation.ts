/**
 * Whether a valid access token was revoked, in production: a signature and expiry check
 * (aws-jwt-verify) cannot know that the donor pressed "Sign out of all devices" (GlobalSignOut,
 * RevokeToken). The user pool can: it refuses a revoked token on every call with
 * NotAuthorizedException. So the token is shown to the pool (GetUser, the donor's own call) before
 * the account API or the payments service trusts it. A token the pool accepted is believed for
 * BELIEVED_MS (5 s: one page's burst of requests asks once); a revoked one is remembered (bounded).
 * A pool that cannot be reached is not a "no": the request is refused as unavailable (503).
 */
import * as clock from "../core/clock.js";
import { createHash } from "node:crypto";
import { KeysUnavailable } from "./tokens.js";

/** How long an accepted token is believed without asking the pool again. */
const BELIEVED_MS = 5_000;

/** Tokens remembered at most (oldest forgotten first): a few MB of hashes at most. */
export const REMEMBERED_TOKENS = 10_000;

const keyOf = (token: string) => createHash("sha256").update(token).digest("base64url");

/** `ask` makes a call with the token (GetUser) and throws the pool's error when it is refused. */
export function createRevocationCheck(
  ask: (accessToken: string) => Promise<unknown>,
): (accessToken: string) => Promise<boolean> {
  const known = new Map<string, { revoked: boolean; until: number }>();
  const remember = (key: string, revoked: boolean, until: number) => {
    known.delete(key);
    known.set(key, { revoked, until });
    if (known.size > REMEMBERED_TOKENS) known.delete(known.keys().next().value!);
  };
  return async (accessToken) => {
    const key = keyOf(accessToken);
    const at = clock.now().getTime();
    const seen = known.get(key);
    if (seen && (seen.revoked || seen.until > at)) return seen.revoked;
    try {
      await ask(accessToken);
    } catch (error) {
      const name = (error as { name?: string; __type?: string }).name;
      if (name === "NotAuthorizedException") {
        remember(key, true, Number.POSITIVE_INFINITY);
        return true;
      }
      throw new KeysUnavailable(`the user pool could not say whether a token was revoked: ${String(name ?? error)}`);
    }
    remember(key, false, at + BELIEVED_MS);
    return false;
  };
}
