/**
 * The local APIs watch mode starts so `npm start` works end to end: the payments service
 * (src/api/, on PGlite in `.nzf-data/`) when PAYMENTS_API_URL is not set, with the local Stripe
 * stand-in (src/stand-ins/stripe/) unless STRIPE_SECRET_KEY is set (then real Stripe test mode:
 * forward its webhooks with `stripe listen --forward-to <api>/stripe/webhook`), and the account
 * API dev server when a user pool is configured and NZF_ACCOUNT_API_URL is not set. A donation
 * given on the local site while signed in shows in that donor's history on /account/.
 */
import type { Logger } from "../core/logger.js";
import type { DonationCreated, DonationRequest, DonationStatus } from "../payments/types.js";

type RecordDonation = (event: {
  authorization?: string;
  created: DonationCreated;
  request: DonationRequest;
  status: () => DonationStatus;
}) => unknown;

/** The publishable key the local Stripe stand-in takes (Stripe.js in the browser is still Stripe's own). */
const LOCAL_PUBLISHABLE_KEY = "pk_test_LocalStandIn0000000000";

export interface LocalApis {
  /** The public configuration with the local APIs' URLs filled in. */
  publicConfig: Record<string, unknown>;
  payments?: { url: string; port: number; allowOrigins(origins: string[]): void };
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

export async function startLocalApis(
  logger: Logger,
  given: Record<string, unknown>,
  paymentsPort: number,
  dataDir = ".nzf-data",
): Promise<LocalApis> {
  const publicConfig = { ...given };
  const auth = publicConfig.auth as PoolConfig | null | undefined;
  const stops: (() => Promise<void>)[] = [];
  const stop = async () => {
    for (const s of stops.reverse()) await s().catch(() => undefined);
  };
  try {
    // The account API first: the payments dev server records donations into its store.
    let record: RecordDonation | undefined;
    if (auth?.userPoolId && auth.userPoolClientId && !auth.accountApiUrl) {
      const { startLocalAccountApi } = await import("../server/account-api-dev-server.js");
      const account = await startLocalAccountApi({
        userPoolId: auth.userPoolId,
        clientId: auth.userPoolClientId,
        ...(auth.userPoolEndpoint ? { endpoint: auth.userPoolEndpoint } : {}),
        logger,
      });
      stops.push(account.stop);
      record = account.recordDonation;
      publicConfig.auth = { ...auth, accountApiUrl: account.graphqlUrl };
      logger.info("watch", `accounts: local account API at ${account.graphqlUrl} (tokens of ${poolIssuer(auth)})`);
    } else if (!auth) {
      logger.info(
        "watch",
        "accounts: no user pool configured (NZF_COGNITO_USER_POOL_ID, NZF_COGNITO_CLIENT_ID), so /account/ says sign-in is unavailable",
      );
    }

    let payments: LocalApis["payments"];
    const configured = publicConfig.payments as { apiUrl?: string | null } | undefined;
    if (!configured?.apiUrl) {
      // Developers get the local implementation of the payments API, so the donation forms work end to end.
      const started = await startLocalPaymentsApi(logger, paymentsPort, dataDir, record);
      stops.push(started.stop);
      payments = started;
      publicConfig.payments = { apiUrl: started.url, publishableKey: started.publishableKey };
      logger.info(
        "watch",
        `payments: local payments API at ${started.url} on ${dataDir}${started.standIn ? ` with the local Stripe stand-in at ${started.standIn} (set STRIPE_SECRET_KEY, STRIPE_WEBHOOK_SECRET and STRIPE_PUBLISHABLE_KEY for Stripe's test mode)` : " with Stripe test mode"}`,
      );
    } else if (record) {
      logger.info(
        "watch",
        "accounts: PAYMENTS_API_URL is set, so donations go there and the local account API's history stays empty",
      );
    }
    return { publicConfig, ...(payments ? { payments } : {}), stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

async function startLocalPaymentsApi(logger: Logger, port: number, dataDir: string, record?: RecordDonation) {
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
  // The account API's store shows each gift's current status: kept here from the service's events.
  const statuses = new Map<string, DonationStatus>();
  const options = {
    logger,
    dataDir,
    env: apiEnv,
    deps: {
      onStatusChanged: (id: string, status: DonationStatus) => void statuses.set(id, status),
      ...(record
        ? {
            onDonationCreated: (event: {
              authorization?: string;
              created: DonationCreated;
              request: DonationRequest;
            }) =>
              record({ ...event, status: () => statuses.get(event.created.donationId) ?? "requires_payment_method" }),
          }
        : {}),
    },
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
    throw error;
  }
  standIn?.setWebhookUrl(`${server.url}/stripe/webhook`);
  return {
    url: server.url,
    port: server.port,
    publishableKey,
    standIn: standIn?.url,
    allowOrigins: (origins: string[]) => server.deps.cors.set(origins),
    stop: async () => {
      await server.stop();
      await standIn?.stop();
    },
  };
}
