/**
 * A local implementation of the payments API contract (docs/payments-api.md) for tests and
 * `--watch`: a real node:http server, in memory, no Stripe. It validates with the same shared code as
 * the browser, keeps an idempotency store, answers CORS, and lets tests inject faults (an error
 * status, a delay) and set the outcome a Stripe stand-in would produce. Test-only routes live under
 * `/__dev/` and exist only when started with `devRoutes: true` (tests); nothing like them exists in
 * production. CORS answers only the site's origin (loopback origins unless told which).
 */
import { randomBytes } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { NzfError } from "../core/errors.js";
import type { Logger } from "../core/logger.js";
import {
  BadRequest,
  createBodyBudget,
  guard,
  hardenServer,
  parseTarget,
  serverOptions,
  type ServerLimits,
} from "./http-guard.js";
import { canonicalJson } from "../payments/canonical-json.js";
import { DEFAULT_FUND_RULES, type FundRules } from "../payments/fund-rules.js";
import { IDEMPOTENCY_KEY_PATTERN } from "../payments/idempotency.js";
import { todayIn } from "../payments/schedules.js";
import { planGift } from "../payments/plan.js";
import {
  DONATION_STATUSES,
  type ApiErrorBody,
  type DonationCreated,
  type DonationRequest,
  type DonationState,
  type DonationStatus,
  type Fund,
  type Season,
} from "../payments/types.js";
import { validateDonationRequest } from "../payments/validate.js";
import { PAYPAL_MESSAGES, type PayPalCaptureRequest } from "../payments/paypal.js";
import { createPayPalStandIn } from "./paypal-stand-in.js";

export const MAX_BODY_BYTES = 16 * 1024;
/** Request bodies held at once over all connections. */
export const MAX_BODIES_IN_FLIGHT = 1024 * 1024;

/** One injected fault: the next matching request(s) wait `delayMs`, then answer `status` (or run normally). */
export interface Fault {
  status?: number;
  delayMs?: number;
  /** How many requests it applies to (default 1). */
  times?: number;
  /** Only requests whose path starts with this (default: every API request). */
  path?: string;
  /** A raw body instead of the contract's JSON error, e.g. an HTML page from a proxy. */
  rawBody?: string;
}

export interface RequestLogEntry {
  method: string;
  path: string;
  origin?: string;
  idempotencyKey?: string;
  status: number;
  replayed: boolean;
  /** The donation a POST /donations created or replayed, so a test can read what was charged. */
  donationId?: string;
}

export interface PaymentsDevServerOptions {
  port?: number;
  host?: string;
  /**
   * The site's origin(s) allowed by CORS, exactly (`http://127.0.0.1:4321`). Default: any http
   * origin on a loopback address (127.0.0.1, localhost, [::1]), which is where tests and watch mode
   * serve the site. "*" is refused: any web page could then call the API from a developer's browser.
   */
  allowedOrigin?: string | string[];
  /** Serves the `/__dev/` control routes (outcome, faults, request log). Only tests turn this on. */
  devRoutes?: boolean;
  /** Timeouts that cut off slow clients. */
  limits?: ServerLimits;
  faults?: Fault[];
  /** The clock; "today" is taken in Australia/Sydney like the production backend. */
  now?: () => Date;
  /**
   * Per-fund rules instead of DEFAULT_FUND_RULES. The defaults carry the prices the sample content
   * shows (fitr and fidyah $15 a unit; qurban per animal option, by code), so a sample build pays.
   */
  fundRules?: Partial<Record<Fund, FundRules>>;
  /** The backend's own season dates; when set, a request with other dates gets 422 season_mismatch. */
  seasons?: { ramadan?: Season; dhulHijjah?: Season };
  logger?: Logger;
  /** Told of each new donation (not replays), with the request's Authorization header: the account API records it. */
  onDonationCreated?: (event: {
    authorization?: string;
    created: DonationCreated;
    request: DonationRequest;
    status: () => DonationStatus;
  }) => unknown;
}

export interface PaymentsDevServer {
  url: string;
  port: number;
  requests: RequestLogEntry[];
  /** Sets what `GET /donations/{id}` reports, by donation id, intent id or client secret. */
  setOutcome(idOrSecret: string, status: DonationStatus): void;
  injectFault(fault: Fault): void;
  donationCount(): number;
  /** From now on answers CORS for these origins only (watch mode tells it the site's origin once it listens). */
  allowOrigins(origins: string[]): void;
  /** The PayPal stand-in: make captures decline, and read what PayPal took (never twice for one gift). */
  paypal: { declineNextCaptures(n: number): void; captures(): string[] };
  stop(): Promise<void>;
}

