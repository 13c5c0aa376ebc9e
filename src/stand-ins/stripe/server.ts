/**
 * The HTTP side: Stripe's conventions around every endpoint, in one place.
 * - Keys: `Authorization: Bearer sk_test_...` (or curl's Basic `sk_test_...:`); a live key, a
 *   malformed one or none is a 401. A publishable key (`pk_test_...`, also as the `key` form field,
 *   as Stripe.js sends it) reaches only the endpoints Stripe.js uses, and only with the intent's
 *   `client_secret`.
 * - `Stripe-Version`: checked for form; the answer says which version answered.
 * - `Idempotency-Key` on POST: the same key and parameters replay the first answer
 *   (`Idempotent-Replayed: true`); the same key with other parameters or another endpoint is
 *   400 `idempotency_error`. Answers for refused parameters are not kept (Stripe keeps a result
 *   only once the endpoint ran).
 * - Bodies over 256 KiB are refused (413); any error inside is a Stripe-shaped 500 and the server
 *   stays up.
 */
import { Hono } from "hono";
import { bodyLimit } from "hono/body-limit";
import { StripeApiError } from "./errors.js";
import { type FormObject, parseForm } from "./form.js";
import { randomToken } from "./ids.js";
import { Params } from "./params.js";
import { render } from "./render.js";
import { API_VERSION, type Obj, type Store } from "./store.js";

export type AuthKind = "secret" | "publishable";

export interface Ctx {
  store: Store;
  params: Params;
  /** The `:id` of the path, when the route has one. */
  id: string;
  auth: AuthKind;
  /** The request's Stripe-Version, or the default: some parameters exist only in some versions. */
  version: string;
}

export interface Route {
  method: "GET" | "POST" | "DELETE";
  path: string;
  /** Stripe.js may call it with a publishable key (the handler checks the client secret). */
  publishable?: boolean;
  /** Returns the object to answer with (rendered with `expand`), or throws a StripeApiError. */
  handler: (ctx: Ctx) => Obj;
}

export interface KeyRules {
  secretKey?: string;
  publishableKey?: string;
}

export interface RequestRecord {
  method: string;
  path: string;
  status: number;
  idempotencyKey: string | null;
  stripeVersion: string | null;
  replayed: boolean;
}

export const MAX_BODY_BYTES = 256 * 1024;
const MAX_RECORDS = 2000;
const MAX_IDEMPOTENT_RESULTS = 50_000;

const JSON_HEADERS = {
  "content-type": "application/json",
  "cache-control": "no-cache, no-store",
  "access-control-allow-origin": "*",
  "access-control-expose-headers": "Request-Id, Idempotent-Replayed, Original-Request, Stripe-Version",
};

const SECRET = /^(sk|rk)_test_[A-Za-z0-9]{8,247}$/;
const PUBLISHABLE = /^pk_test_[A-Za-z0-9]{8,247}$/;
const VERSION = /^\d{4}-\d{2}-\d{2}(\.[a-z]+)?$/;

const masked = (key: string) => key.slice(0, 8) + "*".repeat(Math.max(0, key.length - 12)) + key.slice(-4);

function authError(message: string): StripeApiError {
  return new StripeApiError(401, "invalid_request_error", message);
}

/** Which key the request carries, checked; throws Stripe's 401. */
function authenticate(header: string | undefined, formKey: string | undefined, rules: KeyRules): AuthKind {
  let key: string | undefined;
  if (header) {
    const bearer = /^Bearer (\S+)$/i.exec(header);
    const basic = /^Basic (\S+)$/i.exec(header);
    if (bearer) key = bearer[1];
    else if (basic) key = Buffer.from(basic[1]!, "base64").toString("utf8").split(":")[0];
    else
      throw authError(
        "Invalid API Key provided. Provide your API key in the Authorization header, using Bearer auth (e.g. 'Authorization: Bearer YOUR_SECRET_KEY').",
      );
  } else key = formKey;
  if (!key)
    throw authError(
      "You did not provide an API key. You need to provide your API key in the Authorization header, using Bearer auth (e.g. 'Authorization: Bearer YOUR_SECRET_KEY').",
    );
  if (key.startsWith("pk_")) {
    if (!PUBLISHABLE.test(key) || (rules.publishableKey !== undefined && key !== rules.publishableKey))
      throw authError(`Invalid API Key provided: ${masked(key)}`);
    return "publishable";
  }
  if (!SECRET.test(key) || (rules.secretKey !== undefined && key !== rules.secretKey))
    throw authError(`Invalid API Key provided: ${masked(key)}`);
  return "secret";
}

