/**
 * A local stand-in of PayPal's REST API for the calls the payments service makes through PayPal's
 * server SDK, written from PayPal's REST reference: OAuth 2.0 client credentials
 * (/v1/oauth2/token), Orders v2 (create, show, capture once), Payments v2 (capture, refund),
 * catalog products, billing plans and subscriptions (create, show, cancel, suspend, activate, revise),
 * /v1/notifications/verify-webhook-signature, and signed webhook delivery. Every call but the
 * token needs a Bearer token it issued; a POST with PayPal-Request-Id is answered once and
 * replayed after (idempotency, as PayPal keeps the key). Loopback only.
 *
 * PayPal's windows, where the donor approves, are played by `approveOrder`/`approveSubscription`,
 * or by the approve links' pages (a button), so watch mode can be clicked through by hand.
 */
import { randomBytes } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { money } from "./amounts.js";
import { type StandInContext, paypalId } from "./context.js";
import { invalid, notFound, oauthError, PayPalHttpError, restError } from "./errors.js";
import { Orders, type Payer } from "./orders.js";
import { Subscriptions } from "./subscriptions.js";
import { type Delivery, newEventId, type WebhookEvent, WebhookSender, WebhookSigner } from "./webhooks.js";

export interface PayPalStandInOptions {
  /** 0 (the default) takes any free port. */
  port?: number;
  clientId?: string;
  clientSecret?: string;
  /** Where webhook events are POSTed; none: events are only recorded. */
  webhookUrl?: string;
  /** The webhook's id, as PayPal's developer dashboard shows it. */
  webhookId?: string;
  /** Pauses between delivery attempts of one event; PayPal's are hours apart, these are short. */
  webhookRetryDelaysMs?: readonly number[];
  now?: () => Date;
}

export interface PayPalStandIn {
  url: string;
  port: number;
  clientId: string;
  clientSecret: string;
  webhookId: string;
  /** The donor approves the order in PayPal's window; returns the merchant's return URL if any. */
  approveOrder(orderId: string, payer?: Payer): string | undefined;
  approveSubscription(subscriptionId: string): string | undefined;
  /** The payer consents to a revise (a new price) in PayPal's window, by the subscription's id or the revise's token. */
  approveRevision(subscriptionIdOrToken: string): string | undefined;
  /** PayPal bills a subscription's next cycle (PAYMENT.SALE.COMPLETED; EXPIRED after the last). */
  chargeSubscriptionCycle(subscriptionId: string): void;
  /** The donor disputes a capture with PayPal (CUSTOMER.DISPUTE.CREATED). */
  openDispute(captureId: string, reason?: string): void;
  /** Every event raised, in order, with its delivery attempts. */
  deliveries(): Delivery[];
  /** Resolves when every event raised so far has been delivered or given up on. */
  settled(): Promise<void>;
  redeliver(eventId: string): Promise<void>;
  /** The headers PayPal would send with `body`, for tests that forge or replay deliveries. */
  signWebhook(body: string, time?: Date): Record<string, string>;
  stop(): Promise<void>;
}

const HOST = "127.0.0.1";
const MAX_BODY = 1024 * 1024;
const TOKEN_SECONDS = 32_400;

type Handler = (req: Request) => { status: number; body: unknown } | Promise<{ status: number; body: unknown }>;
interface Request {
  method: string;
  path: string;
  params: string[];
  query: URLSearchParams;
  headers: IncomingMessage["headers"];
  raw: string;
  json(): Record<string, unknown>;
}

