/**
 * The account island's GraphQL client (docs/account-api.md): POST with the donor's access token. On a
 * 401 it gets a fresh token (the refresh token) and tries once more, as the API's docs ask; a
 * second 401 means the sign-in is gone. Every failure becomes an AccountApiError whose message a
 * donor can read: the API's own sentences when it sent one, else ours.
 */

export class AccountApiError extends Error {
  constructor(
    message: string,
    /** The API's `extensions.code` (UNAUTHENTICATED, GIFT_NOT_FOUND, ...), or NETWORK / BAD_RESPONSE. */
    readonly code: string,
  ) {
    super(message);
    this.name = "AccountApiError";
  }
}

export const UNREACHABLE =
  "We could not reach your account records. Check your internet connection, then reload the page.";
const BAD_RESPONSE = "Your account records sent an answer we could not read. Please reload the page in a moment.";
const SIGNED_OUT = "The user is not authenticated. Your sign-in has expired: sign in again, then try again.";

export interface AccountApi {
  request<T>(query: string, variables?: Record<string, unknown>): Promise<T>;
}

export interface AccountApiOptions {
  url: string;
  /** The current access token; `forceRefresh` asks for a new one. */
  token: (forceRefresh: boolean) => Promise<string | null>;
}

interface GraphQLBody<T> {
  data?: T | null;
  errors?: { message?: string; extensions?: { code?: string } }[];
}

export function createAccountApi(options: AccountApiOptions): AccountApi {
  // The global fetch as it is at each request.
  const doFetch = (...args: Parameters<typeof fetch>) => fetch(...args);

  async function send<T>(token: string | null, body: string): Promise<{ status: number; json: GraphQLBody<T> }> {
    if (!token) throw new AccountApiError(SIGNED_OUT, "UNAUTHENTICATED");
    let response: Response;
    try {
      response = await doFetch(options.url, {
        method: "POST",
        headers: {
          "Content-Type": "application/json",
          Accept: "application/graphql-response+json, application/json",
          Authorization: `Bearer ${token}`,
        },
        body,
      });
    } catch {
      throw new AccountApiError(UNREACHABLE, "NETWORK");
    }
    let json: GraphQLBody<T>;
    try {
      json = (await response.json()) as GraphQLBody<T>;
    } catch {
      throw new AccountApiError(response.status >= 500 ? UNREACHABLE : BAD_RESPONSE, "BAD_RESPONSE");
    }
    return { status: response.status, json };
  }

  return {
    async request<T>(query: string, variables: Record<string, unknown> = {}): Promise<T> {
      const body = JSON.stringify({ query, variables });
      let answer = await send<T>(await options.token(false), body);
      if (answer.status === 401) answer = await send<T>(await options.token(true).catch(() => null), body);
      const first = answer.json.errors?.[0];
      if (first) {
        const code = first.extensions?.code ?? (answer.status === 401 ? "UNAUTHENTICATED" : "BAD_REQUEST");
        throw new AccountApiError(first.message || BAD_RESPONSE, code);
      }
      if (answer.status >= 400 || !answer.json.data) throw new AccountApiError(BAD_RESPONSE, "BAD_RESPONSE");
      return answer.json.data;
    },
  };
}
