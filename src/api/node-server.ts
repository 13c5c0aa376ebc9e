/**
 * The payments API on Node's HTTP server: `nzf-build api`, watch mode and the tests that need a
 * real port (the browser, the compiled CLI). Slow clients are cut off (headers in 10 s, the
 * request in 15 s), and the database is closed after the last answer on stop.
 */
import { createServer, type IncomingMessage, type RequestListener, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { getRequestListener } from "@hono/node-server";
import { accountServiceFromEnv } from "../account-api/service.js";
import type { Logger } from "../core/logger.js";
import { DEFAULT_FUND_RULES } from "../payments/fund-rules.js";
import type { Fund } from "../payments/types.js";
import { createRulesSource, snapshotLoader } from "./fund-rules-source.js";
import { createApiApp } from "./app.js";
import { servicePlanProvider } from "./plan-provider.js";
import { describe, readApiSettings, type ApiSettings } from "./config.js";
import { corsPolicy, EXPOSED_HEADERS, isLoopbackOrigin } from "./cors.js";
import { openDatabase } from "./db/open.js";
import type { ApiDeps } from "./deps.js";
import { sweepExpiredDonations } from "./donations/expire.js";
import { runScheduledCharges } from "./jobs/scheduled-charges.js";
import { repairWronglyPaused } from "./stripe/paused-not-started.js";
import { createLocalPayPal } from "./paypal/local-provider.js";
import { createPayPalApi } from "./paypal/sdk.js";
import { createSdkPayPal } from "./paypal/sdk-provider.js";
import { readPayPalSettings } from "./paypal/settings.js";
import { createStripeClient } from "./stripe/client.js";
import { readReceiptSettings } from "../receipts/settings.js";
import { createReceiptsService } from "./receipts/service.js";
import { SERVICE_TIMERS } from "./service-timers.js";

export interface ApiServerOptions {
  port?: number;
  host?: string;
  /** PGlite's folder when there is no DATABASE_URL (default `.nzf-data/`). */
  dataDir?: string;
  env?: Record<string, string | undefined>;
  logger?: Logger;
  /**
   * Without PayPal settings, PayPal as the in-memory local provider, which marks a capture paid with
   * no money taken: for watch mode only. `nzf-build api` never sets it, so a service started without
   * NZF_PAYPAL_* answers PayPal calls 503 rather than giving gifts away.
   */
  localPayPal?: boolean;
  /**
   * Where the funds' prices and limits come from: the content snapshot the build uses (the
   * fetched one for `repository` in `dir`, else the sample), read again every 5 minutes. Without
   * it, DEFAULT_FUND_RULES (the sample's prices).
   */
  content?: {
    dir: string;
    repository: string;
    /** The build was asked for the bundled sample (`--sample`): its prices, even beside a fetched snapshot. */
    sample?: boolean;
    /** How often the snapshot is read again (default 5 minutes). */
    refreshMs?: number;
  };
}

export interface ApiServer {
  url: string;
  port: number;
  deps: ApiDeps;
  settings: ApiSettings;
  /** Reads the content's prices again now (watch mode, after a build); nothing without `content`. */
  refreshPrices(): Promise<void>;
  stop(): Promise<void>;
}

/** How long a request that came before the service was ready waits for it before a 503 (a fresh PGlite takes seconds). */
export const HOLD_UNTIL_READY_MS = 15_000;

/**
 * The service's port, bound before the service is ready (watch mode builds the site, which needs
 * the service's URL, while the database opens and migrates). A request that comes meanwhile waits
 * for the service and is answered by it; one still waiting after `holdMs`, or made after the start
 * failed, gets the contract's 503 `unavailable` with Retry-After.
 */
export interface ApiPort {
  url: string;
  port: number;
  /** Starts the service behind the port (once): its database opened and migrated. On failure the port is closed. */
  start(options: ApiServerOptions): Promise<ApiServer>;
  /** Closes the port, and the service once its start (if one runs) has finished. */
  stop(): Promise<void>;
}

export async function listenApiServer(
  options: Pick<ApiServerOptions, "port" | "host" | "logger"> & { holdMs?: number } = {},
): Promise<ApiPort> {
  const holdMs = options.holdMs ?? HOLD_UNTIL_READY_MS;
  let handle: RequestListener | null = null;
  let failed = false;
  let markReady!: () => void;
  const ready = new Promise<void>((resolve) => (markReady = resolve));
  const server = createServer((req, res) => {
    if (handle) return handle(req, res);
    let timer: NodeJS.Timeout | undefined;
    void Promise.race([ready, new Promise<void>((resolve) => (timer = setTimeout(resolve, holdMs)))]).then(() => {
      clearTimeout(timer);
      if (handle) handle(req, res);
      else notReady(req, res, failed);
    });
  });
  server.headersTimeout = 10_000;
  server.requestTimeout = 15_000;
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 8787, options.host ?? "127.0.0.1", () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const host = options.host ?? "127.0.0.1";
  const url = `http://${host.includes(":") ? `[${host}]` : host}:${port}`;
  const close = () =>
    new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeIdleConnections();
      setTimeout(() => server.closeAllConnections(), 2_000).unref();
    });
  let starting: Promise<ApiServer> | undefined;
  let stopped = false;
  return {
    url,
    port,
    start(serviceOptions) {
      if (starting) throw new Error("the payments API's port is started once");
      starting = startService(serviceOptions, url, () => stopped).then(
        (service) => {
          handle = service.listener;
          markReady();
          return { ...service.server, stop: () => service.stop(close) };
        },
        async (error: unknown) => {
          failed = true;
          markReady();
          await close();
          throw error;
        },
      );
      return starting;
    },
    async stop() {
      stopped = true;
      if (!starting) return close();
      // A start still running stops what it made when it ends; the port closes now.
      const closing = close();
      await starting.then(
        (service) => service.stop(),
        () => undefined,
      );
      await closing;
    },
  };
}

