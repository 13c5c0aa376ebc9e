/**
 * PayPal's error bodies, as its REST reference gives them: `{ name, message, debug_id, details:
 * [{ field, location, issue, description }], links }` for the REST calls, and OAuth's own
 * `{ error, error_description }` for authentication.
 */
import { randomBytes } from "node:crypto";

export interface ErrorDetail {
  field?: string;
  value?: string;
  location?: "body" | "path" | "query" | "header";
  issue: string;
  description: string;
}

export class PayPalHttpError extends Error {
  constructor(
    readonly status: number,
    readonly body: Record<string, unknown>,
  ) {
    super(String(body.message ?? body.error_description ?? body.name ?? status));
  }
}

const MESSAGES: Record<string, string> = {
  INVALID_REQUEST: "Request is not well-formed, syntactically incorrect, or violates schema.",
  UNPROCESSABLE_ENTITY:
    "The requested action could not be performed, semantically incorrect, or failed business validation.",
  RESOURCE_NOT_FOUND: "The specified resource does not exist.",
  METHOD_NOT_SUPPORTED: "The server does not implement the requested HTTP method.",
};

export function restError(status: number, name: keyof typeof MESSAGES, details: ErrorDetail[] = []): PayPalHttpError {
  const debugId = randomBytes(7).toString("hex");
  const body: Record<string, unknown> = { name, message: MESSAGES[name], debug_id: debugId };
  if (details.length > 0) body.details = details;
  body.links = details.slice(0, 1).map((d) => ({
    href: `https://developer.paypal.com/docs/api/orders/v2/#error-${d.issue}`,
    rel: "information_link",
    method: "GET",
  }));
  return new PayPalHttpError(status, body);
}

/** 400: a field is missing or malformed. */
export const invalid = (field: string, issue: string, description: string, value?: string) =>
  restError(400, "INVALID_REQUEST", [
    { field, location: "body", issue, description, ...(value === undefined ? {} : { value }) },
  ]);

/** 422: the request is well-formed but the state does not allow it. */
export const unprocessable = (issue: string, description: string) =>
  restError(422, "UNPROCESSABLE_ENTITY", [{ issue, description }]);

export const notFound = (id: string) =>
  restError(404, "RESOURCE_NOT_FOUND", [
    {
      field: "id",
      value: id,
      location: "path",
      issue: "INVALID_RESOURCE_ID",
      description: "Specified resource ID does not exist. Please check the resource ID and try again.",
    },
  ]);

export const oauthError = (status: number, error: string, description: string) =>
  new PayPalHttpError(status, { error, error_description: description });