/** Parameters in a canonical form, to compare an idempotent retry with the first request. */
function canonical(value: unknown): string {
  if (typeof value === "string") return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map(canonical).join(",")}]`;
  const obj = value as Record<string, unknown>;
  return `{${Object.keys(obj)
    .sort()
    .map((k) => `${JSON.stringify(k)}:${canonical(obj[k])}`)
    .join(",")}}`;
}

export function createApp(store: Store, routes: readonly Route[], keys: KeyRules, records: RequestRecord[]): Hono {
  const app = new Hono();
  const record = (r: RequestRecord) => {
    records.push(r);
    if (records.length > MAX_RECORDS) records.splice(0, records.length - MAX_RECORDS);
  };
  const answer = (status: number, body: string, extra: Record<string, string> = {}) =>
    new Response(body, { status, headers: { ...JSON_HEADERS, "stripe-version": API_VERSION, ...extra } });
  const errorAnswer = (error: StripeApiError, requestId: string) =>
    answer(error.status, JSON.stringify(error.body(), null, 2), { "request-id": requestId });

  app.use(
    "*",
    bodyLimit({
      maxSize: MAX_BODY_BYTES,
      onError: () => {
        const tooBig = new StripeApiError(
          413,
          "invalid_request_error",
          `Request bodies may be at most ${MAX_BODY_BYTES} bytes.`,
        );
        // The rest of the body is not read: the connection cannot carry another request.
        return answer(413, JSON.stringify(tooBig.body(), null, 2), { connection: "close" });
      },
    }),
  );

  // Stripe.js and the browser stand-in call from a page's origin.
  app.options(
    "*",
    () =>
      new Response(null, {
        status: 204,
        headers: {
          "access-control-allow-origin": "*",
          "access-control-allow-methods": "GET, POST, DELETE",
          "access-control-allow-headers": "Authorization, Content-Type, Idempotency-Key, Stripe-Version",
          "access-control-max-age": "300",
        },
      }),
  );

  for (const route of routes) {
    app.on(route.method, route.path, async (c) => {
      const requestId = `req_${randomToken(14)}`;
      const method = c.req.method;
      const path = new URL(c.req.url).pathname;
      const idempotencyKey = method === "POST" ? (c.req.header("idempotency-key") ?? null) : null;
      const version = c.req.header("stripe-version") ?? null;
      let status = 500;
      let replayed = false;
      try {
        let form: FormObject;
        if (method === "POST") {
          const type = c.req.header("content-type") ?? "";
          const text = await c.req.text();
          if (text.length > 0 && !/^application\/x-www-form-urlencoded\b/i.test(type))
            throw new StripeApiError(
              400,
              "invalid_request_error",
              "Invalid request: the Stripe API takes application/x-www-form-urlencoded bodies.",
            );
          form = parseForm(text);
        } else form = parseForm(new URL(c.req.url).search.slice(1));
        const formKey = typeof form.key === "string" ? form.key : undefined;
        const auth = authenticate(c.req.header("authorization"), formKey, keys);
        if (!c.req.header("authorization")) delete form.key;
        if (auth === "publishable" && !route.publishable)
          throw authError(
            "This API call cannot be made with a publishable API key. Please use a secret API key. You can find a list of your API keys at https://dashboard.stripe.com/account/apikeys.",
          );
        if (version !== null && !VERSION.test(version))
          throw new StripeApiError(400, "invalid_request_error", `Invalid Stripe API version: ${version.slice(0, 60)}`);

        const params = canonical(form);
        if (idempotencyKey !== null) {
          if (idempotencyKey.length === 0 || idempotencyKey.length > 255)
            throw new StripeApiError(
              400,
              "invalid_request_error",
              "Idempotency-Key must be between 1 and 255 characters.",
            );
          const stored = store.idempotency.get(idempotencyKey);
          if (stored) {
            if (stored.method !== method || stored.path !== path || stored.params !== params)
              throw new StripeApiError(
                400,
                "idempotency_error",
                `Keys for idempotent requests can only be used with the same parameters they were first used with. Try using a key other than '${idempotencyKey.slice(0, 255)}' if you meant to execute a different request.`,
              );
            status = stored.status;
            replayed = true;
            return answer(stored.status, stored.body, {
              "request-id": requestId,
              "idempotency-key": idempotencyKey,
              "idempotent-replayed": "true",
              "original-request": stored.requestId,
            });
          }
        }

        const reader = new Params(form);
        const expand = reader.strings("expand") ?? [];
        if (expand.length > 30) throw new StripeApiError(400, "invalid_request_error", "Too many expand paths.");
        let body: string;
        store.request = { id: requestId, idempotencyKey };
        try {
          const result = route.handler({
            store,
            params: reader,
            id: c.req.param("id") ?? "",
            auth,
            version: version ?? API_VERSION,
          });
          reader.done();
          body = JSON.stringify(render(store, result, expand), null, 2);
          status = 200;
        } catch (error) {
          if (!(error instanceof StripeApiError) || error.status !== 402) throw error;
          // A decline ran the endpoint (a charge was tried): Stripe keeps it for the key.
          status = 402;
          body = JSON.stringify(error.body(), null, 2);
        } finally {
          store.request = null;
        }
        if (idempotencyKey !== null) {
          store.idempotency.set(idempotencyKey, { method, path, params, status, body, requestId });
          // Stripe forgets keys after 24 hours; a long watch session forgets the oldest first.
          if (store.idempotency.size > MAX_IDEMPOTENT_RESULTS)
            store.idempotency.delete(store.idempotency.keys().next().value!);
        }
        const extra: Record<string, string> = { "request-id": requestId };
        if (idempotencyKey !== null) extra["idempotency-key"] = idempotencyKey;
        return answer(status, body, extra);
      } catch (error) {
        const stripeError =
          error instanceof StripeApiError
            ? error
            : new StripeApiError(500, "api_error", "An unknown error occurred in the Stripe stand-in.", {
                extra: { stand_in_detail: error instanceof Error ? error.message.slice(0, 500) : String(error) },
              });
        status = stripeError.status;
        return errorAnswer(stripeError, requestId);
      } finally {
        record({ method, path, status, idempotencyKey, stripeVersion: version, replayed });
      }
    });
  }

  app.notFound((c) => {
    const path = new URL(c.req.url).pathname;
    return errorAnswer(
      new StripeApiError(
        404,
        "invalid_request_error",
        `Unrecognized request URL (${c.req.method}: ${path.slice(0, 200)}). Please see https://stripe.com/docs or we can help at https://support.stripe.com/.`,
      ),
      `req_${randomToken(14)}`,
    );
  });
  app.onError((error) =>
    errorAnswer(
      new StripeApiError(500, "api_error", "An unknown error occurred in the Stripe stand-in.", {
        extra: { stand_in_detail: error instanceof Error ? error.message.slice(0, 500) : String(error) },
      }),
      `req_${randomToken(14)}`,
    ),
  );
  return app;
}