interface DonationRecord {
  created: DonationCreated;
  request: DonationRequest;
  intentId: string;
  status: DonationStatus;
  createdAt: string;
  /** A PayPal gift's order or subscription, made once per donation. */
  paypalId?: string;
  /** The answer of its successful capture: every later capture call gets this, and PayPal is not asked again. */
  captured?: Reply;
}

type Reply = { status: number; body: unknown; headers?: Record<string, string>; replayed?: boolean; raw?: string };

const TIME_ZONE = "Australia/Sydney";
const REFERENCE_ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"; // Crockford base 32: no I, L, O, U to misread.

const CODE_FOR_STATUS: Record<number, { code: string; message: string; retryAfter?: string }> = {
  429: {
    code: "rate_limited",
    message: "There have been too many attempts. Nothing was charged. Please wait a minute and try again.",
    retryAfter: "60",
  },
  500: {
    code: "internal_error",
    message: "Something went wrong on our side. Nothing was charged. Please try again in a moment.",
  },
  502: {
    code: "bad_gateway",
    message: "Something went wrong on our side. Nothing was charged. Please try again in a moment.",
  },
  503: {
    code: "unavailable",
    message: "Our payment service is briefly unavailable. Nothing was charged. Please try again in a few minutes.",
    retryAfter: "30",
  },
};

function errorReply(
  status: number,
  code: string,
  message: string,
  extra: Partial<ApiErrorBody["error"]> = {},
  headers?: Record<string, string>,
): Reply {
  return { status, body: { error: { code, message, ...extra } } satisfies ApiErrorBody, headers };
}

function bodyTooLarge(): Reply {
  return errorReply(413, "body_too_large", `The request body is larger than ${MAX_BODY_BYTES} bytes.`);
}

function reference(): string {
  const bytes = randomBytes(8);
  const chars = Array.from(bytes, (b) => REFERENCE_ALPHABET[b % 32]).join("");
  return `NZF-${chars.slice(0, 4)}-${chars.slice(4)}`;
}

const LOOPBACK_ORIGIN = /^http:\/\/(127\.0\.0\.1|localhost|\[::1\])(:\d{1,5})?$/;

