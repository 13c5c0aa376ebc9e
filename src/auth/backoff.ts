/**
 * The retry for revoking a token: exponential backoff from 100 ms,
 * up to 100 ms of random jitter on each wait, and no more than 5000 ms spent waiting in all.
 * Only failures worth repeating are repeated (the network, throttling, the service's own errors);
 * a refusal (a token already revoked, a wrong client) is final at once.
 */
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
): Promise<{ ok: true; value: T; waits: number[] } | { ok: false; error: unknown; waits: number[] }> {
  const { baseMs, jitterMs, limitMs } = REVOKE_BACKOFF;
  const waits: number[] = [];
  let waited = 0;
  for (let attempt = 0; ; attempt++) {
    try {
      return { ok: true, value: await call(), waits };
    } catch (error) {
      const wait = Math.round(baseMs * 2 ** attempt + Math.random() * jitterMs);
      if (!isRetryable(error) || waited + wait > limitMs) return { ok: false, error, waits };
      waits.push(wait);
      waited += wait;
      await new Promise<void>((resolve) => setTimeout(resolve, wait));
    }
  }
}
