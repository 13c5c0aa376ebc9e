/**
 * A local stand-in of Stripe's HTTP API (v1, the parts a donations backend uses), for tests and
 * watch mode: the official `stripe` SDK is pointed at it (`host`, `port`, `protocol: "http"`), and
 * it sends signed webhooks to the service. Never a production path. See README.md beside this file.
 */
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import { createAdaptorServer } from "@hono/node-server";
import { registerInvoiceHooks } from "./billing.js";
import { advance } from "./clock.js";
import { WebhookDelivery } from "./delivery.js";
import { newId } from "./ids.js";
import { authenticate, authenticationRoutes } from "./resources/authentication.js";
import { customerRoutes } from "./resources/customers.js";
import { eventRoutes } from "./resources/events.js";
import { invoiceRoutes } from "./resources/invoices.js";
import { paymentIntentRoutes } from "./resources/payment-intents.js";
import { paymentMethodRoutes } from "./resources/payment-methods.js";
import { productRoutes } from "./resources/products.js";
import { refundRoutes } from "./resources/refunds.js";
import { scheduleRoutes } from "./resources/schedules.js";
import { searchRoutes } from "./resources/search.js";
import { setupIntentRoutes } from "./resources/setup-intents.js";
import { subscriptionRoutes } from "./resources/subscriptions.js";
import { createApp, type RequestRecord, type Route } from "./server.js";
import { API_VERSION, type Obj, Store, type StripeEventJson } from "./store.js";

export type { RequestRecord } from "./server.js";
export type { StripeEventJson } from "./store.js";
export { API_VERSION } from "./store.js";
export { signatureHeader } from "./signing.js";

export interface StripeStandInOptions {
  /** Default 127.0.0.1. */
  host?: string;
  /** Default 0: any free port. */
  port?: number;
  /** Where events are POSTed (the service's `/stripe/webhook`); none: events are only recorded. */
  webhookUrl?: string;
  /** The endpoint's signing secret (`whsec_...`), the service's STRIPE_WEBHOOK_SECRET. */
  webhookSecret: string;
  /** The test clock's start; default: the real time, until setNow or advanceTo fixes it. */
  now?: () => Date;
  /** Only this publishable key is accepted; default any well-formed `pk_test_...`. */
  publishableKey?: string;
  /** Only this secret key is accepted; default any well-formed `sk_test_...` (live keys never). */
  secretKey?: string;
  /** Event types sent to the endpoint (Stripe's `enabled_events`); default `["*"]`: all. */
  webhookEvents?: string[];
  /** Waits before webhook retries (default 100, 400, 1600 ms: four attempts). */
  webhookRetryDelaysMs?: number[];
  /** Per-attempt time-out of a webhook POST (default 10 s). */
  webhookTimeoutMs?: number;
}

export interface StripeStandIn {
  /** e.g. http://127.0.0.1:41234 — what STRIPE_API_BASE gets. */
  url: string;
  setWebhookUrl(url: string | null): void;
  /** Signs with these secrets from now on: the new one first, the old one while rolling (one `v1=` each). */
  setWebhookSecrets(secrets: string[]): void;
  /** Every event made, in order. */
  events(): StripeEventJson[];
  /** Every webhook attempt, in order. */
  deliveries(): { eventId: string; type: string; status: number; attempt: number }[];
  /** Sends an event again (once, no retries), optionally signed with another secret or time. */
  redeliver(eventId: string, opts?: { signatureSecret?: string; timestamp?: number }): Promise<number>;
  /** Waits until every queued webhook has been delivered or given up. */
  settled(): Promise<void>;
  /** Fixes the test clock at `d`. */
  setNow(d: Date): void;
  /** Moves the test clock to `d`, billing what falls due on the way; resolves when its webhooks are sent. */
  advanceTo(d: Date): Promise<void>;
  /** Opens a dispute on the intent's charge (`charge.dispute.created`), as a cardholder's bank would. */
  dispute(paymentIntentId: string, opts?: { reason?: string }): Obj;
  /** Ends a 3-D Secure challenge (an intent in requires_action): the cardholder passed or failed it. */
  authenticate(intentId: string, outcome: "succeed" | "fail"): Promise<Obj>;
  /** Closes a dispute (`charge.dispute.closed`), won or lost. */
  closeDispute(disputeId: string, outcome: "won" | "lost"): Obj;
  /** The API requests received (method, path, status, idempotency key, Stripe-Version), last 2000. */
  requests(): RequestRecord[];
  stop(): Promise<void>;
}

/** Extra behaviour the later resources plug in: routes, clock advances, test hooks. */
export interface StandInModule {
  routes: Route[];
  /** Bills whatever falls due up to the store's now. */
  advance?: (store: Store) => void;
}

