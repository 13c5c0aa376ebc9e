/**
 * The local account API (docs/account-api.md): GraphQL over HTTP at `POST /graphql`, served by
 * graphql-http (the GraphQL over HTTP reference server) on node:http with the same guard as the
 * other local servers. Every request needs a user pool token (`Authorization: Bearer <JWT>`),
 * verified against the pool's JWKS; a guest gets 401 and no data. It reads and changes the shared
 * AccountStore that the payments dev server records donations into (`onDonationCreated`).
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { GraphQLError } from "graphql/index.js";
import { createHandler } from "graphql-http";
import type { Logger } from "../core/logger.js";
import { accountRootValue, accountSchema, type AccountContext } from "../account-api/resolvers.js";
import { AccountError, type AccountStore, type DonorKey } from "../account-api/store.js";
import { createAccountStore } from "../account-api/store.js";
import {
  bearerToken,
  createTokenVerifier,
  KeysUnavailable,
  TokenRejected,
  type TokenVerifier,
} from "../account-api/tokens.js";
import type { DonationCreated, DonationRequest, DonationStatus } from "../payments/types.js";
import { createBodyBudget, guard, hardenServer, parseTarget, serverOptions, type ServerLimits } from "./http-guard.js";

export const MAX_GRAPHQL_BODY_BYTES = 32 * 1024;
const MAX_BODIES_IN_FLIGHT = 1024 * 1024;
const LOOPBACK_ORIGIN = /^http:\/\/(127\.0\.0\.1|localhost|\[::1\])(:\d{1,5})?$/;

/** The user pool's own sentences (the specification's catalogue), each followed by what to do. */
export const NO_CURRENT_USER =
  "No current user. Sign in to your account to see your donations, receipts and regular gifts.";
export const NOT_AUTHENTICATED =
  "The user is not authenticated. Your sign-in has expired or is not valid: sign in again, then try again.";
const KEYS_UNAVAILABLE = "We cannot check your sign-in right now. Nothing was changed. Please try again in a minute.";
const INTERNAL = "Something went wrong on our side. Nothing was changed. Please try again in a moment.";

export interface AccountApiDevServerOptions {
  store: AccountStore;
  verifyToken: TokenVerifier;
  port?: number;
  host?: string;
  /** CORS origins, exactly; default any http loopback origin (where tests and watch serve the site). */
  allowedOrigin?: string[];
  limits?: ServerLimits;
  logger?: Logger;
  /**
   * Whether a verified token was revoked (GlobalSignOut, RevokeToken). Cognito keeps that list,
   * not the token; without this hook a revoked token works here until it expires. Tests pass the
   * cognito-local bridge's record (test/support/cognito-local.ts).
   */
  isRevoked?: (token: string) => boolean | Promise<boolean>;
}

export interface AccountApiDevServer {
  url: string;
  /** `${url}/graphql` */
  graphqlUrl: string;
  stop(): Promise<void>;
}

function errorBody(message: string, code: string): string {
  return JSON.stringify({ errors: [{ message, extensions: { code } }] });
}

/**
 * The payments dev server's `onDonationCreated` hook: records each donation under the token's
 * account when the request carried a valid one, else under the donor's e-mail (a donor who gave
 * before signing in, or as a guest with the account's address, still sees the gift).
 */
export function recordDonationsInto(store: AccountStore, verifyToken: TokenVerifier, logger?: Logger) {
  return async (event: {
    authorization?: string;
    created: DonationCreated;
    request: DonationRequest;
    status: () => DonationStatus;
  }) => {
    let donor: DonorKey = {};
    const token = bearerToken(event.authorization);
    if (token) {
      try {
        const verified = await verifyToken(token);
        donor = { sub: verified.sub, email: verified.email };
      } catch (error) {
        logger?.warn(
          "watch",
          `account API: a donation came with a token that was refused (${(error as Error).message}); recorded by e-mail only`,
        );
      }
    }
    store.record({ created: event.created, request: event.request, donor, status: event.status });
  };
}

