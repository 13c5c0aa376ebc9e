/**
 * The one back-off schedule and `retry-after` reading shared by everything that retries a request:
 * the Prismic fetch (src/content/fetch-retry.ts), image downloads (src/images/download.ts) and the
 * preview in the browser (src/preview/errors.ts). Browser-safe: imports nothing.
 */

/** Exponential back-off from 100 ms (100, 200, 400, ...) plus up to 100 ms of random jitter. */
export const BACKOFF = { baseDelayMs: 100, jitterMs: 100 } as const;

/** Waiting for a 429 whose answer has no usable `retry-after` header. */
export const DEFAULT_RETRY_AFTER_MS = 1000;

/** Milliseconds to wait before the attempt after the `failedAttempt`-th failure (1 for the first). */
export function backoffMs(
  failedAttempt: number,
  random: () => number,
  schedule: { baseDelayMs: number; jitterMs: number } = BACKOFF,
): number {
  return schedule.baseDelayMs * 2 ** (failedAttempt - 1) + Math.floor(random() * schedule.jitterMs);
}

/** Milliseconds to wait from a `retry-after` header: delta seconds or an HTTP date; `fallbackMs` when absent or unreadable. */
export function retryAfterMs(
  header: string | null,
  fallbackMs: number = DEFAULT_RETRY_AFTER_MS,
  now: number = Date.now(),
): number {
  const trimmed = header?.trim() ?? "";
  if (trimmed === "") return fallbackMs;
  if (/^\d+(\.\d+)?$/.test(trimmed)) return Math.round(Number(trimmed) * 1000);
  const date = Date.parse(trimmed);
  return Number.isNaN(date) ? fallbackMs : Math.max(0, date - now);
}

export const realSleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));
