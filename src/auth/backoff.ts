/**
 * The retry for revoking a token: exponential backoff from 100 ms,
 * up to 100 ms of random jitter on each wait, and no more than 5000 ms spent waiting in all.
 * Only failures worth repeating are repeated (the network, throttling, the service's own errors);
 * a refusal (a token already revoked, a wrong client) is final at once.
 */
export interface BackoffOptions {
  baseMs?: number;
  jitterMs?: number;
  /** Waiting stops once the next wait would pass this many milliseconds in all. */
  limitMs?: number;
  sleep?: (ms: number) => Promise<void>;
  random?: () => number;
}

export const REVOKE_BACKOFF = { baseMs: 100, jitterMs: 100, limitMs: 5000 } as const;

const RETRYABLE =
  /NetworkError|TooManyRequests|Throttl|InternalError|ServiceUnavailable|InternalServerError|Timeout|^HTTP 5/;

/** Whether an error from a user pool call is worth another try. */
export function isRetryable(error: unknown): boolean {
  const e = error as { name?: string; message?: string } | null;
  return RETRYABLE.test(`${e?.name ?? ""} ${e?.message ?? ""}`.trim()) || e instanceof TypeError;
}

/** Runs `call` until it succeeds, a failure is final, or the waiting budget is spent; the waits are returned for the log. */
export async function retryWithBackoff<T>(
  call: () => Promise<T>,
  options: BackoffOptions = {},
): Promise<{ ok: true; value: T; waits: number[] } | { ok: false; error: unknown; waits: number[] }> {
  const base = options.baseMs ?? REVOKE_BACKOFF.baseMs;
  const jitter = options.jitterMs ?? REVOKE_BACKOFF.jitterMs;
  const limit = options.limitMs ?? REVOKE_BACKOFF.limitMs;
  const sleep = options.sleep ?? ((ms: number) => new Promise<void>((r) => setTimeout(r, ms)));
  const random = options.random ?? Math.random;
  const waits: number[] = [];
  let waited = 0;
  for (let attempt = 0; ; attempt++) {
    try {
      return { ok: true, value: await call(), waits };
    } catch (error) {
      const wait = Math.round(base * 2 ** attempt + random() * jitter);
      if (!isRetryable(error) || waited + wait > limit) return { ok: false, error, waits };
      waits.push(wait);
      waited += wait;
      await sleep(wait);
    }
  }
}
