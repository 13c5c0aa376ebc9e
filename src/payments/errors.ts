/**
 * What can go wrong talking to the payments API, as errors whose `message` a donor can read. Every
 * message says whether money moved: creating a donation never charges the card (the charge happens
 * only when the Payment Element confirms), so "Nothing was charged" is true for all of them.
 */
import type { FieldError } from "./types.js";

export const DONOR_MESSAGES = {
  network: "We could not reach our payment service. Nothing was charged. Please try again.",
  timeout: "Our payment service took too long to answer. Nothing was charged. Please try again.",
  server: "Something went wrong on our side. Nothing was charged. Please try again in a moment.",
  unavailable: "Our payment service is briefly unavailable. Nothing was charged. Please try again in a few minutes.",
  rateLimited: "There have been too many attempts. Nothing was charged. Please wait a minute and try again.",
  badResponse: "Our payment service sent an answer we did not understand. Nothing was charged. Please try again.",
} as const;

/** Base class: `instanceof PaymentsError` catches everything the client throws. */
export class PaymentsError extends Error {
  /** Trying again (with the same idempotency key) may succeed. */
  readonly retryable: boolean;
  constructor(message: string, retryable: boolean, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "PaymentsError";
    this.retryable = retryable;
  }
}

/** The API answered with an error status. `code` is the contract's error code (see docs/payments-api.md). */
export class PaymentsApiError extends PaymentsError {
  readonly status: number;
  readonly code: string;
  /** The first field at fault, for the message beside it. */
  readonly field?: string;
  readonly fields: FieldError[];
  /** Seconds, from Retry-After on 429/503. */
  readonly retryAfterSeconds?: number;
  constructor(init: {
    status: number;
    code: string;
    message: string;
    field?: string;
    fields?: FieldError[];
    retryAfterSeconds?: number;
  }) {
    super(init.message, init.status >= 500 || init.status === 429);
    this.name = "PaymentsApiError";
    this.status = init.status;
    this.code = init.code;
    this.field = init.field;
    this.fields = init.fields ?? [];
    this.retryAfterSeconds = init.retryAfterSeconds;
  }
}

/** The request never got an answer (offline, DNS, CORS refusal, connection reset). */
export class PaymentsNetworkError extends PaymentsError {
  constructor(cause?: unknown) {
    super(DONOR_MESSAGES.network, true, { cause });
    this.name = "PaymentsNetworkError";
  }
}

/** No answer within the client's timeout; the request was aborted. */
export class PaymentsTimeoutError extends PaymentsError {
  readonly timeoutMs: number;
  constructor(timeoutMs: number) {
    super(DONOR_MESSAGES.timeout, true);
    this.name = "PaymentsTimeoutError";
    this.timeoutMs = timeoutMs;
  }
}
