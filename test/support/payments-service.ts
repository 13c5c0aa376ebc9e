/**
 * The real payments service (src/api/) for tests: on a port, on this file's PGlite (from the
 * migrated dump), with the Stripe stand-in (src/stand-ins/stripe/) as Stripe, which sends it signed
 * webhooks. What the old in-memory dev server offered tests is in a proxy in front of it
 * (payments-proxy.ts): injected faults (a status, a delay, a raw body) and a request log; `url`
 * and `port` are the proxy's, `direct` the service's own. Asked for, the service reaches Stripe
 * through a proxy too (stripe-fault-proxy.ts), where a test cuts its calls to Stripe.
 */
import { expect } from "vitest";
import { startApiServer, type ApiServer, type ApiServerOptions } from "../../src/api/node-server.js";
import type { ApiDeps } from "../../src/api/deps.js";
import type { ApiDb } from "../../src/api/db/open.js";
import type { LocalPayPal } from "../../src/api/paypal/local-provider.js";
import { startStripeStandIn, type StripeStandIn } from "../../src/stand-ins/stripe/index.js";
import { openTestApiDb, resetApiDb } from "./api-db.js";
import { testDataDir } from "./api-db-open.js";
import { type Fault, type RequestLogEntry, startPaymentsProxy } from "./payments-proxy.js";
import { type StripeFaultProxy, startStripeFaultProxy } from "./stripe-fault-proxy.js";

export type { Fault, RequestLogEntry };

export const TEST_WEBHOOK_SECRET = "whsec_PaymentsServiceTest0123456789";
export const TEST_SECRET_KEY = "sk_test_51PaymentsServiceTest0123456789";
export const TEST_PUBLISHABLE_KEY = "pk_test_51PaymentsServiceTest0123456789";

export interface TestPaymentsService {
  /** The proxy's address: requests here are logged and may meet an injected fault. */
  url: string;
  port: number;
  /** The service itself, with no proxy in front (what a fuzz of malformed requests must reach). */
  direct: { url: string; port: number };
  stripe: StripeStandIn;
  /** Between the service and the Stripe stand-in, when started with `stripeFaults`. */
  stripeFaults?: StripeFaultProxy;
  paypal: LocalPayPal;
  deps: ApiDeps;
  db: ApiDb["db"];
  /** The data folder that names this file's database (api-db-open.ts): another service started with it shares it. */
  dataDir: string;
  requests: RequestLogEntry[];
  injectFault(fault: Fault): void;
  donationCount(): Promise<number>;
  /** Empties the tables and the logs (between tests of one file). */
  reset(): Promise<void>;
  stop(): Promise<void>;
}

/**
 * The file's database: one per test file, shared by the services that file starts. Test files that
 * change no shared state share their worker's modules (vitest.config.ts), so this is keyed by the
 * running file: a file never sees what an earlier file in the same worker stored (its receipt
 * numbers, its donations).
 *
 * The next file gets the earlier file's database emptied (resetApiDb: every table, identities from
 * 1), which is the migrated dump again, rather than a new PGlite loaded from the dump: PGlite's
 * start is 0.6-1.3 s of CPU, paid once per worker instead of once per file. Only when the earlier
 * file stopped every service it started: one still running (an afterAll that failed) could write
 * into the next file's data, so the next file then gets a new database and the old one is closed.
 */
interface FileDatabase {
  file: string | undefined;
  db: Promise<ApiDb>;
  /** Services started on it and not stopped. */
  running: number;
}
let shared: FileDatabase | undefined;
/** The running test file; none where vitest's state is absent (the service run in a worker thread, one module per thread). */
function currentTestFile(): string | undefined {
  try {
    return expect.getState().testPath;
  } catch {
    return undefined;
  }
}
function fileDatabase(): FileDatabase {
  const file = currentTestFile();
  if (!shared || shared.file !== file) {
    const earlier = shared;
    const handOn = earlier !== undefined && earlier.running === 0;
    const emptied = (db: ApiDb) => resetApiDb(db.db).then(() => db);
    shared = { file, running: 0, db: handOn ? earlier.db.then(emptied).catch(() => openTestApiDb()) : openTestApiDb() };
    if (earlier && !handOn) earlier.db.then((db) => db.close()).catch(() => undefined);
  }
  return shared;
}

/** One per test file (`beforeAll`); `reset()` between tests. */
export async function startTestPaymentsService(
  options: {
    /** The site origins that may call it (NZF_API_ALLOWED_ORIGINS); loopback origins without. */
    allowedOrigin?: string[];
    faults?: Fault[];
    /** More of the service's settings (e.g. NZF_COGNITO_*: the account API and identifyDonor, as deployed). */
    env?: Record<string, string>;
    /** The service's calls to Stripe go through a fault proxy (`stripeFaults` of the answer). */
    stripeFaults?: boolean;
    logger?: ApiServerOptions["logger"];
  } = {},
): Promise<TestPaymentsService> {
  const held = fileDatabase();
  held.running++;
  const database = await held.db;
  const dataDir = await testDataDir(database);
  const stripe = await startStripeStandIn({ webhookSecret: TEST_WEBHOOK_SECRET, publishableKey: TEST_PUBLISHABLE_KEY });
  const faults: (Fault & { times: number })[] = (options.faults ?? []).map((f) => ({ ...f, times: f.times ?? 1 }));
  const requests: RequestLogEntry[] = [];
  const stripeFaults = options.stripeFaults ? await startStripeFaultProxy(stripe.url) : undefined;

  const server: ApiServer = await startApiServer({
    port: 0,
    // The service opens its database as production does, from its data folder: this file's, by name.
    dataDir,
    env: {
      STRIPE_SECRET_KEY: TEST_SECRET_KEY,
      STRIPE_WEBHOOK_SECRET: TEST_WEBHOOK_SECRET,
      STRIPE_API_BASE: stripeFaults?.url ?? stripe.url,
      ...(options.allowedOrigin ? { NZF_API_ALLOWED_ORIGINS: options.allowedOrigin.join(",") } : {}),
      ...options.env,
    },
    // PayPal as watch mode has it without PayPal's settings: the in-memory provider, which tests drive.
    localPayPal: true,
    ...(options.logger ? { logger: options.logger } : {}),
  });
  const paypal = server.deps.paypal as LocalPayPal;
  const proxy = await startPaymentsProxy(server.url, {
    takeFault(path) {
      const index = faults.findIndex((f) => !f.path || path.startsWith(f.path));
      if (index < 0) return undefined;
      const fault = faults[index]!;
      if (--fault.times <= 0) faults.splice(index, 1);
      return fault;
    },
    log: (entry) => void requests.push(entry),
    cors: () => server.deps.cors,
  });
  // The stand-in's signed webhooks go through the proxy too, so the log holds them.
  stripe.setWebhookUrl(`${proxy.url}/stripe/webhook`);
  return {
    url: proxy.url,
    port: proxy.port,
    direct: { url: server.url, port: server.port },
    stripe,
    ...(stripeFaults ? { stripeFaults } : {}),
    paypal,
    deps: server.deps,
    db: database.db,
    dataDir,
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
      await stripeFaults?.stop();
      await proxy.stop();
      await server.stop();
      held.running--;
    },
  };
}
