/**
 * The retrying `fetch` handed to `@prismicio/client`, so retry behaviour is ours and testable:
 *
 * - 429: wait `retry-after` seconds (an HTTP date works too; 1000 ms when the header is absent),
 *   then retry. The 429 never reaches the client: its own `request()` would otherwise retry again
 *   on top, forever, after `Number(null) * 1000` = 0 ms when the header is absent.
 * - network errors, timeouts and 5xx: exponential backoff from 100 ms (100, 200, 400, ...) plus up
 *   to 100 ms of random jitter, at most `maxAttempts` attempts.
 * - everything is bounded by a total waiting budget (300 s: long enough to ride out a short
 *   Prismic incident, short enough that a stuck CI build fails within minutes), after which we
 *   give up with PRISMIC_UNAVAILABLE naming the URL and the last status or error.
 * - an attempt whose answer has not begun (no status line and headers) after `headersTimeoutMs`
 *   (5 s; Prismic's CDN answers in well under a second) is cut off; one whose body is still coming
 *   after `attemptTimeoutMs` (20 s; a large page over a slow link) too. The attempts that fail plus
 *   their backoff stay within `deadlineMs` (15 s), so a Prismic that accepts connections and never
 *   answers fails the fetch within 20 s in all, saying so, blaming the endpoint. A 429's
 *   retry-after wait is not counted there: Prismic answered, and asked us to wait.
 *
 * All waiting goes through the caller's `sleep` (a build's: bench/site.ts measures webhook rebuilds
 * without Prismic's pauses); the jitter is Math.random's.
 */
import { NzfError } from "../core/errors.js";
import { formatMs, type Logger } from "../core/logger.js";
import { backoffMs, retryAfterMs } from "../core/retry.js";
import { DEFAULT_RETRY_POLICY as policy, type RetryPolicy } from "./fetch-retry-policy.js";

/** The shortest attempt worth starting when the deadline is near (or a quarter of the attempt timeout, or the headers time-out, if less). */
const MIN_ATTEMPT_MS = 1_000;

export interface RetryingFetchDeps {
  fetch: typeof globalThis.fetch;
  sleep: (ms: number) => Promise<void>;
  logger: Logger;
}

export interface RetryingFetch {
  fetch: typeof globalThis.fetch;
  /** HTTP requests actually sent, retries included. */
  readonly requests: number;
  /** The final status returned for a URL (for mapping the client's status-less errors). */
  statusOf(url: string | undefined): number | undefined;
}

/** URLs go into messages and logs: never the access token. */
export function redactUrl(url: string): string {
  return url.replace(/([?&]access_token=)[^&]*/g, "$1***");
}

