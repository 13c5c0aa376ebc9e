/**
 * Two small rules around the auth calls, kept apart from Amplify so they are easy to test:
 * - only one password sign-in may be pending at a time (the pool keeps one sign-in session):
 *   a second sign-in while one is in flight is refused with SignInInProgress instead of racing it;
 * - an error that invalidates the session (a revoked or expired token, a disabled or deleted user,
 *   a password reset required: messages.ts) signs the donor out and
 *   cleans the stored session before the error reaches the island.
 */
import { invalidatesSession } from "./messages.js";

export class SignInInProgressError extends Error {
  constructor() {
    super("A sign-in is already in progress");
    this.name = "SignInInProgress";
  }
}

export function singlePending<A extends unknown[], T>(run: (...args: A) => Promise<T>): (...args: A) => Promise<T> {
  let pending = false;
  return async (...args: A) => {
    if (pending) throw new SignInInProgressError();
    pending = true;
    try {
      return await run(...args);
    } finally {
      pending = false;
    }
  };
}

/** Runs `call`; on a session-invalidating error runs `clear` (never masking the original error). */
export async function invalidatingSessionOn<T>(call: () => Promise<T>, clear: () => Promise<void>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    if (invalidatesSession(error)) await clear().catch(() => undefined);
    throw error;
  }
}

/** Amplify's token keys for one app client: `CognitoIdentityServiceProvider.<clientId>.…`. */
export function storedSessionKeys(allKeys: string[], clientId: string): string[] {
  const prefix = `CognitoIdentityServiceProvider.${clientId}.`;
  return allKeys.filter((key) => key.startsWith(prefix));
}

/** Cookie names visible to this page, read when called (never during server rendering). */
export function cookieNames(cookieHeader: string): string[] {
  return cookieHeader
    .split(";")
    .map((part) => part.split("=")[0]!.trim())
    .filter(Boolean)
    .map((name) => {
      try {
        return decodeURIComponent(name);
      } catch {
        return name;
      }
    });
}
