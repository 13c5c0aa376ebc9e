/**
 * A deliberately small Prismic v2 content API client for the browser preview: only the two calls
 * the preview needs (a document by id, and a documents search at the preview ref), with the error
 * mapping of ./errors.ts. The build uses `@prismicio/client` through src/content; shipping that to
 * every editor's browser would add weight for two GET requests.
 */

import {
  ContentApiError,
  errorFromResponse,
  fetchRetrying429,
  NO_DOCUMENTS_MESSAGE,
  type FetchLike,
} from "./errors.js";

export interface PreviewDocument {
  id: string;
  uid?: string | null;
  type: string;
  lang?: string;
  data?: Record<string, unknown>;
  [key: string]: unknown;
}

export interface SearchResponse {
  page: number;
  total_pages: number;
  results_size: number;
  total_results_size: number;
  results: PreviewDocument[];
}

export interface PreviewClient {
  readonly endpoint: string;
  /** The ref every query of this client uses (the preview ref). */
  readonly ref: string;
  /** One page of documents/search at the ref; `params` are the API's query parameters (q, pageSize, page, lang, ...). */
  search(params?: Record<string, string>): Promise<SearchResponse>;
  getByID(id: string): Promise<PreviewDocument>;
}

export interface PreviewClientOptions {
  endpoint: string;
  ref: string;
  accessToken?: string;
  fetch: FetchLike;
  signal?: AbortSignal;
}

/** The default v2 endpoint of a repository. */
export function defaultEndpoint(repositoryName: string): string {
  return `https://${repositoryName}.cdn.prismic.io/api/v2`;
}

export function createPreviewClient(options: PreviewClientOptions): PreviewClient {
  const endpoint = options.endpoint.replace(/\/+$/, "");

  const search = async (params: Record<string, string> = {}): Promise<SearchResponse> => {
    const url = new URL(`${endpoint}/documents/search`);
    url.searchParams.set("ref", options.ref);
    url.searchParams.set("lang", "*");
    for (const [key, value] of Object.entries(params)) url.searchParams.set(key, value);
    if (options.accessToken) url.searchParams.set("access_token", options.accessToken);
    const href = url.toString();
    let response: Response;
    try {
      response = await fetchRetrying429(options.fetch, href, {
        signal: options.signal,
        headers: { accept: "application/json" },
      });
    } catch (error) {
      if (options.signal?.aborted) throw error;
      const detail = error instanceof Error && error.message ? ` (${error.message})` : "";
      throw new ContentApiError(
        "network",
        `The content API could not be reached${detail}. Check the connection and try again.`,
        null,
        href,
        error,
      );
    }
    if (!response.ok) throw await errorFromResponse(response, href, endpoint);
    try {
      return (await response.json()) as SearchResponse;
    } catch (error) {
      throw new ContentApiError(
        "invalid-response",
        "An invalid API response was returned (not JSON).",
        response.status,
        href,
        error,
      );
    }
  };

  return {
    endpoint,
    ref: options.ref,
    search,
    async getByID(id) {
      const page = await search({ q: `[[at(document.id, "${id.replace(/"/g, "")}")]]`, pageSize: "1" });
      const document = page.results?.[0];
      if (!document) throw new ContentApiError("no-documents", NO_DOCUMENTS_MESSAGE, 200, endpoint);
      return document;
    },
  };
}
