/**
 * The payments API on Node's HTTP server: `nzf-build api`, watch mode and the tests that need a
 * real port (the browser, the compiled CLI). Slow clients are cut off (headers in 10 s, the
 * request in 15 s), and the database is closed after the last answer on stop.
 */
import type { RequestListener } from "node:http";
import { getRequestListener } from "@hono/node-server";
import { accountServiceFromEnv } from "../account-api/service.js";
import type { Logger } from "../core/logger.js";
import { DEFAULT_FUND_RULES } from "../payments/fund-rules.js";
import type { Fund } from "../payments/types.js";
import { createRulesSource, snapshotLoader } from "./fund-rules-source.js";
import { createApiApp } from "./app.js";
import { servicePlanProvider } from "./plan-provider.js";
import { describe, readApiSettings, type ApiSettings } from "./config.js";
import { corsPolicy } from "./cors.js";
import { listenApiServer } from "./api-port.js";
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

/** The service on its port, ready: `nzf-build api` and tests (watch mode binds the port first: api-port.ts). */
export async function startApiServer(options: ApiServerOptions = {}): Promise<ApiServer> {
  const port = await listenApiServer(options);
  return port.start(options);
}

/**
 * The service itself: its settings checked, its database opened and migrated, its timers started;
 * what listens on its port (api-port.ts) hands requests to `listener`.
 */
export async function startService(
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