/** Before the service is ready: the contract's 503, with CORS for loopback sites so the page can read it. */
function notReady(req: IncomingMessage, res: ServerResponse, failed: boolean): void {
  const origin = req.headers.origin;
  const message = failed
    ? "The payments service could not start (its terminal says why). Nothing was charged."
    : "The payments service is still starting. Nothing was charged. Please try again in a moment.";
  res
    .writeHead(503, {
      "content-type": "application/json; charset=utf-8",
      "cache-control": "no-store",
      "retry-after": failed ? "30" : "2",
      ...(origin && isLoopbackOrigin(origin)
        ? { "access-control-allow-origin": origin, "access-control-expose-headers": EXPOSED_HEADERS, vary: "Origin" }
        : {}),
    })
    .end(JSON.stringify({ error: { code: "unavailable", message } }));
}

export async function startApiServer(options: ApiServerOptions = {}): Promise<ApiServer> {
  const port = await listenApiServer(options);
  return port.start(options);
}

/** The service itself: its settings checked, its database opened and migrated, its timers started. */
async function startService(
  options: ApiServerOptions,
  url: string,
  stopped: () => boolean,
): Promise<{
  server: Omit<ApiServer, "stop">;
  listener: RequestListener;
  stop(close: () => Promise<void>): Promise<void>;
}> {
  const settings = readApiSettings(options.env ?? process.env);
  // Checked before the database opens: a wrong ABN must stop the start, not every receipt.
  const receiptSettings = readReceiptSettings(options.env ?? process.env);
  const rulesSource = options.content
    ? createRulesSource({
        load: snapshotLoader(options.content.dir, options.content.repository, options.content.sample),
        refreshMs: options.content.refreshMs ?? 5 * 60_000,
        ...(options.logger ? { logger: options.logger } : {}),
      })
    : undefined;
  let database: Awaited<ReturnType<typeof openDatabase>>;
  try {
    await rulesSource?.ready;
    database = await openDatabase(
      settings.databaseUrl ? { url: settings.databaseUrl } : { dataDir: options.dataDir ?? ".nzf-data" },
    );
  } catch (error) {
    rulesSource?.stop();
    throw error;
  }
  try {
    const deps: ApiDeps = {
      db: database.db,
      stripe: settings.stripe ? createStripeClient(settings.stripe) : null,
      webhookSecret: settings.webhookSecret,
      ...paypalDeps(options.env ?? process.env, options.localPayPal === true),
      cors: corsPolicy(settings.allowedOrigins),
      ...(settings.siteUrl ? { siteUrl: settings.siteUrl } : {}),
      rulesFor: (fund) => DEFAULT_FUND_RULES[fund],
      ...(rulesSource
        ? { rulesFor: rulesSource.rulesFor, rulesForRequest: rulesSource.rulesForRequest, seasons: rulesSource.seasons }
        : {}),
      ...(options.logger ? { logger: options.logger } : {}),
    };
    deps.receipts = createReceiptsService(deps.db, {
      settings: receiptSettings,
      taxDeductible: (fund) => deps.rulesFor(fund as Fund).taxDeductible === true,
      ...(options.logger ? { logger: options.logger } : {}),
    });
    // The donor account API, on the same database, when the site's user pool is configured.
    const account = accountServiceFromEnv(options.env ?? process.env, database.db as never, options.logger, {
      // Plan changes act on whoever bills the plan: Stripe or PayPal.
      provider: servicePlanProvider(deps),
    });
    if (account) deps.identifyDonor = account.identifyDonor;
    // Data an older version left wrong (instalments shown paused while Stripe will charge them), set
    // right before the first request; a Stripe failure here is said and does not stop the start.
    if (deps.stripe)
      await repairWronglyPaused(deps, deps.stripe, options.logger).catch((error: Error) =>
        options.logger?.warn("api", `the check of paused instalment plans could not run: ${error.message}`),
      );
    // Stopped while it started (watch mode's Ctrl+C during a first start): nothing runs.
    if (stopped()) throw new Error("the payments API was stopped while it started");
    const app = createApiApp(deps, account ? { graphql: account.graphql } : {});
    const listener = getRequestListener(app.fetch, {
      errorHandler: (error) => {
        options.logger?.error("api", `request failed: ${(error as Error).stack ?? String(error)}`);
      },
    });
    const sweeper = setInterval(() => {
      sweepExpiredDonations(deps).then(
        (r) => r.expired && options.logger?.info("api", `expired ${r.expired} never-paid donations`),
        (error) => options.logger?.warn("api", `expiry sweep failed: ${(error as Error).message}`),
      );
    }, SERVICE_TIMERS.sweepEveryMs).unref();
    const receiptTimer = setInterval(() => {
      deps.receipts?.deliverDue().then(
        (r) => r.sent.length && options.logger?.info("api", `sent ${r.sent.length} receipt e-mails`),
        (error) => options.logger?.warn("api", `receipt e-mails not sent: ${(error as Error).message}`),
      );
    }, SERVICE_TIMERS.receiptsEveryMs).unref();
    const jobTimer = setInterval(() => {
      runScheduledCharges(deps).then(
        (r) => r.charged.length && options.logger?.info("api", `charged ${r.charged.length} scheduled gifts`),
        (error) => options.logger?.warn("api", `scheduled charges job failed: ${(error as Error).message}`),
      );
    }, SERVICE_TIMERS.jobsEveryMs).unref();
    const port = Number(new URL(url).port);
    options.logger?.info("api", `payments API on ${url} (${describe(settings, database.driver)})`);
    return {
      server: {
        url,
        port,
        deps,
        settings,
        refreshPrices: async () => {
          await rulesSource?.refresh();
        },
      },
      listener,
      stop: async (close) => {
        rulesSource?.stop();
        clearInterval(sweeper);
        clearInterval(receiptTimer);
        clearInterval(jobTimer);
        await close();
        await database.close();
        deps.receipts?.close();
      },
    };
  } catch (error) {
    rulesSource?.stop();
    await database.close().catch(() => undefined);
    throw error;
  }
}

/**
 * PayPal through its SDK when NZF_PAYPAL_CLIENT_SECRET is set (a local stand-in with
 * NZF_PAYPAL_API_BASE); else the local provider where asked for (watch mode), else none.
 */
function paypalDeps(env: Record<string, string | undefined>, local: boolean): Pick<ApiDeps, "paypal" | "paypalApi"> {
  const settings = readPayPalSettings(env);
  if (!settings) return { paypal: local ? createLocalPayPal() : null, paypalApi: null };
  const api = createPayPalApi(settings);
  return { paypal: createSdkPayPal(api), paypalApi: api };
}
