/**
 * The real payments service (src/api/) for tests: on a port, on this file's PGlite (from the
 * migrated dump), with the Stripe stand-in (src/stand-ins/stripe/) as Stripe, which sends it signed
 * webhooks. What the old in-memory dev server offered tests is here as test-only middleware:
 * injected faults (a status, a delay, a raw body) and a request log.
 */
import { expect } from "vitest";
import type { MiddlewareHandler } from "hono";
import { startApiServer, type ApiServer, type ApiServerOptions } from "../../src/api/node-server.js";
import type { ApiDeps } from "../../src/api/deps.js";
import type { ApiDb } from "../../src/api/db/open.js";
import { corsPolicy } from "../../src/api/cors.js";
import { createLocalPayPal, type LocalPayPal } from "../../src/api/paypal/local-provider.js";
import { startStripeStandIn, type StripeStandIn } from "../../src/stand-ins/stripe/index.js";
import { openTestApiDb, resetApiDb } from "./api-db.js";

export const TEST_WEBHOOK_SECRET = "whsec_PaymentsServiceTest0123456789";
export const TEST_SECRET_KEY = "sk_test_51PaymentsServiceTest0123456789";
export const TEST_PUBLISHABLE_KEY = "pk_test_51PaymentsServiceTest0123456789";

export interface Fault {
  status?: number;
  delayMs?: number;
  /** How many requests it applies to (default 1). */
  times?: number;
  /** Only requests whose path starts with this. */
  path?: string;
  rawBody?: string;
}

export interface RequestLogEntry {
  method: string;
  path: string;
  origin?: string;
  idempotencyKey?: string;
  status: number;
  replayed: boolean;
  donationId?: string;
}

export interface TestPaymentsService {
  url: string;
  port: number;
  stripe: StripeStandIn;
  paypal: LocalPayPal;
  deps: ApiDeps;
  db: ApiDb["db"];
  requests: RequestLogEntry[];
  injectFault(fault: Fault): void;
  donationCount(): Promise<number>;
  /** Empties the tables and the logs (between tests of one file). */
  reset(): Promise<void>;
  stop(): Promise<void>;
}

const FAULT_CODES: Record<number, { code: string; message: string; retryAfter?: string }> = {
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

/**
 * The file's database: one per test file, shared by the services that file starts. Test files that
 * change no shared state share their worker's modules (vitest.config.ts), so this is keyed by the
 * running file: a file never sees what an earlier file in the same worker stored (its receipt
 * numbers, its donations).
 */
let shared: { file: string | undefined; db: Promise<ApiDb> } | undefined;
/** The running test file; none where vitest's state is absent (the service run in a worker thread, one module per thread). */
function currentTestFile(): string | undefined {
  try {
    return expect.getState().testPath;
  } catch {
    return undefined;
  }
}
function fileDatabase(): Promise<ApiDb> {
  const file = currentTestFile();
  if (!shared || shared.file !== file) {
    const earlier = shared?.db;
    shared = { file, db: openTestApiDb() };
    // The earlier file has ended (its services stopped in its afterAll): free its database.
    earlier?.then((db) => db.close()).catch(() => undefined);
  }
  return shared.db;
}

/** One per test file (`beforeAll`); `reset()` between tests. */
export async function startTestPaymentsService(
  options: {
    deps?: Partial<ApiDeps>;
    allowedOrigin?: string[];
    faults?: Fault[];
    /** More of the service's settings (e.g. NZF_COGNITO_*: the account API and identifyDonor, as deployed). */
    env?: Record<string, string>;
    /** The account API's plan provider, clock or revocation check (with NZF_COGNITO_* in `env`). */
    account?: ApiServerOptions["account"];
    logger?: ApiServerOptions["logger"];
  } = {},
): Promise<TestPaymentsService> {
  const database = await fileDatabase();
  const stripe = await startStripeStandIn({ webhookSecret: TEST_WEBHOOK_SECRET, publishableKey: TEST_PUBLISHABLE_KEY });
  const faults: (Fault & { times: number })[] = (options.faults ?? []).map((f) => ({ ...f, times: f.times ?? 1 }));
  const requests: RequestLogEntry[] = [];
  const paypal = createLocalPayPal();

  const log: MiddlewareHandler = async (c, next) => {
    await next();
    const key = c.req.header("idempotency-key");
    let donationId: string | undefined;
    if (c.req.method === "POST" && c.req.path.replace(/\/+$/, "") === "/donations" && c.res.status === 201)
      donationId = ((await c.res.clone().json()) as { donationId: string }).donationId;
    requests.push({
      method: c.req.method,
      path: c.req.path.replace(/\/+$/, "") || "/",
      ...(c.req.header("origin") ? { origin: c.req.header("origin") } : {}),
      ...(key ? { idempotencyKey: key } : {}),
      status: c.res.status,
      replayed: c.res.headers.get("idempotent-replayed") === "true",
      ...(donationId ? { donationId } : {}),
    });
  };
  const inject: MiddlewareHandler = async (c, next) => {
    if (c.req.path.startsWith("/stripe/")) return next();
    const index = faults.findIndex((f) => !f.path || c.req.path.startsWith(f.path));
    if (index < 0) return next();
    const fault = faults[index]!;
    if (--fault.times <= 0) faults.splice(index, 1);
    // As API Gateway does, the body is read before the answer, so a delayed request still completes.
    if (fault.delayMs) await new Promise((r) => setTimeout(r, fault.delayMs));
    if (!fault.status) return next();
    if (fault.rawBody !== undefined)
      return c.body(fault.rawBody, fault.status as 500, { "Content-Type": "text/html", "Cache-Control": "no-store" });
    const known = FAULT_CODES[fault.status] ?? { code: `http_${fault.status}`, message: "Injected fault." };
    return c.json({ error: { code: known.code, message: known.message } }, fault.status as 500, {
      "Cache-Control": "no-store",
      ...(known.retryAfter ? { "Retry-After": known.retryAfter } : {}),
    });
  };

  const server: ApiServer = await startApiServer({
    port: 0,
    database,
    env: {
      STRIPE_SECRET_KEY: TEST_SECRET_KEY,
      STRIPE_WEBHOOK_SECRET: TEST_WEBHOOK_SECRET,
      STRIPE_API_BASE: stripe.url,
      ...options.env,
    },
    deps: {
      paypal,
      ...(options.allowedOrigin ? { cors: corsPolicy(options.allowedOrigin) } : {}),
      ...options.deps,
    },
    app: { before: [log, inject] },
    ...(options.account ? { account: options.account } : {}),
    ...(options.logger ? { logger: options.logger } : {}),
  });
  stripe.setWebhookUrl(`${server.url}/stripe/webhook`);
  return {
    url: server.url,
    port: server.port,
    stripe,
    paypal,
    deps: server.deps,
    db: database.db,
    requests,
    injectFault: (fault) => faults.push({ ...fault, times: fault.times ?? 1 }),
    donationCount: async () =>
      Number(
        (
          await database.db
            .selectFrom("donations")
            .select((e) => e.fn.countAll().as("n"))
            .executeTakeFirstOrThrow()
        ).n,
      ),
    reset: async () => {
      await stripe.settled();
      await resetApiDb(database.db);
      requests.length = 0;
      faults.length = 0;
    },
    stop: async () => {
      await stripe.stop();
      await server.stop();
    },
  };
}
