/**
 * The account API (docs/account-api.md) on node:http over an in-memory store, for the browser
 * tests that still run the payments dev server. Production, `nzf-build api` and `--watch` serve
 * the same handler (src/account-api/graphql.ts: tokens, body cap, yoga with GraphQL Armor, time
 * budget) from the payments service at /graphql, on its database. This file adds only what a bare local server needs: the shared
 * guard (bad targets, slow clients, body budget over all connections), CORS for loopback origins,
 * and 404 off /graphql. It reads and changes the store the payments dev server records into.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import type { Logger } from "../core/logger.js";
import {
  arrayBufferOf,
  createAccountGraphql,
  INTERNAL,
  MAX_GRAPHQL_BODY_BYTES,
  type AccountGraphqlDeps,
} from "../account-api/graphql.js";
import type { DonorKey, MemoryAccountStore } from "../account-api/store.js";
import { bearerToken, type TokenVerifier } from "../account-api/tokens.js";
import type { DonationCreated, DonationRequest, DonationStatus } from "../payments/types.js";
import { createBodyBudget, guard, hardenServer, parseTarget, serverOptions, type ServerLimits } from "./http-guard.js";

export { MAX_GRAPHQL_BODY_BYTES, NO_CURRENT_USER, NOT_AUTHENTICATED } from "../account-api/graphql.js";
const MAX_BODIES_IN_FLIGHT = 1024 * 1024;
const LOOPBACK_ORIGIN = /^http:\/\/(127\.0\.0\.1|localhost|\[::1\])(:\d{1,5})?$/;

export interface AccountApiDevServerOptions extends AccountGraphqlDeps {
  port?: number;
  host?: string;
  /** CORS origins, exactly; default any http loopback origin (where tests and watch serve the site). */
  allowedOrigin?: string[];
  serverLimits?: ServerLimits;
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
 * The payments dev server's `onDonationCreated` hook: files each donation under the account of a
 * verified access token that came with it; without one it is a guest gift, which joins an account
 * only when that account's donor, with the same e-mail verified, asks (claimGuestGifts).
 */
export function recordDonationsInto(store: MemoryAccountStore, verifyToken: TokenVerifier, logger?: Logger) {
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
        donor = { sub: (await verifyToken(token)).sub };
      } catch (error) {
        logger?.warn(
          "watch",
          `account API: a donation came with a token that was refused (${(error as Error).message}); recorded as a guest gift`,
        );
      }
    }
    store.record({ created: event.created, request: event.request, donor, status: event.status });
  };
}

export async function startAccountApiDevServer(options: AccountApiDevServerOptions): Promise<AccountApiDevServer> {
  const budget = createBodyBudget(MAX_BODIES_IN_FLIGHT);
  const api = createAccountGraphql(options);
  const originAllowed = (origin: string | undefined) =>
    origin !== undefined &&
    (options.allowedOrigin ? options.allowedOrigin.includes(origin) : LOOPBACK_ORIGIN.test(origin));

  function send(
    res: ServerResponse,
    origin: string | undefined,
    status: number,
    body: string | Uint8Array,
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
        ...headers,
        ...cors,
      })
      .end(body);
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const origin = typeof req.headers.origin === "string" ? req.headers.origin : undefined;
    const target = parseTarget(req.url);
    const path = target.path.replace(/\/+$/, "") || "/";
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
    const headers = new Headers();
    for (const [name, value] of Object.entries(req.headers)) {
      if (typeof value === "string") headers.set(name, value);
      else if (Array.isArray(value)) headers.set(name, value.join(", "));
    }
    let body: Buffer | undefined;
    // A guest's body is never read: the handler answers 401 first, so only then is it drained.
    if (req.method === "POST" && bearerToken(headers.get("authorization"))) {
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
      body = read.body;
    } else {
      req.resume();
    }
    const url = `http://127.0.0.1/graphql${target.search}`;
    const response = await api.fetch(
      new Request(url, { method: req.method, headers, ...(body !== undefined ? { body: arrayBufferOf(body) } : {}) }),
    );
    const out: Record<string, string> = {};
    response.headers.forEach((value, name) => {
      out[name] = value;
    });
    send(res, origin, response.status, new Uint8Array(await response.arrayBuffer()), out);
  }

  const server = createServer(
    serverOptions(options.serverLimits),
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