export async function startPaymentsDevServer(options: PaymentsDevServerOptions = {}): Promise<PaymentsDevServer> {
  const now = options.now ?? (() => new Date());
  let origins =
    options.allowedOrigin === undefined
      ? null
      : Array.isArray(options.allowedOrigin)
        ? options.allowedOrigin
        : [options.allowedOrigin];
  if (origins?.includes("*")) {
    throw new NzfError("CONFIG_INVALID", 'The payments dev server does not allow CORS from any origin ("*").', {
      subject: "allowedOrigin",
      hint: "Give the site's origin, e.g. http://127.0.0.1:4321, or leave it out to allow loopback origins only.",
    });
  }
  const budget = createBodyBudget(MAX_BODIES_IN_FLIGHT);
  const rulesFor = (fund: Fund): FundRules => options.fundRules?.[fund] ?? DEFAULT_FUND_RULES[fund];
  const faultQueue: (Fault & { times: number })[] = (options.faults ?? []).map((f) => ({ ...f, times: f.times ?? 1 }));
  const donations = new Map<string, DonationRecord>();
  const idempotency = new Map<string, { body: string; reply: Reply }>();
  const paypal = createPayPalStandIn();
  const requests: RequestLogEntry[] = [];
  const timers = new Set<NodeJS.Timeout>();
  let intentCounter = 0;

  const originAllowed = (origin: string | undefined) =>
    origin !== undefined && (origins ? origins.includes(origin) : LOOPBACK_ORIGIN.test(origin));
  const corsHeaders = (origin: string | undefined): Record<string, string> =>
    originAllowed(origin)
      ? {
          "Access-Control-Allow-Origin": origin!,
          "Access-Control-Expose-Headers": "Idempotent-Replayed, Retry-After",
          Vary: "Origin",
        }
      : { Vary: "Origin" };

  const sleep = (ms: number) =>
    new Promise<void>((resolve) => {
      const t = setTimeout(() => (timers.delete(t), resolve()), ms);
      timers.add(t);
    });

  function takeFault(path: string): Fault | undefined {
    const index = faultQueue.findIndex((f) => !f.path || path.startsWith(f.path));
    if (index < 0) return undefined;
    const fault = faultQueue[index]!;
    if (--fault.times <= 0) faultQueue.splice(index, 1);
    return fault;
  }

  function findRecord(idOrSecret: string): DonationRecord | undefined {
    return (
      donations.get(idOrSecret) ??
      [...donations.values()].find((r) => r.intentId === idOrSecret || r.created.clientSecret === idOrSecret)
    );
  }

  function stateOf(r: DonationRecord): DonationState {
    const {
      donationId,
      reference,
      frequency,
      currency,
      amountCents,
      feeCents,
      totalCents,
      schedule,
      openEnded,
      scheduleTotalCents,
      instalments,
    } = r.created;
    return {
      donationId,
      reference,
      status: r.status,
      fund: r.request.fund,
      frequency,
      currency,
      amountCents,
      feeCents,
      totalCents,
      schedule,
      openEnded,
      scheduleTotalCents,
      ...(instalments ? { instalments } : {}),
      ...(r.created.paymentMethod ? { paymentMethod: r.created.paymentMethod } : {}),
      createdAt: r.createdAt,
    };
  }

  function createDonation(request: DonationRequest): Reply {
    const configured = request.frequency.startsWith("ramadan")
      ? options.seasons?.ramadan
      : request.frequency === "dhul-hijjah-ten-days"
        ? options.seasons?.dhulHijjah
        : undefined;
    if (
      configured &&
      request.season &&
      (configured.start !== request.season.start || configured.length !== request.season.length)
    ) {
      return errorReply(
        422,
        "season_mismatch",
        "The dates on this page are out of date. Please reload the page and try again.",
        { field: "season" },
      );
    }
    const result = planGift({
      frequency: request.frequency,
      today: todayIn(TIME_ZONE, now()),
      giftCents: request.amountCents,
      coverFees: request.coverFees,
      season: request.season,
      instalmentCount: request.instalments?.count,
    });
    if (!result.ok)
      return errorReply(422, result.code, result.message, {
        field: result.code === "instalments_required" ? "instalments.count" : "season",
      });
    const { charge, schedule } = result.plan;
    const n = ++intentCounter;
    const intentType = schedule.firstChargeToday ? "payment" : "setup";
    const viaPayPal = request.paymentMethod === "paypal";
    // A PayPal gift has no Stripe intent: its order or subscription is made when the donor chooses PayPal's button.
    const intentId = viaPayPal ? `paypal_dev_${n}` : `${intentType === "payment" ? "pi" : "seti"}_dev_${n}`;
    const created: DonationCreated = {
      donationId: `don_${randomBytes(12).toString("hex")}`,
      reference: reference(),
      clientSecret: viaPayPal ? "" : `${intentId}_secret_${randomBytes(12).toString("hex")}`,
      ...(viaPayPal ? { paymentMethod: "paypal" as const } : {}),
      intentType,
      currency: "AUD",
      frequency: request.frequency,
      ...charge,
      schedule: schedule.charges,
      openEnded: schedule.openEnded,
      scheduleTotalCents: schedule.totalCents,
      ...(result.plan.instalments ? { instalments: result.plan.instalments } : {}),
    };
    donations.set(created.donationId, {
      created,
      request,
      intentId,
      status: "requires_payment_method",
      createdAt: now().toISOString(),
    });
    return { status: 201, body: created };
  }

  async function postDonations(req: IncomingMessage, text: string | null): Promise<Reply> {
    const key = req.headers["idempotency-key"];
    if (typeof key !== "string" || key === "")
      return errorReply(
        400,
        "idempotency_key_missing",
        "Send an Idempotency-Key header (a UUID) with every POST /donations.",
      );
    if (!IDEMPOTENCY_KEY_PATTERN.test(key))
      return errorReply(400, "idempotency_key_invalid", "The Idempotency-Key header must be a UUID.");
    if (!/^application\/json\b/i.test(req.headers["content-type"] ?? ""))
      return errorReply(415, "unsupported_media_type", "Send the body as JSON with Content-Type: application/json.");
    if (text === null) return bodyTooLarge();
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      return errorReply(400, "invalid_json", "The request body is not valid JSON.");
    }
    const canonical = canonicalJson(body);
    const stored = idempotency.get(key);
    if (stored) {
      if (stored.body === canonical) return { ...stored.reply, replayed: true };
      return errorReply(
        409,
        "idempotency_key_reused",
        "This Idempotency-Key was already used for a different donation. Use a new key for a new gift.",
      );
    }
    const validation = validateDonationRequest(body, rulesFor);
    if (!validation.ok) {
      const [first] = validation.errors;
      return errorReply(400, "validation_failed", first!.message, { field: first!.field, fields: validation.errors });
    }
    const reply = createDonation(validation.request);
    // Only a created donation is remembered: after an error the same key may try again.
    if (reply.status === 201) idempotency.set(key, { body: canonical, reply });
    if (reply.status === 201 && options.onDonationCreated) {
      const record = donations.get((reply.body as DonationCreated).donationId)!;
      await options.onDonationCreated({
        authorization: req.headers.authorization,
        created: record.created,
        request: record.request,
        status: () => record.status,
      });
    }
    return reply;
  }

  /** The checks every PayPal call shares: an Idempotency-Key, a JSON body, a PayPal donation. */
  function paypalPreamble(
    req: IncomingMessage,
    donationId: string,
    text: string | null,
  ): { error: Reply } | { key: string; body: Record<string, unknown>; record: DonationRecord } {
    const key = req.headers["idempotency-key"];
    if (typeof key !== "string" || key === "")
      return {
        error: errorReply(400, "idempotency_key_missing", "Send an Idempotency-Key header (a UUID) with every POST."),
      };
    if (!IDEMPOTENCY_KEY_PATTERN.test(key))
      return { error: errorReply(400, "idempotency_key_invalid", "The Idempotency-Key header must be a UUID.") };
    if (!/^application\/json\b/i.test(req.headers["content-type"] ?? ""))
      return {
        error: errorReply(415, "unsupported_media_type", "Send the body as JSON with Content-Type: application/json."),
      };
    if (text === null) return { error: bodyTooLarge() };
    let body: unknown;
    try {
      body = JSON.parse(text || "{}");
    } catch {
      return { error: errorReply(400, "invalid_json", "The request body is not valid JSON.") };
    }
    if (!body || typeof body !== "object" || Array.isArray(body))
      return { error: errorReply(400, "invalid_json", "The request body must be a JSON object.") };
    const record = donations.get(donationId);
    if (!record) return { error: errorReply(404, "not_found", "We could not find that donation.") };
    if (record.created.paymentMethod !== "paypal")
      return { error: errorReply(422, "paypal_not_allowed", PAYPAL_MESSAGES.paypal_not_allowed) };
    return { key, body: body as Record<string, unknown>, record };
  }

  /**
   * POST /donations/{id}/paypal/order | subscription | capture (docs/payments-api.md, "PayPal").
   * One order or subscription per donation, whatever the key; a capture happens once, and every
   * capture call after it returns that first answer, marked replayed.
   */
  function paypalRoute(req: IncomingMessage, donationId: string, action: string, text: string | null): Reply {
    const pre = paypalPreamble(req, donationId, text);
    if ("error" in pre) return pre.error;
    // The key is required and logged; what keeps a capture to one is the donation's own record.
    const { body, record } = pre;
    const once = record.request.frequency === "once";
    if (action === "order" || action === "subscription") {
      if ((action === "order") !== once)
        return errorReply(
          422,
          "paypal_not_allowed",
          once
            ? "A one-off gift is a PayPal order: POST /donations/{id}/paypal/order."
            : "A monthly gift is a PayPal subscription: POST /donations/{id}/paypal/subscription.",
        );
      const replayed = record.paypalId !== undefined;
      if (!record.paypalId) {
        const c = record.created;
        const last = c.schedule.at(-1)?.amountCents ?? c.totalCents;
        record.paypalId = once
          ? paypal.createOrder(c.totalCents)
          : paypal.createSubscription({
              cycleCents: c.totalCents,
              lastCents: last,
              count: c.openEnded ? null : c.schedule.length,
            });
      }
      return {
        status: 201,
        body: once ? { orderId: record.paypalId } : { subscriptionId: record.paypalId },
        replayed,
      };
    }
    // capture
    if (record.captured) return { ...record.captured, replayed: true };
    const given = body as { [K in "orderId" | "subscriptionId"]?: unknown } & Partial<PayPalCaptureRequest>;
    const id = once ? given.orderId : given.subscriptionId;
    if (typeof id !== "string" || id === "")
      return errorReply(
        400,
        "validation_failed",
        once ? "Send the orderId PayPal approved." : "Send the subscriptionId PayPal approved.",
        {
          field: once ? "orderId" : "subscriptionId",
        },
      );
    if (!record.paypalId) return errorReply(422, "paypal_not_approved", PAYPAL_MESSAGES.paypal_not_approved);
    if (id !== record.paypalId) return errorReply(409, "paypal_mismatch", PAYPAL_MESSAGES.paypal_mismatch);
    const outcome = paypal.capture(id);
    if (outcome === "declined") return errorReply(402, "paypal_declined", PAYPAL_MESSAGES.paypal_declined);
    if (outcome !== "completed") return errorReply(409, "paypal_mismatch", PAYPAL_MESSAGES.paypal_mismatch);
    record.status = "succeeded";
    record.captured = { status: 200, body: stateOf(record) };
    return record.captured;
  }

  async function devRoute(req: IncomingMessage, path: string, text: string | null): Promise<Reply> {
    if (req.method === "GET" && path === "/__dev/requests") return { status: 200, body: requests };
    if (req.method !== "POST")
      return errorReply(405, "method_not_allowed", "Dev routes take POST (GET for /__dev/requests).");
    if (text === null) return bodyTooLarge();
    let body: Record<string, unknown>;
    try {
      body = JSON.parse(text) as Record<string, unknown>;
    } catch {
      return errorReply(400, "invalid_json", "The request body is not valid JSON.");
    }
    if (path === "/__dev/faults") {
      faultQueue.push({ ...(body as Fault), times: typeof body.times === "number" ? body.times : 1 });
      return { status: 204, body: undefined };
    }
    if (path === "/__dev/paypal") {
      if (typeof body.declineNextCaptures !== "number")
        return errorReply(400, "invalid", 'Send { "declineNextCaptures": <number> }.');
      paypal.declineNextCaptures(body.declineNextCaptures);
      return { status: 200, body: { captures: paypal.captures() } };
    }
    if (path === "/__dev/outcome") {
      const id = String(body.donationId ?? body.intentId ?? body.clientSecret ?? "");
      const record = findRecord(id);
      if (!record) return errorReply(404, "not_found", `No donation, intent or client secret "${id}".`);
      if (!DONATION_STATUSES.includes(body.status as DonationStatus))
        return errorReply(400, "invalid_status", `status must be one of ${DONATION_STATUSES.join(", ")}.`);
      record.status = body.status as DonationStatus;
      return { status: 200, body: stateOf(record) };
    }
    return errorReply(404, "not_found", `No dev route ${path}.`);
  }

  async function route(req: IncomingMessage, path: string): Promise<Reply> {
    const method = req.method ?? "GET";
    // Read the whole body first, as API Gateway does: a delayed request still completes its work
    // after the client has given up, which is exactly the case idempotency keys exist for.
    let text: string | null = "";
    if (method !== "GET" && method !== "HEAD") {
      const read = await budget.read(req, MAX_BODY_BYTES);
      if (!read.ok && read.status === 503)
        return errorReply(503, "unavailable", CODE_FOR_STATUS[503]!.message, {}, { "Retry-After": "5" });
      if (!read.ok && read.status === 400)
        return errorReply(400, "incomplete_body", "The request body did not arrive in full.");
      text = read.ok ? read.body.toString("utf8") : null;
    }
    if (path.startsWith("/__dev/")) {
      if (!options.devRoutes)
        return errorReply(404, "not_found", `No route ${method} ${path}. See docs/payments-api.md.`);
      return devRoute(req, path, text);
    }
    const fault = takeFault(path);
    if (fault?.delayMs) await sleep(fault.delayMs);
    if (fault?.status) {
      const known = CODE_FOR_STATUS[fault.status] ?? { code: `http_${fault.status}`, message: "Injected fault." };
      if (fault.rawBody !== undefined)
        return { status: fault.status, body: undefined, raw: fault.rawBody, headers: { "Content-Type": "text/html" } };
      return errorReply(
        fault.status,
        known.code,
        known.message,
        {},
        known.retryAfter ? { "Retry-After": known.retryAfter } : undefined,
      );
    }
    if (path === "/donations") {
      if (method !== "POST")
        return errorReply(405, "method_not_allowed", "Use POST /donations.", {}, { Allow: "POST, OPTIONS" });
      return postDonations(req, text);
    }
    const paypalMatch = /^\/donations\/([^/]+)\/paypal\/(order|subscription|capture)$/.exec(path);
    if (paypalMatch) {
      if (method !== "POST") return errorReply(405, "method_not_allowed", "Use POST.", {}, { Allow: "POST, OPTIONS" });
      return paypalRoute(req, decodeURIComponent(paypalMatch[1]!), paypalMatch[2]!, text);
    }
    const match = /^\/donations\/([^/]+)$/.exec(path);
    if (match) {
      if (method !== "GET")
        return errorReply(405, "method_not_allowed", "Use GET /donations/{id}.", {}, { Allow: "GET, OPTIONS" });
      const record = donations.get(decodeURIComponent(match[1]!));
      if (!record)
        return errorReply(
          404,
          "not_found",
          "We could not find that donation. If you were charged, the receipt e-mail has your reference.",
        );
      return { status: 200, body: stateOf(record) };
    }
    return errorReply(404, "not_found", `No route ${method} ${path}. See docs/payments-api.md.`);
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    let path: string;
    try {
      path = parseTarget(req.url).path.replace(/\/+$/, "") || "/";
    } catch (error) {
      if (!(error instanceof BadRequest)) throw error;
      send(res, undefined, errorReply(error.status, "bad_request", error.message));
      return;
    }
    const origin = typeof req.headers.origin === "string" ? req.headers.origin : undefined;
    let reply: Reply;
    if (req.method === "OPTIONS") {
      reply = originAllowed(origin)
        ? {
            status: 204,
            body: undefined,
            headers: {
              "Access-Control-Allow-Methods": "GET, POST, OPTIONS",
              "Access-Control-Allow-Headers": "Authorization, Content-Type, Idempotency-Key",
              "Access-Control-Max-Age": "600",
            },
          }
        : errorReply(403, "cors_origin_not_allowed", `Origin ${origin ?? "(none)"} may not call this API.`);
    } else {
      try {
        reply = await route(req, path);
      } catch (error) {
        options.logger?.error("watch", `payments dev server: ${(error as Error).stack ?? String(error)}`);
        reply = errorReply(500, "internal_error", CODE_FOR_STATUS[500]!.message);
      }
    }
    const key = req.headers["idempotency-key"];
    const donationId = reply.status === 201 ? (reply.body as DonationCreated).donationId : undefined;
    requests.push({
      method: req.method ?? "GET",
      path,
      origin,
      idempotencyKey: typeof key === "string" ? key : undefined,
      status: reply.status,
      replayed: reply.replayed === true,
      ...(donationId ? { donationId } : {}),
    });
    send(res, origin, reply);
  }

  function send(res: ServerResponse, origin: string | undefined, reply: Reply): void {
    const headers: Record<string, string> = { ...corsHeaders(origin), "Cache-Control": "no-store", ...reply.headers };
    if (reply.replayed) headers["Idempotent-Replayed"] = "true";
    const payload = reply.raw ?? (reply.body === undefined ? "" : JSON.stringify(reply.body));
    if (payload !== "" && !headers["Content-Type"]) headers["Content-Type"] = "application/json; charset=utf-8";
    // The client may have given up (timeout) while a delay fault held the answer back.
    if (res.destroyed) return;
    res.writeHead(reply.status, headers).end(payload);
  }

  const server = createServer(
    serverOptions(options.limits),
    guard(handle, {
      logger: options.logger,
      label: "watch",
      name: "payments dev server",
      reply: (res, status, message) =>
        send(
          res,
          undefined,
          status >= 500
            ? errorReply(500, "internal_error", CODE_FOR_STATUS[500]!.message)
            : errorReply(status, "bad_request", message),
        ),
    }),
  );
  hardenServer(server, { logger: options.logger, label: "watch", name: "payments dev server" });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, options.host ?? "127.0.0.1", () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const url = `http://${options.host ?? "127.0.0.1"}:${port}`;
  options.logger?.info("watch", `payments dev server on ${url}`);

  return {
    url,
    port,
    requests,
    setOutcome(idOrSecret, status) {
      const record = findRecord(idOrSecret);
      if (!record) throw new Error(`No donation, intent or client secret "${idOrSecret}" on the payments dev server.`);
      record.status = status;
    },
    injectFault(fault) {
      faultQueue.push({ ...fault, times: fault.times ?? 1 });
    },
    donationCount: () => donations.size,
    paypal: { declineNextCaptures: (n) => paypal.declineNextCaptures(n), captures: () => paypal.captures() },
    allowOrigins(list) {
      if (list.includes("*"))
        throw new NzfError("CONFIG_INVALID", 'The payments dev server does not allow CORS from any origin ("*").', {
          subject: "allowedOrigin",
        });
      origins = [...list];
    },
    stop: () =>
      new Promise<void>((resolve, reject) => {
        for (const t of timers) clearTimeout(t);
        timers.clear();
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      }),
  };
}
