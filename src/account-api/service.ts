/**
 * The account API as part of the payments service: the same database (db-records.ts), the same
 * deployment (the service's Hono app mounts `graphql` at /graphql), and the same check of who is
 * giving (`identifyDonor`, the `sub` of a valid access token, which the service records on each
 * donation so it shows in that account). Built from the NZF_COGNITO_* settings the site uses.
 */
import type { Kysely } from "kysely";
import type { Logger } from "../core/logger.js";
import { createDbRecords } from "./db-records.js";
import { type AccountGraphql, createAccountGraphql } from "./graphql.js";
import type { PlanProvider } from "./plan-provider.js";
import { createRevocationCheck } from "./revocation.js";
import { createStoreOver } from "./store.js";
import { bearerToken, createTokenVerifier } from "./tokens.js";
import { createUserPoolDirectory } from "./user-pool.js";

export interface AccountServiceOptions {
  db: Kysely<never>;
  userPoolId: string;
  clientId: string;
  /** cognito-local's URL under watch mode (cognitoEndpoint); unset for a real pool. */
  endpoint?: string;
  logger?: Logger;
  provider?: PlanProvider;
}

export interface AccountService {
  graphql: AccountGraphql;
  identifyDonor(authorization: string | undefined): Promise<string | null>;
}

export function createAccountService(options: AccountServiceOptions): AccountService {
  const pool = { userPoolId: options.userPoolId, ...(options.endpoint ? { endpoint: options.endpoint } : {}) };
  const verifyToken = createTokenVerifier({ ...pool, clientId: options.clientId });
  const userPool = createUserPoolDirectory(pool);
  // A signed-out token still has a good signature: the pool is asked whether it was revoked.
  const isRevoked = createRevocationCheck((token) => userPool.profile(token));
  const store = createStoreOver(createDbRecords(options.db), {
    ...(options.provider ? { provider: options.provider } : {}),
  });
  const graphql = createAccountGraphql({
    store,
    verifyToken,
    userPool,
    ...(options.logger ? { logger: options.logger } : {}),
    isRevoked,
  });
  return {
    graphql,
    async identifyDonor(authorization) {
      const token = bearerToken(authorization);
      if (!token) return null;
      try {
        const verified = await verifyToken(token);
        if (await isRevoked(token)) return null;
        return verified.sub;
      } catch {
        // A bad or expired token gives as a guest: the gift can be claimed later, never misfiled.
        return null;
      }
    },
  };
}

/** From the site's settings (NZF_COGNITO_USER_POOL_ID, NZF_COGNITO_CLIENT_ID, NZF_COGNITO_ENDPOINT); null without a pool. */
export function accountServiceFromEnv(
  env: Record<string, string | undefined>,
  db: Kysely<never>,
  logger?: Logger,
  /** What the settings do not give: the plan provider. */
  extra: Pick<AccountServiceOptions, "provider"> = {},
): AccountService | null {
  const userPoolId = env.NZF_COGNITO_USER_POOL_ID?.trim();
  const clientId = env.NZF_COGNITO_CLIENT_ID?.trim();
  if (!userPoolId || !clientId) return null;
  const endpoint = env.NZF_COGNITO_ENDPOINT?.trim();
  return createAccountService({
    db,
    userPoolId,
    clientId,
    ...(endpoint ? { endpoint } : {}),
    ...(logger ? { logger } : {}),
    ...extra,
  });
}
