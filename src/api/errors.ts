/**
 * The contract's error answers (docs/payments-api.md, "Errors"): `{ "error": { code, message,
 * field?, fields? } }`, each message written for the donor. One place, so every route says the
 * same thing for the same fault.
 */
import type { ApiErrorBody, FieldError } from "../payments/types.js";

/** An answer the routes return: status, JSON body (or the stored text of a replay), headers. */
export interface Reply {
  status: number;
  body?: unknown;
  /** The exact bytes to send (an idempotent replay), instead of `body`. */
  raw?: string;
  headers?: Record<string, string>;
}

export const MAX_BODY_BYTES = 16 * 1024;

export const GENERIC = {
  internal: "Something went wrong on our side. Nothing was charged. Please try again in a moment.",
  unavailable: "Our payment service is briefly unavailable. Nothing was charged. Please try again in a few minutes.",
  notFound: "We could not find that donation. If you were charged, the receipt e-mail has your reference.",
} as const;

export function errorReply(
  status: number,
  code: string,
  message: string,
  extra: { field?: string; fields?: FieldError[] } = {},
  headers?: Record<string, string>,
): Reply {
  return { status, body: { error: { code, message, ...extra } } satisfies ApiErrorBody, headers };
}

export const errors = {
  keyMissing: () =>
    errorReply(400, "idempotency_key_missing", "Send an Idempotency-Key header (a UUID) with every POST and PATCH."),
  keyInvalid: () => errorReply(400, "idempotency_key_invalid", "The Idempotency-Key header must be a UUID."),
  keyReused: () =>
    errorReply(
      409,
      "idempotency_key_reused",
      "This Idempotency-Key was already used for a different donation. Use a new key for a new gift.",
    ),
  mediaType: () =>
    errorReply(415, "unsupported_media_type", "Send the body as JSON with Content-Type: application/json."),
  badPath: () => errorReply(400, "invalid_path", "The request path is not valid: check the address."),
  invalidJson: (what = "The request body is not valid JSON.") => errorReply(400, "invalid_json", what),
  // The rest of the body is not read: the connection closes after the answer, and says so, so a
  // client does not send its next request on a socket the server is about to close (RFC 9112, 9.6).
  tooLarge: () =>
    errorReply(
      413,
      "body_too_large",
      `The request body is larger than ${MAX_BODY_BYTES} bytes.`,
      {},
      { Connection: "close" },
    ),
  notFound: (message: string = GENERIC.notFound) => errorReply(404, "not_found", message),
  method: (allow: string) =>
    errorReply(405, "method_not_allowed", `This path takes ${allow}.`, {}, { Allow: `${allow}, OPTIONS` }),
  internal: () => errorReply(500, "internal_error", GENERIC.internal),
  unavailable: (retryAfter = "30") =>
    errorReply(503, "unavailable", GENERIC.unavailable, {}, { "Retry-After": retryAfter }),
  validation: (fields: FieldError[]) =>
    errorReply(400, "validation_failed", fields[0]!.message, { field: fields[0]!.field, fields }),
};
