/**
 * The retrying `fetch` handed to `@prismicio/client`, so retry behaviour is ours and testable:
 *
 * - 429: wait `retry-after` seconds (an HTTP date works too; 1000 ms when the header is absent),
 *   then retry. The 429 never reaches the client: its own `request()` would otherwise retry again
 *   on top, forever, after `Number(null) * 1000` = 0 ms when the header is absent.
 * - network errors, timeouts and 5xx: exponential backoff from 100 ms (100, 200, 400, ...) plus up
 *   to 100 ms of random jitter, at most `maxAttempts` attempts.
 * - everything is bounded by a total waiting budget (300 s, the figure in the specification), after
 *   which we give up with PRISMIC_UNAVAILABLE naming the URL and the last status or error.
 *
 * All waiting goes through `sleep`, so tests inject a recording sleep where timing is not the point.
 */
import { NzfError } from "../core/errors.js";
import { formatMs, type Logger } from "../core/logger.js";

export interface RetryPolicy {
  /** Attempts for network errors and 5xx, the first included. */
  maxAttempts: number;
  /** Extra attempts after 429 answers (the server asked us to slow down, not failed). */
  maxRateLimitRetries: number;
  baseDelayMs: number;
  jitterMs: number;
  /** Waiting for 429 when the response has no usable retry-after header. */
  defaultRetryAfterMs: number;
  /** Total waiting allowed for one request before giving up. */
  budgetMs: number;
  /** One attempt taking longer than this counts as a network error. */
  attemptTimeoutMs: number;
}

export const DEFAULT_RETRY_POLICY: RetryPolicy = {
  maxAttempts: 6,
  maxRateLimitRetries: 10,
  baseDelayMs: 100,
  jitterMs: 100,
  defaultRetryAfterMs: 1000,
  budgetMs: 300_000,
  attemptTimeoutMs: 60_000,
};

export interface RetryingFetchDeps {
  fetch: typeof globalThis.fetch;
  sleep: (ms: number) => Promise<void>;
  random: () => number;
  logger: Logger;
}

export interface RetryingFetch {
  fetch: typeof globalThis.fetch;
  /** HTTP requests actually sent, retries included. */
  readonly requests: number;
  /** The final status returned for a URL (for mapping the client's status-less errors). */
  statusOf(url: string | undefined): number | undefined;
}

export const realSleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** URLs go into messages and logs: never the access token. */
export function redactUrl(url: string): string {
  return url.replace(/([?&]access_token=)[^&]*/g, "$1***");
}

/** Milliseconds to wait for a 429, from `retry-after` (seconds or an HTTP date). */
export function retryAfterMs(header: string | null, fallbackMs: number, now = Date.now()): number {
  if (header === null || header.trim() === "") return fallbackMs;
  const seconds = Number(header);
  if (Number.isFinite(seconds) && seconds >= 0) return seconds * 1000;
  const date = Date.parse(header);
  return Number.isNaN(date) ? fallbackMs : Math.max(0, date - now);
}

export function backoffMs(failedAttempt: number, policy: RetryPolicy, random: () => number): number {
  return policy.baseDelayMs * 2 ** (failedAttempt - 1) + Math.floor(random() * policy.jitterMs);
}

export function createRetryingFetch(deps: RetryingFetchDeps, policy: RetryPolicy = DEFAULT_RETRY_POLICY): RetryingFetch {
  let requests = 0;
  const statuses = new Map<string, number>();

  const retryingFetch = async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    const url = typeof input === "string" ? input : input instanceof URL ? input.toString() : input.url;
    const shown = redactUrl(url);
    let failures = 0;
    let rateLimited = 0;
    let waited = 0;
    let lastError: unknown;
    for (;;) {
      let wait: number;
      let problem: string;
      let exhausted: boolean;
      requests += 1;
      try {
        const signal = init?.signal ? AbortSignal.any([init.signal, AbortSignal.timeout(policy.attemptTimeoutMs)]) : AbortSignal.timeout(policy.attemptTimeoutMs);
        const response = await deps.fetch(url, { ...init, signal });
        if (response.status !== 429 && response.status < 500) {
          statuses.set(url, response.status);
          return response;
        }
        const body = await response.text().catch(() => "");
        const snippet = body.trim().slice(0, 200);
        problem = `HTTP ${response.status}${snippet ? ` (${snippet})` : ""}`;
        lastError = undefined;
        if (response.status === 429) {
          rateLimited += 1;
          wait = retryAfterMs(response.headers.get("retry-after"), policy.defaultRetryAfterMs);
          exhausted = rateLimited > policy.maxRateLimitRetries;
        } else {
          failures += 1;
          wait = backoffMs(failures, policy, deps.random);
          exhausted = failures >= policy.maxAttempts;
        }
      } catch (error) {
        // The caller cancelled: not ours to retry.
        if (init?.signal?.aborted) throw error;
        failures += 1;
        lastError = error;
        problem = describeNetworkError(error);
        wait = backoffMs(failures, policy, deps.random);
        exhausted = failures >= policy.maxAttempts;
      }
      const attempts = failures + rateLimited;
      if (exhausted || waited + wait > policy.budgetMs) {
        throw new NzfError(
          "PRISMIC_UNAVAILABLE",
          `The Prismic API did not answer ${shown} after ${attempts} attempt${attempts === 1 ? "" : "s"} over ${formatMs(waited)}; the last answer was ${problem}.`,
          { subject: shown, cause: lastError },
        );
      }
      deps.logger.warn("content", `${problem} from ${shown}; retrying in ${formatMs(wait)} (attempt ${attempts + 1})`);
      await deps.sleep(wait);
      waited += wait;
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

function describeNetworkError(error: unknown): string {
  if (error instanceof Error) {
    if (error.name === "TimeoutError") return "a timeout";
    const cause = error.cause as { code?: string; message?: string } | undefined;
    const detail = cause?.code ?? cause?.message;
    return `a network error (${error.message}${detail ? `: ${detail}` : ""})`;
  }
  return `a network error (${String(error)})`;
}
