/**
 * The timeouts that cut off slow clients on every local HTTP server here (webhook, static/dev,
 * preview); http-guard.ts applies them. Kept apart from that code so the slow-client tests run the
 * servers unchanged on shorter figures, by mocking this module (test/faults/servers-limits.test.ts).
 */
export interface ServerLimits {
  /** All request headers must arrive within this. */
  headersTimeoutMs: number;
  /** The whole request, body included, must arrive within this. */
  requestTimeoutMs: number;
  /** How often Node checks the two above: often, so a slow client is cut close to the limit. */
  checkIntervalMs: number;
  /**
   * A connection with nothing sent or received for this long is closed: one opened and left
   * silent, or a slow reader of an answer. Node closes neither on its own.
   */
  idleTimeoutMs: number;
  /** How long a kept-alive connection waits for its next request. */
  keepAliveTimeoutMs: number;
}

export const SERVER_LIMITS: ServerLimits = {
  headersTimeoutMs: 10_000,
  requestTimeoutMs: 15_000,
  checkIntervalMs: 1_000,
  idleTimeoutMs: 30_000,
  keepAliveTimeoutMs: 5_000,
};
