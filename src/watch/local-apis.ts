/**
 * The local APIs watch mode starts so `npm start` works end to end: the payments dev server when
 * PAYMENTS_API_URL is not set, and the account API dev server when a user pool is configured and
 * NZF_ACCOUNT_API_URL is not set. Both share one in-memory account store, so a donation given on
 * the local site while signed in shows in that donor's history on /account/.
 */
import type { Logger } from "../core/logger.js";
import type { PaymentsDevServerOptions } from "../server/payments-dev-server.js";

type RecordDonation = NonNullable<PaymentsDevServerOptions["onDonationCreated"]>;

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
      const started = await startLocalPaymentsApi(logger, paymentsPort, record);
      stops.push(started.stop);
      payments = started;
      publicConfig.payments = {
        apiUrl: started.url,
        publishableKey: process.env.STRIPE_PUBLISHABLE_KEY || "pk_test_local_development",
      };
      logger.info(
        "watch",
        `payments: local payments API at ${started.url}${process.env.STRIPE_PUBLISHABLE_KEY ? "" : " (set STRIPE_PUBLISHABLE_KEY to a Stripe test key for the card step)"}`,
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

async function startLocalPaymentsApi(logger: Logger, port: number, onDonationCreated?: RecordDonation) {
  const { startPaymentsDevServer } = await import("../server/payments-dev-server.js");
  const options = { logger, ...(onDonationCreated ? { onDonationCreated } : {}) };
  try {
    return await startPaymentsDevServer({ ...options, port });
  } catch (error) {
    // The port of the last run (before a restart) is taken: any other will do.
    if (port === 0) throw error;
    return startPaymentsDevServer({ ...options, port: 0 });
  }
}
