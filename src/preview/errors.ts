/**
 * Content API failures in the browser preview, and the machine event each one leads to:
 *
 *   400            parsing error, with the server's message
 *   401, 403       forbidden: the access-token prompt when prompting is enabled, else FAILED with
 *                  'Unauthorized access'
 *   404            repository not found ('Ref could not be found.' when the API says the ref is unknown)
 *   429            retried after `retry-after` (src/core/retry.ts), see fetchRetrying429
 *   other status   invalid response (the server's own message when it sends one)
 *   no results     'No documents were returned'
 *
 * Anything else shows its own message; with no message, the generic 'The preview could not be loaded.'
 */

import type { PreviewEvent } from "./machine.js";
import { realSleep, retryAfterMs } from "../core/retry.js";

export const PREVIEW_GENERIC_ERROR = "The preview could not be loaded.";
export const UNAUTHORIZED_MESSAGE = "Unauthorized access";
export const NO_DOCUMENTS_MESSAGE = "No documents were returned";
export const REF_NOT_FOUND_MESSAGE = "Ref could not be found.";
/** After this many 429 answers in a row the request fails instead of waiting forever. */
export const MAX_RATE_LIMIT_RETRIES = 5;

export type ContentApiErrorKind =
  | "parsing"
  | "forbidden"
  | "repository-not-found"
  | "ref-not-found"
  | "no-documents"
  | "rate-limited"
  | "invalid-response"
  | "network";

export class ContentApiError extends Error {
  readonly kind: ContentApiErrorKind;
  readonly status: number | null;
  readonly url: string;

  constructor(kind: ContentApiErrorKind, message: string, status: number | null, url: string, cause?: unknown) {
    super(message, cause === undefined ? undefined : { cause });
    this.name = "ContentApiError";
    this.kind = kind;
    this.status = status;
    this.url = url;
  }
}

async function serverBody(response: Response): Promise<{ message?: string; type?: string }> {
  try {
    const body: unknown = await response.json();
    if (body && typeof body === "object") {
      const { message, type, error } = body as Record<string, unknown>;
      const text = typeof message === "string" ? message : typeof error === "string" ? error : undefined;
      return { message: text, type: typeof type === "string" ? type : undefined };
    }
  } catch {
    // Not JSON: the status alone decides.
  }
  return {};
}

/** Turns a non-2xx answer into a ContentApiError. `endpoint` is named in the 404 message. */
export async function errorFromResponse(response: Response, url: string, endpoint: string): Promise<ContentApiError> {
  const status = response.status;
  const body = await serverBody(response);
  if (status === 400) {
    return new ContentApiError(
      "parsing",
      body.message ?? "The content API could not parse the preview query.",
      status,
      url,
    );
  }
  if (status === 401 || status === 403) return new ContentApiError("forbidden", UNAUTHORIZED_MESSAGE, status, url);
  if (status === 404) {
    if (body.type === "api_notfound_error")
      return new ContentApiError("ref-not-found", REF_NOT_FOUND_MESSAGE, status, url);
    if (body.type === "api_security_error" && body.message)
      return new ContentApiError("invalid-response", body.message, status, url);
    return new ContentApiError(
      "repository-not-found",
      `Prismic repository not found. Check that "${endpoint}" is pointing to the correct repository.`,
      status,
      url,
    );
  }
  if (status === 429) {
    return new ContentApiError(
      "rate-limited",
      "The content API is limiting requests. Wait a minute and open the preview again.",
      status,
      url,
    );
  }
  return new ContentApiError(
    "invalid-response",
    body.message ?? `An invalid API response was returned (HTTP ${status}).`,
    status,
    url,
  );
}

export interface ErrorEventOptions {
  /** Show the access-token prompt on 401/403 (the default); when false such failures are FAILED. */
  promptForAccessToken?: boolean;
}

/** The machine event for a failure while resolving or bootstrapping. */
export function eventForError(error: unknown, options: ErrorEventOptions = {}): PreviewEvent {
  if (error instanceof ContentApiError && error.kind === "forbidden") {
    return options.promptForAccessToken === false
      ? { type: "FAILED", error: UNAUTHORIZED_MESSAGE }
      : { type: "PROMPT_FOR_ACCESS_TOKEN" };
  }
  const message = error instanceof Error ? error.message.trim() : "";
  return { type: "FAILED", error: message || PREVIEW_GENERIC_ERROR };
}

export type FetchLike = (input: string, init?: RequestInit) => Promise<Response>;

/** Fetches, waiting and retrying while the answer is 429. Returns the last response either way. */
export async function fetchRetrying429(fetchFn: FetchLike, url: string, init: RequestInit = {}): Promise<Response> {
  for (let attempt = 0; ; attempt++) {
    const response = await fetchFn(url, init);
    if (response.status !== 429 || attempt >= MAX_RATE_LIMIT_RETRIES) return response;
    const wait = retryAfterMs(response.headers.get("retry-after"));
    // Read the short body rather than cancel it: cancelling aborts the request (a network error in
    // the browser's log) and closes a connection the retry could reuse.
    await response.arrayBuffer().catch(() => undefined);
    if (init.signal?.aborted) return response;
    await realSleep(wait);
  }
}
