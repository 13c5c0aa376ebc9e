/**
 * How often `nzf-build api` (node-server.ts) runs its own jobs between requests; in AWS the Lambda
 * runs them on EventBridge rules instead (docs/deploy.md). Kept apart from the server so the timer
 * test runs it unchanged on a short interval, by mocking this module
 * (test/api/jobs/scheduled-charges.test.ts).
 */
export const SERVICE_TIMERS = {
  /** Never-paid donations expire (donations/expire.ts). */
  sweepEveryMs: 15 * 60_000,
  /** Receipts whose e-mail is due again are sent (receipts/service.ts). */
  receiptsEveryMs: 60_000,
  /** Scheduled gifts are charged (jobs/scheduled-charges.ts). */
  jobsEveryMs: 15 * 60_000,
};