export async function startPayPalStandIn(options: PayPalStandInOptions = {}): Promise<PayPalStandIn> {
  const clientId = options.clientId ?? `AStandIn${randomBytes(12).toString("hex")}`;
  const clientSecret = options.clientSecret ?? `EStandIn${randomBytes(16).toString("hex")}`;
  const webhookId = options.webhookId ?? paypalId("", 17);
  const now = options.now ?? (() => new Date());
  const tokens = new Map<string, number>();
  const idempotent = new Map<string, { status: number; body: unknown }>();

  const server = createServer((req, res) => void handle(req, res));
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, HOST, () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  const url = `http://${HOST}:${port}`;
  const signer = new WebhookSigner(webhookId, `${url}/v1/notifications/certs/CERT-stand-in-${webhookId}`);
  const sender = new WebhookSender(signer, options.webhookUrl, options.webhookRetryDelaysMs ?? [50, 200, 1000]);
  const ctx: StandInContext = {
    baseUrl: url,
    now,
    emit(eventType, resourceType, summary, resource, resourceVersion) {
      const event: WebhookEvent = {
        id: newEventId(),
        event_version: "1.0",
        create_time: now().toISOString(),
        resource_type: resourceType,
        ...(resourceVersion ? { resource_version: resourceVersion } : {}),
        event_type: eventType,
        summary,
        resource,
        links: [],
      };
      event.links = [
        { href: `${url}/v1/notifications/webhooks-events/${event.id}`, rel: "self", method: "GET" },
        { href: `${url}/v1/notifications/webhooks-events/${event.id}/resend`, rel: "resend", method: "POST" },
      ];
      // After the answer that caused it, as PayPal sends events asynchronously.
      setImmediate(() => sender.send(event));
    },
  };
  const orders = new Orders(ctx);
  const subscriptions = new Subscriptions(ctx);

  const routes: [string, RegExp, Handler][] = [
    ["POST", /^\/v2\/checkout\/orders$/, (r) => orders.create(r.json(), prefer(r))],
    ["GET", /^\/v2\/checkout\/orders\/([^/]+)$/, (r) => ({ status: 200, body: orders.get(r.params[0]!) })],
    ["POST", /^\/v2\/checkout\/orders\/([^/]+)\/capture$/, (r) => orders.capture(r.params[0]!, prefer(r))],
    ["GET", /^\/v2\/payments\/captures\/([^/]+)$/, (r) => ({ status: 200, body: orders.getCapture(r.params[0]!) })],
    ["POST", /^\/v2\/payments\/captures\/([^/]+)\/refund$/, (r) => orders.refund(r.params[0]!, r.raw ? r.json() : {})],
    ["POST", /^\/v1\/catalogs\/products$/, (r) => subscriptions.createProduct(r.json())],
    [
      "GET",
      /^\/v1\/catalogs\/products\/([^/]+)$/,
      (r) => ({ status: 200, body: subscriptions.getProduct(r.params[0]!) }),
    ],
    ["POST", /^\/v1\/billing\/plans$/, (r) => subscriptions.createPlan(r.json())],
    ["GET", /^\/v1\/billing\/plans\/([^/]+)$/, (r) => ({ status: 200, body: subscriptions.getPlan(r.params[0]!) })],
    ["POST", /^\/v1\/billing\/subscriptions$/, (r) => subscriptions.create(r.json())],
    [
      "GET",
      /^\/v1\/billing\/subscriptions\/([^/]+)$/,
      (r) => ({ status: 200, body: subscriptions.get(r.params[0]!, r.query.get("fields")) }),
    ],
    ["POST", /^\/v1\/billing\/subscriptions\/([^/]+)\/revise$/, (r) => subscriptions.revise(r.params[0]!, r.json())],
    [
      "POST",
      /^\/v1\/billing\/subscriptions\/([^/]+)\/(cancel|suspend|activate)$/,
      (r) =>
        subscriptions.change(r.params[0]!, r.params[1] as "cancel" | "suspend" | "activate", r.raw ? r.json() : {}),
    ],
    [
      "POST",
      /^\/v1\/notifications\/verify-webhook-signature$/,
      (r) => ({ status: 200, body: signer.verify(r.json()) }),
    ],
  ];

  function prefer(r: Request): string | undefined {
    const value = r.headers.prefer;
    return typeof value === "string" ? value.trim() : undefined;
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    try {
      const chunks: Buffer[] = [];
      let size = 0;
      for await (const chunk of req) {
        size += (chunk as Buffer).length;
        if (size > MAX_BODY)
          throw restError(413 as number, "INVALID_REQUEST", [
            { issue: "REQUEST_TOO_LARGE", description: "The request body is too large." },
          ]);
        chunks.push(chunk as Buffer);
      }
      const raw = Buffer.concat(chunks).toString("utf8");
      const target = new URL(req.url ?? "/", url);
      const method = req.method ?? "GET";
      const path = target.pathname;

      if (method === "POST" && path === "/v1/oauth2/token") return send(res, 200, token(req, raw));
      if (method === "GET" && path.startsWith("/v1/notifications/certs/")) {
        res.writeHead(200, { "content-type": "application/x-pem-file" });
        return void res.end(signer.publicKeyPem());
      }
      if (
        path === "/checkoutnow" ||
        path === "/webapps/billing/subscriptions" ||
        path === "/webapps/billing/subscriptions/update"
      )
        return approvalPage(req, res, method, path, target.searchParams);

      const route = routes.find(([m, pattern]) => pattern.test(path) && m === method);
      if (!route) {
        if (routes.some(([, pattern]) => pattern.test(path))) throw restError(405, "METHOD_NOT_SUPPORTED");
        throw notFound(path);
      }
      authenticate(req);
      const request: Request = {
        method,
        path,
        params: route[1].exec(path)!.slice(1),
        query: target.searchParams,
        headers: req.headers,
        raw,
        json() {
          if (raw.trim() === "") throw invalid("/", "MALFORMED_REQUEST_JSON", "The request JSON is not well formed.");
          try {
            const parsed = JSON.parse(raw) as unknown;
            if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed))
              throw new Error("not an object");
            return parsed as Record<string, unknown>;
          } catch {
            throw invalid("/", "MALFORMED_REQUEST_JSON", "The request JSON is not well formed.");
          }
        },
      };
      const requestId = req.headers["paypal-request-id"];
      const key = typeof requestId === "string" && method === "POST" ? `${path} ${requestId}` : undefined;
      const earlier = key ? idempotent.get(key) : undefined;
      if (earlier) return send(res, earlier.status, earlier.body);
      const answer = await route[2](request);
      if (key) idempotent.set(key, answer);
      return send(res, answer.status, answer.body);
    } catch (error) {
      if (error instanceof PayPalHttpError) return send(res, error.status, error.body);
      return send(res, 500, {
        name: "INTERNAL_SERVER_ERROR",
        message: "An internal server error has occurred.",
        debug_id: "standin",
      });
    }
  }

  function token(req: IncomingMessage, raw: string) {
    const auth = req.headers.authorization ?? "";
    const basic = /^Basic (.+)$/i.exec(auth);
    const [id, secret] = basic ? Buffer.from(basic[1]!, "base64").toString("utf8").split(/:(.*)/s) : [];
    if (id !== clientId || secret !== clientSecret)
      throw oauthError(401, "invalid_client", "Client Authentication failed");
    const grant = new URLSearchParams(raw).get("grant_type");
    if (grant === null) throw oauthError(400, "unsupported_grant_type", "Grant Type is NULL");
    if (grant !== "client_credentials")
      throw oauthError(400, "unsupported_grant_type", `Grant Type ${grant} is not supported`);
    const accessToken = `A21AA${randomBytes(24).toString("base64url")}`;
    tokens.set(accessToken, now().getTime() + TOKEN_SECONDS * 1000);
    return {
      scope:
        "https://uri.paypal.com/services/payments/payment https://uri.paypal.com/services/subscriptions https://uri.paypal.com/services/applications/webhooks",
      access_token: accessToken,
      token_type: "Bearer",
      app_id: "APP-STANDIN000001",
      expires_in: TOKEN_SECONDS,
      nonce: `${now().toISOString()}${randomBytes(8).toString("hex")}`,
    };
  }

  function authenticate(req: IncomingMessage): void {
    const bearer = /^Bearer (.+)$/i.exec(req.headers.authorization ?? "");
    const expires = bearer ? tokens.get(bearer[1]!) : undefined;
    if (expires === undefined) throw oauthError(401, "invalid_token", "Token signature verification failed");
    if (expires < now().getTime()) throw oauthError(401, "invalid_token", "Access Token expired");
  }

  /** PayPal's window, reduced to one button: approve, then back to the merchant's return URL. */
  function approvalPage(
    req: IncomingMessage,
    res: ServerResponse,
    method: string,
    path: string,
    query: URLSearchParams,
  ): void {
    const isOrder = path === "/checkoutnow";
    const isRevision = path === "/webapps/billing/subscriptions/update";
    const id = query.get(isOrder ? "token" : "ba_token") ?? "";
    try {
      if (isRevision && !subscriptions.isRevision(id)) throw notFound(id);
      if (method === "POST") {
        const back = isOrder
          ? orders.approve(id)
          : isRevision
            ? subscriptions.approveRevision(id)
            : subscriptions.approve(id);
        const to = back && /^https?:\/\//.test(back) ? back : undefined;
        if (to) {
          res.writeHead(303, { location: isOrder ? `${to}${to.includes("?") ? "&" : "?"}token=${id}` : to });
          return void res.end();
        }
        res.writeHead(200, { "content-type": "text/html; charset=utf-8" });
        return void res.end(page("Approved", "<p>Approved. You can close this window.</p>"));
      }
      if (isOrder) orders.get(id);
      else if (!isRevision) subscriptions.get(id);
    } catch (error) {
      if (error instanceof PayPalHttpError) return send(res, error.status, error.body);
      throw error;
    }
    const action = `${path}?${isOrder ? "token" : "ba_token"}=${encodeURIComponent(id)}`;
    res.writeHead(200, {
      "content-type": "text/html; charset=utf-8",
      "content-security-policy": "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'",
    });
    res.end(
      page(
        "PayPal (local stand-in)",
        `<p>This stands in for PayPal's window.</p><form method="post" action="${action}"><button type="submit">Approve</button></form>`,
      ),
    );
    void req;
  }

  return {
    url,
    port,
    clientId,
    clientSecret,
    webhookId,
    approveOrder: (id, payer) => orders.approve(id, payer),
    approveSubscription: (id) => subscriptions.approve(id),
    approveRevision: (id) => subscriptions.approveRevision(id),
    chargeSubscriptionCycle: (id) => subscriptions.chargeCycle(id),
    openDispute(captureId, reason = "MERCHANDISE_OR_SERVICE_NOT_RECEIVED") {
      const { cents, currency } = orders.captureExists(captureId);
      const time = now().toISOString();
      ctx.emit(
        "CUSTOMER.DISPUTE.CREATED",
        "dispute",
        "A new dispute opened",
        {
          dispute_id: paypalId("PP-D-", 5),
          create_time: time,
          update_time: time,
          disputed_transactions: [{ seller_transaction_id: captureId, gross_amount: money(cents, currency) }],
          reason,
          status: "OPEN",
          dispute_amount: money(cents, currency),
          dispute_life_cycle_stage: "INQUIRY",
          dispute_channel: "INTERNAL",
        },
        "1.0",
      );
    },
    deliveries: () => [...sender.deliveries],
    settled: async () => {
      // Events are queued on the next turn; wait for that turn, then for the queue.
      await new Promise((r) => setImmediate(r));
      await sender.settled();
    },
    redeliver: (id) => sender.redeliver(id),
    signWebhook: (body, time) => signer.sign(body, time),
    async stop() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

function send(res: ServerResponse, status: number, body: unknown): void {
  if (status === 204 || body === undefined) {
    res.writeHead(status);
    return void res.end();
  }
  res.writeHead(status, { "content-type": "application/json", "paypal-debug-id": randomBytes(7).toString("hex") });
  res.end(JSON.stringify(body));
}

const page = (title: string, body: string) =>
  `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${title}</title></head><body><main><h1>${title}</h1>${body}</main></body></html>`;
