/**
 * The payments API as one Hono application (docs/payments-api.md), used three ways: `nzf-build api`
 * (src/api/node-server.ts), the Lambda handler (src/api/lambda.ts) and in process by the tests.
 * Everything it needs arrives in `deps`, so each way chooses its database, Stripe and clock.
 */
import { Hono } from "hono";
import { bodyLimit } from "hono/body-limit";
import { EXPOSED_HEADERS, PREFLIGHT_HEADERS } from "./cors.js";
import type { ApiDeps } from "./deps.js";
import { errorReply, errors, GENERIC, MAX_BODY_BYTES } from "./errors.js";
import { send } from "./reply.js";
import { contactRoutes } from "./routes/contact.js";
import { donationRoutes } from "./routes/donations.js";
import { paypalRoutes } from "./routes/paypal.js";
import { webhookRoutes } from "./routes/webhook.js";

export interface ApiAppOptions {
  /** The donor account API (src/account-api/service.ts), served at /graphql. */
  graphql?: { fetch(request: Request): Promise<Response> };
}

export function createApiApp(deps: ApiDeps, options: ApiAppOptions = {}): Hono {
  const app = new Hono({ strict: false });

  // A path with a NUL or broken percent-encoding is no route's. Refused here, first: the router
  // would pass a decoded NUL on to PostgreSQL (`/donations/%00`), which refuses it in text: a 500.
  app.use("*", async (c, next) => {
    if (!cleanPath(new URL(c.req.url).pathname)) return send(c, errors.badPath());
    await next();
  });

  app.use("*", async (c, next) => {
    const origin = c.req.header("origin");
    const allowed = deps.cors.allows(origin);
    if (c.req.method === "OPTIONS") {
      if (!allowed)
        return send(c, {
          ...errorReply(403, "cors_origin_not_allowed", `Origin ${origin ?? "(none)"} may not call this API.`),
          headers: { Vary: "Origin" },
        });
      return send(c, {
        status: 204,
        headers: { ...PREFLIGHT_HEADERS, "Access-Control-Allow-Origin": origin!, Vary: "Origin" },
      });
    }
    await next();
    c.res.headers.set("Vary", "Origin");
    if (allowed) {
      c.res.headers.set("Access-Control-Allow-Origin", origin!);
      c.res.headers.set("Access-Control-Expose-Headers", EXPOSED_HEADERS);
    }
  });
  // The same cap for every route. /graphql applies it itself (MAX_GRAPHQL_BODY_BYTES, the same
  // number, test/account-api/body-cap.test.ts), after the token: a guest is answered 401 before any
  // body is read, and a signed-in donor's oversized query gets GraphQL's own error shape.
  const capped = bodyLimit({ maxSize: MAX_BODY_BYTES, onError: (c) => send(c, errors.tooLarge()) });
  app.use("*", (c, next) => (options.graphql && c.req.path === "/graphql" ? next() : capped(c, next)));

  donationRoutes(app, deps);
  paypalRoutes(app, deps);
  webhookRoutes(app, deps);
  contactRoutes(app, deps);
  const { graphql } = options;
  if (graphql) {
    app.on(["GET", "POST"], "/graphql", (c) => graphql.fetch(c.req.raw));
    app.all("/graphql", (c) => send(c, errors.method("GET, POST")));
  }

  app.notFound((c) =>
    send(c, errorReply(404, "not_found", `No route ${c.req.method} ${c.req.path}. See docs/payments-api.md.`)),
  );
  app.onError((error, c) => {
    const stripeDown = (error as { type?: string }).type === "StripeConnectionError";
    deps.logger?.error("api", `${c.req.method} ${c.req.path}: ${(error as Error).stack ?? String(error)}`);
    if (stripeDown) return send(c, errors.unavailable());
    return send(c, errorReply(500, "internal_error", GENERIC.internal));
  });
  return app;
}

/** Every %XX decodes (as UTF-8) and nothing in the path is a control character. */
function cleanPath(path: string): boolean {
  try {
    // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is refused
    return !/[\u0000-\u001f\u007f]/.test(decodeURIComponent(path));
  } catch {
    return false;
  }
}
