/**
 * One receipt delivery with retries. Mail servers refuse for a while (a 4xx answer, a dropped
 * connection, SES throttling) more often than for good, so a failed send is tried again after a
 * growing pause; a permanent refusal (an SMTP 5xx: no such mailbox) is not repeated. Never throws:
 * the caller records the outcome beside the receipt, which is kept either way (printable in the
 * donor's account, and tried again later by the service's job while `retryable`).
 */
import { backoffMs, realSleep } from "../core/retry.js";
import { type Mailer, MailNotConfigured } from "./mailer.js";
import type { MailMessage } from "./message.js";

export type SendOutcome =
  | { sent: true; attempts: number; messageId: string }
  | { sent: false; attempts: number; error: string; retryable: boolean };

export interface RetryOptions {
  /** Tries in this call, the first included. */
  attempts?: number;
}

/** Whether a send error is worth trying again: network trouble, SMTP 4xx, SES throttling or 5xx. */
export function isRetryable(error: unknown): boolean {
  if (error instanceof MailNotConfigured) return false;
  const e = error as {
    responseCode?: unknown;
    $retryable?: unknown;
    $metadata?: { httpStatusCode?: number };
    name?: string;
  };
  if (typeof e?.responseCode === "number") return e.responseCode < 500;
  const status = e?.$metadata?.httpStatusCode;
  if (typeof status === "number") return status === 429 || status >= 500 || e.name === "TooManyRequestsException";
  // Connection refused, reset, timed out, DNS: all worth another try.
  return true;
}

/** The pause before the second try (1 s, doubled each time), plus up to half of it at random. */
const PAUSES = { baseDelayMs: 1000, jitterMs: 500 };

export async function sendWithRetry(
  mailer: Mailer,
  message: MailMessage,
  options: RetryOptions = {},
): Promise<SendOutcome> {
  const attempts = options.attempts ?? 4;
  let last: unknown;
  for (let attempt = 1; attempt <= attempts; attempt++) {
    try {
      const { messageId } = await mailer.send(message);
      return { sent: true, attempts: attempt, messageId };
    } catch (error) {
      last = error;
      if (!isRetryable(error)) return { sent: false, attempts: attempt, error: describe(error), retryable: false };
      if (attempt < attempts) await realSleep(backoffMs(attempt, Math.random, PAUSES));
    }
  }
  return { sent: false, attempts, error: describe(last), retryable: true };
}

function describe(error: unknown): string {
  return error instanceof Error ? `${error.name}: ${error.message}` : String(error);
}
