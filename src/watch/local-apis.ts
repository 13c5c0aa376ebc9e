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

export interface LocalApis {
  /** The public configuration with the local APIs' URLs filled in. */
  publicConfig: Record<string, unknown>;
  payments?: {
    url: string;
    port: number;
    allowOrigins(origins: string[]): void;
    /** Reads the content's prices again (after a build, which may have fetched a new snapshot). */
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
      const started = await startLocalPaymentsApi(logger, paymentsPort, dataDir, pool, content);
      stops.push(started.stop);
      payments = started;
      publicConfig.payments = { apiUrl: started.url, publishableKey: started.publishableKey };
      logger.info(
        "watch",
        `payments: local payments API at ${started.url} on ${dataDir}${started.standIn ? ` with the local Stripe stand-in at ${started.standIn} (set STRIPE_SECRET_KEY, STRIPE_WEBHOOK_SECRET and STRIPE_PUBLISHABLE_KEY for Stripe's test mode)` : " with Stripe test mode"}`,
      );
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
    return { publicConfig, ...(payments ? { payments } : {}), stop };
  } catch (error) {
    await stop();
    throw error;
  }
}
async function startLocalPaymentsApi(
  logger: Logger,
  port: number,
  dataDir: string,
  pool?: PoolConfig,
  content?: LocalContent,
) {
  const { startApiServer } = await import("../api/node-server.js");
  const env = process.env;
  let standIn: { url: string; setWebhookUrl(url: string): void; stop(): Promise<void> } | undefined;
  let apiEnv: Record<string, string | undefined> = env;
  let publishableKey = env.STRIPE_PUBLISHABLE_KEY || LOCAL_PUBLISHABLE_KEY;
  if (!env.STRIPE_SECRET_KEY) {
    const { startStripeStandIn } = await import("../stand-ins/stripe/index.js");
    const webhookSecret = "whsec_LocalStandIn0000000000";
    standIn = await startStripeStandIn({ webhookSecret });
    publishableKey = LOCAL_PUBLISHABLE_KEY;
    apiEnv = {
      STRIPE_SECRET_KEY: "sk_test_LocalStandIn0000000000",
      STRIPE_WEBHOOK_SECRET: webhookSecret,
      STRIPE_API_BASE: standIn.url,
    };
  }
  // The account API in the service reads the pool's settings as nzf-build api does.
  if (pool)
    apiEnv = {
      ...apiEnv,
      NZF_COGNITO_USER_POOL_ID: pool.userPoolId,
      NZF_COGNITO_CLIENT_ID: pool.userPoolClientId,
      ...(pool.userPoolEndpoint ? { NZF_COGNITO_ENDPOINT: pool.userPoolEndpoint } : {}),
    };
  // Receipts: unless the developer set a mail transport, an SMTP catcher keeps every receipt the
  // local service sends, readable at its own page (src/stand-ins/smtp/).
  let catcher: { url: string; smtpUrl: string; stop(): Promise<void> } | undefined;
  if (!env.NZF_MAIL_TRANSPORT) {
    const { startSmtpCatcher } = await import("../stand-ins/smtp/catcher.js");
    catcher = await startSmtpCatcher();
    apiEnv = {
      ...apiEnv,
      NZF_FOUNDATION_NAME: env.NZF_FOUNDATION_NAME || "National Zakat Foundation (local test)",
      // The Australian Business Register's example ABN: a local receipt is no tax receipt.
      NZF_FOUNDATION_ABN: env.NZF_FOUNDATION_ABN || "51 824 753 556",
      NZF_RECEIPT_FROM: "National Zakat Foundation <receipts@localhost>",
      NZF_MAIL_TRANSPORT: "smtp",
      NZF_SMTP_URL: catcher.smtpUrl,
    };
    logger.info("watch", `receipts: the local payments API's e-mails are kept, not sent: read them at ${catcher.url}`);
  }
  // The content's prices, read again every 30 s and after each build (an editor's change in watch mode).
  const options = {
    logger,
    dataDir,
    env: apiEnv,
    // Watch gives PayPal gifts to the in-memory provider unless PayPal's settings are given.
    localPayPal: true,
    ...(content ? { content: { ...content, refreshMs: 30_000 } } : {}),
  };
  let server: Awaited<ReturnType<typeof startApiServer>>;
  try {
    server = await startApiServer({ ...options, port }).catch((error) => {
      // The port of the last run (before a restart) is taken: any other will do.
      if (port === 0) throw error;
      return startApiServer({ ...options, port: 0 });
    });
  } catch (error) {
    await standIn?.stop();
    await catcher?.stop();
    throw error;
  }
  standIn?.setWebhookUrl(`${server.url}/stripe/webhook`);
  return {
    url: server.url,
    port: server.port,
    publishableKey,
    standIn: standIn?.url,
    allowOrigins: (origins: string[]) => server.deps.cors.set(origins),
    refreshPrices: () => server.refreshPrices(),
    mailUrl: catcher?.url,
    stop: async () => {
      await server.stop();
      await standIn?.stop();
      await catcher?.stop();
    },
  };
}
