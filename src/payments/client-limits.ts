/**
 * The payments client's time limit: each request is aborted after it and becomes a
 * PaymentsTimeoutError (client.ts). 15 s: a card payment's request waits for Stripe, and a donor
 * told "took too long" retries with the same key, which the service replays. Kept apart from
 * client.ts so the timeout test runs the client unchanged on a short limit, by mocking this module
 * (test/payments/client.test.ts).
 */
export const CLIENT_LIMITS = { timeoutMs: 15_000 };
