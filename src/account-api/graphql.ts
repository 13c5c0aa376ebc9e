/**
 * The account API as one Fetch-API handler (`Request` in, `Response` out), so the payments
 * service's Hono app can mount it (`app.on(["GET", "POST"], "/graphql", (c) => api.fetch(c.req.raw))`)
 * and the local dev server can serve it meanwhile. In order, cheapest first:
 *
 * 1. the access token (tokens.ts): none → 401, refused → 401, keys unreachable → 503, before the
 *    body is read;
 * 2. the body, at most MAX_GRAPHQL_BODY_BYTES however it is sent (413);
 * 3. GraphQL through graphql-yoga, with GraphQL Armor's limits checked while parsing and
 *    validating, before anything runs: tokens, depth, aliases, directives, cost (400);
 * 4. a time budget for the whole request (503 past it), so no request holds the service.
 *
 * The figures below are several times what the account island sends (its largest query, the
 * giving history, has 41 tokens, depth 3, no alias and costs 54.5 by Armor's measure: 2 per
 * object, 1 per scalar, times 1.5 per level), and small enough that a refused query costs almost
 * nothing.
 */
import { EnvelopArmor } from "@escape.tech/graphql-armor";
import type { GraphQLError, ValidationContext } from "graphql";
import { createGraphQLError, createYoga } from "graphql-yoga";
import type { Logger } from "../core/logger.js";
import { type AccountContext, accountSchema } from "./resolvers.js";
import { AccountError, type AccountStore } from "./store.js";
import { bearerToken, KeysUnavailable, TokenRejected, type TokenVerifier } from "./tokens.js";
import type { UserPoolDirectory } from "./user-pool.js";
import { LIMITS } from "./graphql-limits.js";

/** The payments service's one body cap (src/api/errors.ts MAX_BODY_BYTES; a test keeps them equal). */
export const MAX_GRAPHQL_BODY_BYTES = 16 * 1024;

/** The auth library's own sentences (what the island already says for the same state), each followed by what to do. */
export const NO_CURRENT_USER =
  "No current user. Sign in to your account to see your donations, receipts and regular gifts.";
export const NOT_AUTHENTICATED =
  "The user is not authenticated. Your sign-in has expired or is not valid: sign in again, then try again.";
const KEYS_UNAVAILABLE = "We cannot check your sign-in right now. Nothing was changed. Please try again in a minute.";
// Not "nothing was changed": the failure may come after the payment provider made a change (or,
// past the time budget, the request may still finish). Asking again is safe: every change of a gift
// is keyed at the provider and finds one already made (src/api/stripe/plan-provider.ts).
export const INTERNAL =
  "Something went wrong on our side. Please try again in a moment: asking again never makes a change twice.";
const TOO_SLOW =
  "Your account records took too long to answer. Please try again in a moment: asking again never makes a change twice.";

export interface AccountGraphqlDeps {
  store: AccountStore;
  verifyToken: TokenVerifier;
  userPool: UserPoolDirectory;
  logger?: Logger;
  /**
   * Whether a verified token was revoked (GlobalSignOut, RevokeToken). Cognito keeps that list,
   * not the token; without this hook a revoked token works until it expires (one hour).
   */
  isRevoked?: (token: string) => boolean | Promise<boolean>;
}

export interface AccountGraphql {
  fetch(request: Request): Promise<Response>;
}

function errorResponse(status: number, message: string, code: string, headers: Record<string, string> = {}) {
  return new Response(JSON.stringify({ errors: [{ message, extensions: { code } }] }), {
    status,
    headers: { "content-type": "application/json; charset=utf-8", "cache-control": "no-store", ...headers },
  });
}

/** The body, or null once it passes `max` bytes (whatever Content-Length claimed). */
async function readCapped(request: Request, max: number): Promise<Uint8Array | null> {
  const declared = Number(request.headers.get("content-length") ?? "0");
  if (declared > max) return null;
  if (!request.body) return new Uint8Array();
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > max) {
      await reader.cancel().catch(() => undefined);
      return null;
    }
    chunks.push(value);
  }
  const body = new Uint8Array(size);
  let at = 0;
  for (const c of chunks) {
    body.set(c, at);
    at += c.byteLength;
  }
  return body;
}

function isGraphQLErrorAllTheWay(error: unknown): boolean {
  const e = error as { name?: string; originalError?: unknown } | null;
  return !!e && e.name === "GraphQLError" && (!e.originalError || isGraphQLErrorAllTheWay(e.originalError));
}

/** Node's and the DOM's typings disagree on Uint8Array as a body; an ArrayBuffer suits both. */
export function arrayBufferOf(bytes: Uint8Array): ArrayBuffer {
  return bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer;
}

