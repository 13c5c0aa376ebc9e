/**
 * Maps what `@prismicio/client` throws onto our error catalogue, keeping the client's error as the
 * cause. The client's error classes carry no status code, so the retrying fetch's record of the final
 * status per URL fills that gap (403 and the "other status" case both arrive as a bare PrismicError).
 */
import * as prismic from "@prismicio/client";
import { NzfError } from "../core/errors.js";
import { redactUrl } from "./fetch-retry.js";

export interface ErrorContext {
  repository: string;
  endpoint: string;
  hasAccessToken: boolean;
  statusOf(url: string | undefined): number | undefined;
}

export function mapFetchError(error: unknown, context: ErrorContext): NzfError {
  if (error instanceof NzfError) return error;
  const url = error instanceof prismic.PrismicError && typeof error.url === "string" ? error.url : undefined;
  const subject = redactUrl(url ?? context.endpoint);
  const where = `repository "${context.repository}" at ${redactUrl(context.endpoint)}`;

  if (error instanceof prismic.RefNotFoundError || error instanceof prismic.RefExpiredError) {
    return new NzfError("PRISMIC_REF_NOT_FOUND", "Ref could not be found.", { subject, cause: error });
  }
  if (error instanceof prismic.ParsingError) {
    return new NzfError("PRISMIC_PARSING_ERROR", `The Prismic API rejected the query: ${error.message}`, {
      subject,
      cause: error,
    });
  }
  const status = context.statusOf(url);
  if (error instanceof prismic.ForbiddenError || status === 401 || status === 403) {
    const message = context.hasAccessToken
      ? `The Prismic API refused the access token for ${where} (HTTP ${status ?? 401}).`
      : `The Prismic ${where} is private and no access token was given (HTTP ${status ?? 401}).`;
    return new NzfError("PRISMIC_FORBIDDEN", message, { subject, cause: error });
  }
  if (error instanceof prismic.NotFoundError || status === 404) {
    return new NzfError("PRISMIC_REPOSITORY_NOT_FOUND", `The Prismic ${where} was not found (HTTP 404).`, {
      subject,
      cause: error,
    });
  }
  if (error instanceof prismic.PrismicError) {
    return new NzfError(
      "PRISMIC_INVALID_RESPONSE",
      `The Prismic API answered ${subject} with an unexpected HTTP ${status ?? "status"}.`,
      { subject, cause: error },
    );
  }
  const detail = error instanceof Error ? error.message : String(error);
  return new NzfError(
    "PRISMIC_INVALID_RESPONSE",
    `The Prismic API sent a response that could not be read for ${where}: ${detail}`,
    { subject, cause: error },
  );
}