const modules: StandInModule[] = [
  { routes: searchRoutes },
  { routes: customerRoutes },
  { routes: paymentMethodRoutes },
  { routes: paymentIntentRoutes },
  { routes: setupIntentRoutes },
  { routes: refundRoutes },
  { routes: productRoutes },
  { routes: subscriptionRoutes },
  { routes: scheduleRoutes },
  { routes: invoiceRoutes, advance },
  { routes: authenticationRoutes },
  { routes: eventRoutes },
];

export async function startStripeStandIn(opts: StripeStandInOptions): Promise<StripeStandIn> {
  if (!opts.webhookSecret) throw new Error("startStripeStandIn: webhookSecret is required");
  let clock = opts.now ?? (() => new Date());
  const store = new Store(() => clock());
  registerInvoiceHooks(store);
  const delivery = new WebhookDelivery({
    secrets: [opts.webhookSecret],
    retryDelaysMs: opts.webhookRetryDelaysMs ?? [100, 400, 1600],
    timeoutMs: opts.webhookTimeoutMs ?? 10_000,
    signingTime: () => Math.floor(Date.now() / 1000),
  });
  if (opts.webhookUrl) delivery.setUrl(opts.webhookUrl);
  const enabled = new Set(opts.webhookEvents ?? ["*"]);
  store.onEvent = (event) => {
    if (enabled.has("*") || enabled.has(event.type)) delivery.enqueue(event);
  };
  const records: RequestRecord[] = [];
  const app = createApp(
    store,
    modules.flatMap((m) => m.routes),
    { secretKey: opts.secretKey, publishableKey: opts.publishableKey },
    records,
  );
  const server = createAdaptorServer({
    fetch: app.fetch,
    serverOptions: { requestTimeout: 15_000, headersTimeout: 10_000 },
  }) as Server;
  server.maxHeadersCount = 100;
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(opts.port ?? 0, opts.host ?? "127.0.0.1", () => resolve());
  });
  const address = server.address() as AddressInfo;
  const host = address.family === "IPv6" ? `[${address.address}]` : address.address;

  const setNow = (d: Date) => {
    if (Number.isNaN(d.getTime())) throw new Error("setNow: invalid date");
    const fixed = new Date(d.getTime());
    clock = () => fixed;
  };
  const charge = (paymentIntentId: string) => {
    const pi = store.get(paymentIntentId, "payment_intent");
    const ch = pi?.latest_charge ? store.get(pi.latest_charge, "charge") : undefined;
    if (!pi || pi.status !== "succeeded" || !ch)
      throw new Error(`dispute: ${paymentIntentId} has no successful charge`);
    return { pi, ch };
  };

  return {
    url: `http://${host}:${address.port}`,
    setWebhookUrl: (url) => delivery.setUrl(url),
    setWebhookSecrets: (secrets) => delivery.setSecrets(secrets),
    events: () => [...store.events],
    deliveries: () => delivery.records.map((r) => ({ ...r })),
    async redeliver(eventId, o = {}) {
      const event = store.events.find((e) => e.id === eventId);
      if (!event) throw new Error(`redeliver: no event ${eventId}`);
      const status = await delivery.send(event, { secret: o.signatureSecret, timestamp: o.timestamp });
      delivery.records.push({ eventId, type: event.type, status, attempt: 0 });
      return status;
    },
    settled: () => delivery.settled(),
    setNow,
    async advanceTo(d) {
      if (d.getTime() < store.now() * 1000) throw new Error("advanceTo: the test clock cannot go back");
      setNow(d);
      for (const m of modules) m.advance?.(store);
      await delivery.settled();
    },
    dispute(paymentIntentId, o = {}) {
      const { pi, ch } = charge(paymentIntentId);
      const dispute = store.put({
        id: newId("du"),
        object: "dispute",
        amount: ch.amount - ch.amount_refunded,
        balance_transactions: [],
        charge: ch.id,
        created: store.now(),
        currency: ch.currency,
        enhanced_eligibility_types: [],
        evidence: {},
        evidence_details: {
          due_by: store.now() + 7 * 86_400,
          has_evidence: false,
          past_due: false,
          submission_count: 0,
        },
        is_charge_refundable: false,
        livemode: false,
        metadata: {},
        network_reason_code: "4837",
        payment_intent: pi.id,
        reason: o.reason ?? "fraudulent",
        status: "needs_response",
      });
      ch.disputed = true;
      store.emit("charge.dispute.created", dispute);
      return dispute;
    },
    async authenticate(intentId, outcome) {
      const result = authenticate(store, intentId, outcome);
      await delivery.settled();
      return result;
    },
    closeDispute(disputeId, outcome) {
      const dispute = store.get(disputeId, "dispute");
      if (!dispute) throw new Error(`closeDispute: no dispute ${disputeId}`);
      const previous = { status: dispute.status };
      dispute.status = outcome;
      store.emit("charge.dispute.closed", dispute, previous);
      return dispute;
    },
    requests: () => records.map((r) => ({ ...r })),
    async stop() {
      delivery.stop();
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
    },
  };
}

/** The API version the stand-in answers in, for a check against the SDK's pinned one. */
export const STAND_IN_API_VERSION = API_VERSION;