export async function startAccountApiDevServer(options: AccountApiDevServerOptions): Promise<AccountApiDevServer> {
  const budget = createBodyBudget(MAX_BODIES_IN_FLIGHT);
  const schema = accountSchema();
  const rootValue = accountRootValue(options.store);
  const originAllowed = (origin: string | undefined) =>
    origin !== undefined &&
    (options.allowedOrigin ? options.allowedOrigin.includes(origin) : LOOPBACK_ORIGIN.test(origin));

  const graphql = createHandler<IncomingMessage, { donor: AccountContext["donor"] }, AccountContext>({
    schema,
    rootValue,
    context: (req) => ({ donor: req.context.donor }),
    formatError(error) {
      const original = (error as GraphQLError).originalError;
      // Resolver crashes are logged, not shown: the donor gets a sentence, not a stack.
      if (original && !(original instanceof AccountError) && !(original instanceof GraphQLError)) {
        options.logger?.error("watch", `account API: ${original.stack ?? original.message}`);
        return new GraphQLError(
          INTERNAL,
          (error as GraphQLError).nodes,
          undefined,
          undefined,
          (error as GraphQLError).path,
          undefined,
          { code: "INTERNAL" },
        );
      }
      return error;
    },
  });

  function send(
    res: ServerResponse,
    origin: string | undefined,
    status: number,
    body: string,
    headers: Record<string, string> = {},
  ) {
    const cors: Record<string, string> = originAllowed(origin)
      ? { "Access-Control-Allow-Origin": origin!, Vary: "Origin" }
      : { Vary: "Origin" };
    if (res.destroyed) return;
    res
      .writeHead(status, {
        "Content-Type": "application/json; charset=utf-8",
        "Cache-Control": "no-store",
        ...cors,
        ...headers,
      })
      .end(body);
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const origin = typeof req.headers.origin === "string" ? req.headers.origin : undefined;
    const path = parseTarget(req.url).path.replace(/\/+$/, "") || "/";
    if (path !== "/graphql")
      return send(
        res,
        origin,
        404,
        errorBody(
          `There is nothing at ${path}. The account API is at POST /graphql (docs/account-api.md).`,
          "NOT_FOUND",
        ),
      );
    if (req.method === "OPTIONS") {
      if (!originAllowed(origin))
        return send(
          res,
          undefined,
          403,
          errorBody(
            `Origin ${origin ?? "(none)"} may not call the account API. Open the site from its own address.`,
            "CORS_ORIGIN_NOT_ALLOWED",
          ),
        );
      res
        .writeHead(204, {
          "Access-Control-Allow-Origin": origin!,
          "Access-Control-Allow-Methods": "GET, POST, OPTIONS",
          "Access-Control-Allow-Headers": "Authorization, Content-Type",
          "Access-Control-Max-Age": "600",
          Vary: "Origin",
        })
        .end();
      return;
    }
    if (req.method !== "POST" && req.method !== "GET") {
      return send(res, origin, 405, errorBody("Send GraphQL requests with POST /graphql.", "METHOD_NOT_ALLOWED"), {
        Allow: "GET, POST, OPTIONS",
      });
    }
    // Guests get nothing: the token is checked before the query is even parsed.
    const token = bearerToken(typeof req.headers.authorization === "string" ? req.headers.authorization : undefined);
    if (!token)
      return send(res, origin, 401, errorBody(NO_CURRENT_USER, "UNAUTHENTICATED"), { "WWW-Authenticate": "Bearer" });
    let donor: AccountContext["donor"];
    try {
      const verified = await options.verifyToken(token);
      if (await options.isRevoked?.(token)) throw new TokenRejected("revoked by a sign-out");
      donor = { sub: verified.sub, email: verified.email };
    } catch (error) {
      if (error instanceof KeysUnavailable) {
        options.logger?.error("watch", `account API: ${error.message}`);
        return send(res, origin, 503, errorBody(KEYS_UNAVAILABLE, "UNAVAILABLE"), { "Retry-After": "30" });
      }
      if (!(error instanceof TokenRejected)) throw error;
      options.logger?.warn("watch", `account API: refused a token (${error.message})`);
      return send(res, origin, 401, errorBody(NOT_AUTHENTICATED, "UNAUTHENTICATED"), {
        "WWW-Authenticate": 'Bearer error="invalid_token"',
      });
    }
    let body: string | null = null;
    if (req.method === "POST") {
      const read = await budget.read(req, MAX_GRAPHQL_BODY_BYTES);
      if (!read.ok) {
        const message =
          read.status === 413
            ? `The request is larger than ${MAX_GRAPHQL_BODY_BYTES} bytes. Send a shorter query.`
            : read.status === 503
              ? "The account API is busy. Please try again in a few seconds."
              : "The request did not arrive in full. Please try again.";
        return send(
          res,
          origin,
          read.status,
          errorBody(
            message,
            read.status === 413 ? "BODY_TOO_LARGE" : read.status === 503 ? "UNAVAILABLE" : "INCOMPLETE_BODY",
          ),
        );
      }
      body = read.body.toString("utf8");
    }
    const [payload, init] = await graphql({
      method: req.method,
      url: req.url ?? "/graphql",
      headers: req.headers,
      body,
      raw: req,
      context: { donor },
    });
    let status = init.status;
    // A result without `data` is a request error (e.g. a variable of the wrong type): the GraphQL
    // over HTTP spec asks for 4xx with application/graphql-response+json, graphql-http sends 200.
    const type = String((init.headers as Record<string, string> | undefined)?.["content-type"] ?? "");
    if (
      status === 200 &&
      payload &&
      type.startsWith("application/graphql-response+json") &&
      !("data" in (JSON.parse(payload) as object))
    )
      status = 400;
    send(
      res,
      origin,
      status,
      payload ?? errorBody(init.statusText ?? "Bad request.", "BAD_REQUEST"),
      init.headers as Record<string, string> | undefined,
    );
  }

  const server = createServer(
    serverOptions(options.limits),
    guard(handle, {
      logger: options.logger,
      label: "watch",
      name: "account API dev server",
      reply: (res, status, message) =>
        send(
          res,
          undefined,
          status,
          errorBody(status >= 500 ? INTERNAL : message, status >= 500 ? "INTERNAL" : "BAD_REQUEST"),
        ),
    }),
  );
  hardenServer(server, { logger: options.logger, label: "watch", name: "account API dev server" });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, options.host ?? "127.0.0.1", () => resolve());
  });
  const url = `http://${options.host ?? "127.0.0.1"}:${(server.address() as AddressInfo).port}`;
  options.logger?.info("watch", `account API dev server on ${url}/graphql`);
  return {
    url,
    graphqlUrl: `${url}/graphql`,
    stop: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      }),
  };
}

/**
 * The account API for `--watch`: a fresh in-memory store, tokens checked against the given pool,
 * and the hook the payments dev server calls with each new donation, recording into that store.
 */
export async function startLocalAccountApi(options: { issuer: string; clientId: string; logger?: Logger }) {
  const store = createAccountStore();
  const verifyToken = createTokenVerifier({ issuer: options.issuer, clientId: options.clientId });
  const server = await startAccountApiDevServer({ store, verifyToken, logger: options.logger });
  return { ...server, recordDonation: recordDonationsInto(store, verifyToken, options.logger) };
}
