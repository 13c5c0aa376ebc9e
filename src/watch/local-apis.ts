/**
 * The local APIs watch mode starts so `npm start` works end to end: the payments service
 * (src/api/, on PGlite in `.nzf-data/`) when PAYMENTS_API_URL is not set, with the local Stripe
 * stand-in (src/stand-ins/stripe/) unless STRIPE_SECRET_KEY is set (then real Stripe test mode:
 * forward its webhooks with `stripe listen --forward-to <api>/stripe/webhook`). When a user pool
 * is configured and NZF_ACCOUNT_API_URL is not set, the same service serves the account API at
 * `<api>/graphql` on the same database (src/account-api/service.ts), as in production: a gift
 * given on the local site while signed in, once paid, shows in that donor's history on /account/.
 * The service charges the content's prices, read from the snapshot the build uses (fetched, else
 * the bundled sample; the sample with --sample), as `nzf-build api` and production do: an editor's
 * price in the content is the price the local page shows and the local service takes.
 */
import type { Logger } from "../core/logger.js";

/** The publishable key the local Stripe stand-in takes (Stripe.js in the browser is still Stripe's own). */
const LOCAL_PUBLISHABLE_KEY = "pk_test_LocalStandIn0000000000";
/** The signing secret of the local Stripe stand-in's webhooks. */
const LOCAL_WEBHOOK_SECRET = "whsec_LocalStandIn0000000000";

export interface LocalApis {
  /** The public configuration with the local APIs' URLs filled in: known at once, before they are ready. */
  publicConfig: Record<string, unknown>;
  /**
   * Resolves when the local APIs answer (the database opened and migrated: seconds on a first
   * start), while the site builds; rejects with why they could not start.
   */
  ready: Promise<void>;
  payments?: {
    ready: Promise<void>;
    url: string;
    port: number;
    allowOrigins(origins: string[]): void;
    /** Reads the content's prices again (after a build, which may have fetched a new snapshot), once it is ready. */
    refreshPrices(): Promise<void>;
  };
  stop(): Promise<void>;
}

interface PoolConfig {
  region?: string;
  userPoolId?: string;
  userPoolClientId?: string;
  userPoolEndpoint?: string;
  accountApiUrl?: string;
}

/**
 * Who issues the pool's tokens: Cognito's own URL for a real pool; for a custom endpoint (a
 * cognito-local started with its issuer domain set to its own URL) that endpoint plus the pool id.
 */
export function poolIssuer(auth: PoolConfig): string {
  const base = auth.userPoolEndpoint
    ? auth.userPoolEndpoint.replace(/\/+$/, "")
    : `https://cognito-idp.${auth.region}.amazonaws.com`;
  return `${base}/${auth.userPoolId}`;
}

/** Where the build's content is: the service reads its prices from the same snapshot. */
export interface LocalContent {
  dir: string;
  repository: string;
  sample: boolean;
}

export async function startLocalApis(
  logger: Logger,
  given: Record<string, unknown>,
  paymentsPort: number,
  dataDir = ".nzf-data",
  content?: LocalContent,
  /**
   * What the service's start waits for (watch mode: its first build): its database, seconds of this
   * thread's CPU to make and migrate on a first start. Its port is bound, and its URL known, at once.
   */
  startAfter?: Promise<unknown>,
): Promise<LocalApis> {
  const publicConfig = { ...given };
  const auth = publicConfig.auth as PoolConfig | null | undefined;
  const stops: (() => Promise<void>)[] = [];
  const stop = async () => {
    for (const s of stops.reverse()) await s().catch(() => undefined);
  };
  try {
    // The account API is the payments service's own (/graphql), when a pool is configured.
    const pool = auth?.userPoolId && auth.userPoolClientId && !auth.accountApiUrl ? auth : undefined;
    if (!auth) {
      logger.info(
        "watch",
        "accounts: no user pool configured (NZF_COGNITO_USER_POOL_ID, NZF_COGNITO_CLIENT_ID), so /account/ says sign-in is unavailable",
      );
    }

    let payments: LocalApis["payments"];
    const configured = publicConfig.payments as { apiUrl?: string | null } | undefined;
    if (!configured?.apiUrl) {
      // Developers get the local implementation of the payments API, so the donation forms work end to end.
      const started = await startLocalPaymentsApi(logger, paymentsPort, dataDir, pool, content, startAfter);
      stops.push(started.stop);
      payments = started;
      publicConfig.payments = { apiUrl: started.url, publishableKey: started.publishableKey };
      if (pool) {
        publicConfig.auth = { ...auth, accountApiUrl: `${started.url}/graphql` };
        logger.info(
          "watch",
          `accounts: local account API at ${started.url}/graphql (in the payments service, tokens of ${poolIssuer(pool)})`,
        );
      }
    } else if (pool) {
      logger.info(
        "watch",
        "accounts: PAYMENTS_API_URL is set and NZF_ACCOUNT_API_URL is not, so /account/ shows no giving history (the account API is that service's /graphql)",
      );
    }
    return { publicConfig, ...(payments ? { payments } : {}), ready: payments?.ready ?? Promise.resolve(), stop };
  } catch (error) {
    await stop();
    throw error;
  }
}
/**
 * Binds the local payments API's port at once (the site's public configuration needs its URL) and
 * starts the rest after `startAfter` (watch mode's first build): the Stripe stand-in, the SMTP
 * catcher, then the service, its database (a fresh PGlite takes seconds to make and migrate) last.
 * A request that comes before it is ready waits for it (src/api/api-port.ts).
 */
