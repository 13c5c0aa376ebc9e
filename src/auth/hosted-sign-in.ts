/**
 * The hosted sign-in through Amplify's own `signInWithRedirect` (authorization code, PKCE S256,
 * a state of 32 random characters and a verifier of 128, so neither can be guessed or replayed;
 * the library makes them and checks the state). Loaded on demand by amplify.ts: only when the
 * donor chooses the hosted page, or when the page is its answer, so /account/ does not carry the
 * OAuth code otherwise.
 *
 * The return path rides in the state (Amplify's `customState`, covered by the state check) and is
 * checked again on the way back (hosted-rules.ts); the tokens are checked before they are used.
 */
import { fetchAuthSession, signInWithRedirect } from "aws-amplify/auth";
import { Hub } from "aws-amplify/utils";
import {
  foreignTokenReason,
  HOSTED_CALLBACK_PATH,
  HOSTED_ERRORS,
  HOSTED_SIGN_IN_TIMEOUT_MS,
  hostedError,
  oauthStorageKey,
  safeReturnUrl,
} from "./hosted-rules.js";
import type { PublicAuthConfig } from "./types.js";

/** Leaves for the hosted sign-in page; the donor comes back to `returnPath` (a path on this site). */
export async function startHostedSignIn(returnPath: string): Promise<void> {
  await signInWithRedirect({ customState: returnPath });
}

// Amplify's words for a state that does not match the one it stored (validateState.ts).
const STATE_MISMATCH = "An error occurred while validating the state.";
const CANCELLED = /cancel|access_denied/i;

function failureOf(error: unknown): Error {
  const message = error instanceof Error ? error.message : String(error);
  if (message === STATE_MISMATCH) return hostedError(HOSTED_ERRORS.invalidState);
  if (CANCELLED.test(message)) return hostedError(HOSTED_ERRORS.cancelled, message);
  return hostedError(HOSTED_ERRORS.refused, message);
}

export interface CompleteDeps {
  /** Configures Amplify with the hosted sign-in: Amplify then finishes the flow. */
  configureWithHostedSignIn: () => void;
  /** Forgets tokens that must not be used (no hosted sign-out: they are not this pool's). */
  discardSession: () => Promise<void>;
}

/**
 * Finishes a hosted sign-in on its answer page: Amplify checks the state, sends the code and the
 * PKCE verifier to the token endpoint and keeps the tokens in the cookie storage; this waits for
 * it (10 s at most), checks the tokens, and returns the page to go back to (absolute URL).
 * Throws a named error (hosted-rules.ts HOSTED_ERRORS) when there is nothing to use.
 */
export async function completeHostedSignIn(config: PublicAuthConfig, deps: CompleteDeps): Promise<string> {
  const home = `${location.origin}${HOSTED_CALLBACK_PATH}`;
  // An answer with no sign-in started in this browser (a link someone sent) is refused before
  // Amplify sees it: its code must not sign this browser into someone else's account.
  if (localStorage.getItem(oauthStorageKey(config.userPoolClientId, "inflightOAuth")) !== "true") {
    history.replaceState(history.state, "", home);
    throw hostedError(HOSTED_ERRORS.invalidState);
  }
  let customState: unknown;
  let stop = () => {};
  let timer: ReturnType<typeof setTimeout> | undefined;
  const outcome = new Promise<{ ok: true } | { ok: false; error: unknown }>((resolve) => {
    stop = Hub.listen("auth", ({ payload }) => {
      if (payload.event === "customOAuthState") customState = payload.data;
      else if (payload.event === "signInWithRedirect") resolve({ ok: true });
      else if (payload.event === "signInWithRedirect_failure") resolve({ ok: false, error: payload.data?.error });
    });
    timer = setTimeout(
      () => resolve({ ok: false, error: hostedError(HOSTED_ERRORS.timeout) }),
      HOSTED_SIGN_IN_TIMEOUT_MS,
    );
  });
  // The listener is in place before Amplify starts, so no answer is missed.
  deps.configureWithHostedSignIn();
  const result = await outcome;
  stop();
  clearTimeout(timer);
  if (!result.ok) {
    history.replaceState(history.state, "", home);
    const error = result.error as Error | undefined;
    if (error?.name === HOSTED_ERRORS.timeout) {
      localStorage.removeItem(oauthStorageKey(config.userPoolClientId, "inflightOAuth"));
      throw error;
    }
    throw failureOf(error);
  }
  const tokens = (await fetchAuthSession()).tokens;
  const reason = foreignTokenReason(
    {
      ...(tokens?.idToken ? { idToken: tokens.idToken.payload } : {}),
      ...(tokens?.accessToken ? { accessToken: tokens.accessToken.payload } : {}),
    },
    config,
    Math.floor(Date.now() / 1000),
  );
  if (reason) {
    await deps.discardSession();
    throw hostedError(HOSTED_ERRORS.foreignTokens, reason);
  }
  return safeReturnUrl(customState, location.origin) ?? home;
}
