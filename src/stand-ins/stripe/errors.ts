/**
 * Stripe's error answer: `{ error: { type, code, message, param, doc_url, ... } }` with the status
 * Stripe uses (400 invalid request, 401 bad key, 402 card declined, 404 no such object or URL).
 * The official SDK turns these into its own classes (StripeInvalidRequestError, StripeCardError,
 * StripeAuthenticationError, StripeIdempotencyError), so the service sees what it would see live.
 */

export type StripeErrorType = "api_error" | "card_error" | "idempotency_error" | "invalid_request_error";

export interface StripeErrorFields {
  code?: string;
  param?: string;
  decline_code?: string;
  /** Card errors carry the intent, charge and payment method they concern. */
  extra?: Record<string, unknown>;
}

export class StripeApiError extends Error {
  constructor(
    readonly status: number,
    readonly type: StripeErrorType,
    message: string,
    readonly fields: StripeErrorFields = {},
  ) {
    super(message);
    this.name = "StripeApiError";
  }

  body(): { error: Record<string, unknown> } {
    const { code, param, decline_code, extra } = this.fields;
    const error: Record<string, unknown> = { type: this.type, message: this.message };
    if (code) error.code = code;
    if (decline_code) error.decline_code = decline_code;
    if (param) error.param = param;
    if (code) error.doc_url = `https://stripe.com/docs/error-codes/${code.replace(/_/g, "-")}`;
    if (extra) Object.assign(error, extra);
    return { error };
  }
}

export const invalidRequest = (message: string, param?: string, code?: string) =>
  new StripeApiError(400, "invalid_request_error", message, { param, code });

export const missingParam = (param: string) =>
  new StripeApiError(400, "invalid_request_error", `Missing required param: ${param}.`, {
    param,
    code: "parameter_missing",
  });

export const unknownParam = (param: string) =>
  new StripeApiError(400, "invalid_request_error", `Received unknown parameter: ${param}`, {
    param,
    code: "parameter_unknown",
  });

/** `No such customer: 'cus_123'` (404 resource_missing), as Stripe names the missing object. */
export const noSuch = (what: string, id: string, param = "id") =>
  new StripeApiError(404, "invalid_request_error", `No such ${what}: '${id.slice(0, 80)}'`, {
    param,
    code: "resource_missing",
  });

export const unexpectedState = (message: string, code = "payment_intent_unexpected_state") =>
  new StripeApiError(400, "invalid_request_error", message, { code });