export function createAccountGraphql(deps: AccountGraphqlDeps): AccountGraphql {
  const limits = LIMITS;
  const log = (level: "warn" | "error", message: string) => deps.logger?.[level]("watch", message);
  // A limit broken while validating is reported as a validation error (not thrown), so yoga
  // answers it as it answers any invalid query: 400, no `data`. The token limit acts while parsing,
  // where a refusal is already a 400 syntax error.
  const asValidationError = {
    propagateOnRejection: false,
    onReject: [(ctx: ValidationContext | null, error: GraphQLError) => ctx?.reportError(error)],
  };
  const armor = new EnvelopArmor({
    maxTokens: { n: limits.maxTokens },
    maxDepth: { n: limits.maxDepth, ...asValidationError },
    maxAliases: { n: limits.maxAliases, ...asValidationError },
    maxDirectives: { n: limits.maxDirectives, ...asValidationError },
    costLimit: { maxCost: limits.maxCost, ...asValidationError },
    blockFieldSuggestion: { enabled: true },
  });
  const yoga = createYoga<AccountContext>({
    schema: accountSchema({ store: deps.store, userPool: deps.userPool }),
    graphqlEndpoint: "/graphql",
    landingPage: false,
    graphiql: false,
    cors: false,
    batching: false,
    logging: false,
    plugins: [...armor.protect().plugins],
    maskedErrors: {
      // Duck-typed, not instanceof: a bundler and Node may load different builds of graphql (its
      // package has both CommonJS and ESM files and no exports map), and one build's GraphQLError
      // is not an instance of the other's.
      maskError(error) {
        const wrapped = error as { originalError?: unknown; path?: readonly (string | number)[]; name?: string };
        const original = wrapped.name === "GraphQLError" ? wrapped.originalError : error;
        if (original instanceof AccountError) {
          return createGraphQLError(original.message, {
            ...(wrapped.path ? { path: wrapped.path } : {}),
            extensions: { code: original.code },
          });
        }
        // A GraphQL error all the way down (syntax, validation, a variable of the wrong type) is
        // the client's to read, as yoga's own masking decides.
        if (isGraphQLErrorAllTheWay(error)) return error as Error;
        // A crash is logged, not shown: the donor gets a sentence, never a stack.
        log("error", `account API: ${(original as Error)?.stack ?? String(original)}`);
        return createGraphQLError(INTERNAL, {
          ...(wrapped.path ? { path: wrapped.path } : {}),
          extensions: { code: "INTERNAL" },
        });
      },
    },
  });

  async function handle(request: Request, signal: AbortSignal): Promise<Response> {
    const token = bearerToken(request.headers.get("authorization"));
    if (!token) return errorResponse(401, NO_CURRENT_USER, "UNAUTHENTICATED", { "www-authenticate": "Bearer" });
    let donor: AccountContext["donor"];
    try {
      const verified = await deps.verifyToken(token);
      if (await deps.isRevoked?.(token)) throw new TokenRejected("revoked by a sign-out");
      donor = { sub: verified.sub };
    } catch (error) {
      if (error instanceof KeysUnavailable) {
        log("error", `account API: ${error.message}`);
        return errorResponse(503, KEYS_UNAVAILABLE, "UNAVAILABLE", { "retry-after": "30" });
      }
      if (!(error instanceof TokenRejected)) throw error;
      log("warn", `account API: refused a token (${error.message})`);
      return errorResponse(401, NOT_AUTHENTICATED, "UNAUTHENTICATED", {
        "www-authenticate": 'Bearer error="invalid_token"',
      });
    }
    let forward = request;
    if (request.method === "POST") {
      const body = await readCapped(request, MAX_GRAPHQL_BODY_BYTES);
      if (body === null)
        return errorResponse(
          413,
          `The request is larger than ${MAX_GRAPHQL_BODY_BYTES} bytes. Send a shorter query.`,
          "BODY_TOO_LARGE",
        );
      forward = new Request(request.url, {
        method: "POST",
        headers: request.headers,
        body: arrayBufferOf(body),
        signal,
      });
    } else if (request.method !== "GET") {
      return errorResponse(405, "Send GraphQL requests with POST /graphql.", "METHOD_NOT_ALLOWED", {
        allow: "GET, POST",
      });
    }
    const context: AccountContext = { donor, accessToken: token };
    const response = await yoga.fetch(forward, context);
    const headers = new Headers(response.headers);
    headers.set("cache-control", "no-store");
    return new Response(response.body, { status: response.status, headers });
  }

  return {
    async fetch(request) {
      const budget = new AbortController();
      let timer: ReturnType<typeof setTimeout> | undefined;
      const late = new Promise<Response>((resolve) => {
        timer = setTimeout(() => {
          budget.abort();
          log("warn", `account API: a request passed its ${limits.timeBudgetMs} ms budget`);
          resolve(errorResponse(503, TOO_SLOW, "TIMEOUT", { "retry-after": "5" }));
        }, limits.timeBudgetMs);
      });
      try {
        return await Promise.race([handle(request, budget.signal), late]);
      } catch (error) {
        log("error", `account API: ${(error as Error)?.stack ?? String(error)}`);
        return errorResponse(500, INTERNAL, "INTERNAL");
      } finally {
        clearTimeout(timer);
      }
    },
  };
}
