/**
 * The figures of the Prismic fetch's retries; fetch-retry.ts says why each is what it is and applies
 * them. Kept apart from that code so the stall tests run it unchanged on figures scaled down, by
 * mocking this module (test/faults/prismic-stall.test.ts).
 */
import { BACKOFF, DEFAULT_RETRY_AFTER_MS } from "../core/retry.js";

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
  /** One attempt (headers and the whole body) taking longer than this is cut off and retried. */
  attemptTimeoutMs: number;
  /** An attempt with no answer at all (status and headers) by then is cut off and retried. */
  headersTimeoutMs: number;
  /** Failed attempts and the backoff between them, for one request, stop here. */
  deadlineMs: number;
}

export const DEFAULT_RETRY_POLICY: RetryPolicy = {
  maxAttempts: 6,
  maxRateLimitRetries: 10,
  ...BACKOFF,
  defaultRetryAfterMs: DEFAULT_RETRY_AFTER_MS,
  budgetMs: 300_000,
  attemptTimeoutMs: 20_000,
  headersTimeoutMs: 5_000,
  deadlineMs: 15_000,
};