export function createRetryingFetch(deps: RetryingFetchDeps): RetryingFetch {
  let requests = 0;
  const statuses = new Map<string, number>();

  const retryingFetch = async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    const url = typeof input === "string" ? input : input instanceof URL ? input.toString() : input.url;
    const shown = redactUrl(url);
    let failures = 0;
    let rateLimited = 0;
    let waited = 0;
    // Time lost to failed attempts and their backoff: bounded by the deadline.
    let spent = 0;
    let timeouts = 0;
    let lastError: unknown;
    for (;;) {
      let wait: number;
      let problem: string;
      let exhausted: boolean;
      let askedToWait = false;
      requests += 1;
      const timeoutMs = Math.max(Math.floor(Math.min(policy.attemptTimeoutMs, policy.deadlineMs - spent)), 1);
      const headersMs = Math.min(timeoutMs, policy.headersTimeoutMs);
      const attemptStarted = performance.now();
      // Cut off when no answer has begun by headersMs; cleared once the status and headers are in.
      const waitingForHeaders = new AbortController();
      const headersTimer = setTimeout(
        () => waitingForHeaders.abort(new DOMException(`no answer within ${formatMs(headersMs)}`, "TimeoutError")),
        headersMs,
      );
      let answered = false;
      try {
        const timeout = AbortSignal.timeout(timeoutMs);
        const signals = [timeout, waitingForHeaders.signal, ...(init?.signal ? [init.signal] : [])];
        const signal = AbortSignal.any(signals);
        const response = await deps.fetch(url, { ...init, signal });
        answered = true;
        clearTimeout(headersTimer);
        if (response.status !== 429 && response.status < 500) {
          // The body is read here, under the same timeout: a stall half-way through it is an attempt that failed.
          const body = await response.arrayBuffer();
          statuses.set(url, response.status);
          const empty = response.status === 204 || response.status === 304;
          const read = new Response(empty ? null : body, {
            status: response.status,
            statusText: response.statusText,
            headers: response.headers,
          });
          // The client quotes response.url in some errors; a constructed Response has none.
          Object.defineProperty(read, "url", { value: response.url || url });
          return read;
        }
        const body = await response.text().catch(() => "");
        const snippet = body.trim().slice(0, 200);
        problem = `HTTP ${response.status}${snippet ? ` (${snippet})` : ""}`;
        lastError = undefined;
        if (response.status === 429) {
          rateLimited += 1;
          askedToWait = true;
          wait = retryAfterMs(response.headers.get("retry-after"), policy.defaultRetryAfterMs);
          exhausted = rateLimited > policy.maxRateLimitRetries;
        } else {
          failures += 1;
          spent += performance.now() - attemptStarted;
          wait = backoffMs(failures, Math.random, policy);
          exhausted = failures >= policy.maxAttempts;
        }
      } catch (error) {
        clearTimeout(headersTimer);
        // The caller cancelled: not ours to retry.
        if (init?.signal?.aborted) throw error;
        failures += 1;
        spent += performance.now() - attemptStarted;
        lastError = error;
        const timedOut = isTimeout(error) || waitingForHeaders.signal.aborted;
        if (timedOut) timeouts += 1;
        problem = !timedOut
          ? describeNetworkError(error)
          : answered
            ? `no complete answer within ${formatMs(timeoutMs)}`
            : `no answer within ${formatMs(headersMs)}`;
        wait = backoffMs(failures, Math.random, policy);
        exhausted = failures >= policy.maxAttempts;
      }
      const attempts = failures + rateLimited;
      const pastDeadline =
        !askedToWait &&
        spent + wait + Math.min(MIN_ATTEMPT_MS, policy.attemptTimeoutMs / 4, policy.headersTimeoutMs) >
          policy.deadlineMs;
      if (exhausted || waited + wait > policy.budgetMs || pastDeadline) {
        const took = formatMs(spent + waited);
        const stalled = timeouts > 0;
        const lastTimedOut = lastError !== undefined && isTimeout(lastError);
        throw new NzfError(
          "PRISMIC_UNAVAILABLE",
          stalled
            ? `The Prismic API did not answer ${shown}: ${timeouts} of ${attempts} attempt${attempts === 1 ? "" : "s"} got no complete answer in the time allowed (${allowed(policy)}), and the request gave up after ${took} (the limit is ${formatMs(policy.deadlineMs)})${lastTimedOut ? "" : `; the last answer was ${problem}`}.`
            : `The Prismic API did not answer ${shown} after ${attempts} attempt${attempts === 1 ? "" : "s"} in ${took}; the last answer was ${problem}.`,
          {
            subject: shown,
            cause: lastError,
            ...(stalled
              ? {
                  hint: "Prismic accepted the connection but did not answer in time. Check https://status.prismic.io and this machine's network (or PRISMIC_ENDPOINT), then run the build again; the last good content and site are kept.",
                }
              : {}),
          },
        );
      }
      deps.logger.warn("content", `${problem} from ${shown}; retrying in ${formatMs(wait)} (attempt ${attempts + 1})`);
      await deps.sleep(wait);
      if (askedToWait) waited += wait;
      else spent += wait;
    }
  };

  return {
    fetch: retryingFetch as typeof globalThis.fetch,
    get requests() {
      return requests;
    },
    statusOf: (url) => (url === undefined ? undefined : statuses.get(url)),
  };
}

/** What each attempt is allowed, for the message: "at most 1.0 s each", or the two limits. */
function allowed(policy: RetryPolicy): string {
  if (policy.headersTimeoutMs >= policy.attemptTimeoutMs) return `at most ${formatMs(policy.attemptTimeoutMs)} each`;
  return `an answer begun within ${formatMs(policy.headersTimeoutMs)} and complete within ${formatMs(policy.attemptTimeoutMs)}, each`;
}

/** Our AbortSignal.timeout fired (fetch rejects with it, or with an error caused by it while reading the body). */
function isTimeout(error: unknown): boolean {
  for (let e = error, depth = 0; e instanceof Error && depth < 4; e = e.cause, depth++)
    if (e.name === "TimeoutError") return true;
  return false;
}

function describeNetworkError(error: unknown): string {
  if (error instanceof Error) {
    const cause = error.cause as { code?: string; message?: string } | undefined;
    const detail = cause?.code ?? cause?.message;
    return `a network error (${error.message}${detail ? `: ${detail}` : ""})`;
  }
  return `a network error (${String(error)})`;
}