async function startLocalPaymentsApi(
  logger: Logger,
  port: number,
  dataDir: string,
  pool?: PoolConfig,
  content?: LocalContent,
  startAfter?: Promise<unknown>,
) {
  const { listenApiServer } = await import("../api/api-port.js");
  const env = process.env;
  const bound = await listenApiServer({ port, logger }).catch((error) => {
    // The port of the last run (before a restart) is taken: any other will do.
    if (port === 0) throw error;
    return listenApiServer({ port: 0, logger });
  });
  let standIns: ReturnType<typeof startStandIns> | undefined;
  const stopStandIns = async () => {
    for (const made of (await standIns) ?? []) if (made.status === "fulfilled") await made.value?.stop();
  };
  let stopped = false;
  const start = async () => {
    // Nothing but the port before the first build, which all of it would slow (this thread's CPU).
    await startAfter?.catch(() => undefined);
    if (stopped) throw new Error("the local payments API was stopped while it started");
    standIns = startStandIns(env);
    const [madeStandIn, madeCatcher] = await standIns;
    for (const made of [madeStandIn, madeCatcher]) if (made.status === "rejected") throw made.reason;
    if (stopped) throw new Error("the local payments API was stopped while it started");
    const standIn = madeStandIn.status === "fulfilled" ? madeStandIn.value : undefined;
    const catcher = madeCatcher.status === "fulfilled" ? madeCatcher.value : undefined;
    let apiEnv: Record<string, string | undefined> = env;
    if (standIn) {
      apiEnv = {
        STRIPE_SECRET_KEY: "sk_test_LocalStandIn0000000000",
        STRIPE_WEBHOOK_SECRET: LOCAL_WEBHOOK_SECRET,
        STRIPE_API_BASE: standIn.url,
      };
      standIn.setWebhookUrl(`${bound.url}/stripe/webhook`);
    }
    // The account API in the service reads the pool's settings as nzf-build api does.
    if (pool)
      apiEnv = {
        ...apiEnv,
        NZF_COGNITO_USER_POOL_ID: pool.userPoolId,
        NZF_COGNITO_CLIENT_ID: pool.userPoolClientId,
        ...(pool.userPoolEndpoint ? { NZF_COGNITO_ENDPOINT: pool.userPoolEndpoint } : {}),
      };
    if (catcher) {
      apiEnv = {
        ...apiEnv,
        NZF_FOUNDATION_NAME: env.NZF_FOUNDATION_NAME || "National Zakat Foundation (local test)",
        // The Australian Business Register's example ABN: a local receipt is no tax receipt.
        NZF_FOUNDATION_ABN: env.NZF_FOUNDATION_ABN || "51 824 753 556",
        NZF_RECEIPT_FROM: "National Zakat Foundation <receipts@localhost>",
        NZF_MAIL_TRANSPORT: "smtp",
        NZF_SMTP_URL: catcher.smtpUrl,
      };
      logger.info(
        "watch",
        `receipts: the local payments API's e-mails are kept, not sent: read them at ${catcher.url}`,
      );
    }
    logger.info(
      "watch",
      `payments: local payments API at ${bound.url} on ${dataDir}${standIn ? ` with the local Stripe stand-in at ${standIn.url} (set STRIPE_SECRET_KEY, STRIPE_WEBHOOK_SECRET and STRIPE_PUBLISHABLE_KEY for Stripe's test mode)` : " with Stripe test mode"}`,
    );
    // The content's prices, read again every 30 s and after each build (an editor's change in watch mode).
    return bound.start({
      logger,
      dataDir,
      env: apiEnv,
      // Watch gives PayPal gifts to the in-memory provider unless PayPal's settings are given.
      localPayPal: true,
      ...(content ? { content: { ...content, refreshMs: 30_000 } } : {}),
    });
  };
  const service = start();
  const ready = service.then(() => undefined);
  // Awaited by watch mode after its first build; a failure before then is its to report.
  ready.catch(() => undefined);
  let origins: string[] | undefined;
  return {
    url: bound.url,
    port: bound.port,
    // Stripe.js in the browser is Stripe's own; the stand-in takes its own key.
    publishableKey: env.STRIPE_SECRET_KEY ? env.STRIPE_PUBLISHABLE_KEY || LOCAL_PUBLISHABLE_KEY : LOCAL_PUBLISHABLE_KEY,
    ready,
    allowOrigins: (next: string[]) => {
      origins = next;
      void service.then(
        (server) => origins && server.deps.cors.set(origins),
        () => undefined,
      );
    },
    refreshPrices: async () => {
      await (await service).refreshPrices();
    },
    stop: async () => {
      stopped = true;
      // The port closes now; a service still starting is stopped when its start ends.
      await bound.stop();
      await stopStandIns();
    },
  };
}

/**
 * The stand-ins the service is configured with: the Stripe stand-in unless Stripe's test mode is set;
 * unless the developer set a mail transport, an SMTP catcher that keeps every receipt the local
 * service sends, readable at its own page (src/stand-ins/smtp/).
 */
function startStandIns(env: NodeJS.ProcessEnv) {
  return Promise.allSettled([
    env.STRIPE_SECRET_KEY
      ? undefined
      : import("../stand-ins/stripe/index.js").then((m) =>
          m.startStripeStandIn({ webhookSecret: LOCAL_WEBHOOK_SECRET }),
        ),
    env.NZF_MAIL_TRANSPORT ? undefined : import("../stand-ins/smtp/catcher.js").then((m) => m.startSmtpCatcher()),
  ]);
}
