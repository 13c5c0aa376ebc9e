/**
 * The account pages against the real payments service, as account-*.test.ts use them: cognito-local
 * (cognito-local.ts), the payments service serving the account API at its /graphql from the pool's
 * settings (as deployed), the sample built with both, served on loopback with its own `_headers`
 * (so its CSP is enforced), and Chromium. Each file gets its own pool, service and build: the pool's
 * ids and addresses are baked into the pages (a shared build cannot serve them).
 */
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import type { Browser } from "playwright-core";
import { resolveAuthConfig } from "../../src/auth/config.js";
import { type StaticServer, startStaticServer } from "../../src/server/static-server.js";
import { headersFor, parseHeadersFile } from "../../src/site-files/headers.js";
import { launchBrowser } from "./browser.js";
import { createFixture, type Fixture } from "./build-fixture.js";
import { type CognitoLocal, startCognitoLocal } from "./cognito-local.js";
import { startTestPaymentsService, TEST_PUBLISHABLE_KEY, type TestPaymentsService } from "./payments-service.js";

export interface AccountSite {
  cognito: CognitoLocal;
  service: TestPaymentsService;
  fixture: Fixture;
  /** The built site, with its `_headers`. */
  server: StaticServer;
  browser: Browser;
  stop(): Promise<void>;
}

export async function startAccountSite(
  options: {
    /** The service's account API options beyond the pool's settings (e.g. a revocation check). */
    account?: NonNullable<Parameters<typeof startTestPaymentsService>[0]>["account"];
    /** Whether the pages give through the service too (the pay pages' PAYMENTS_API_URL); default yes. */
    payments?: boolean;
  } = {},
): Promise<AccountSite> {
  // Stopped last to first, by stop() or when a later part fails to start (nobody else holds them yet).
  const stops: (() => Promise<unknown>)[] = [];
  const stop = async () => {
    for (const one of [...stops].reverse()) await one();
  };
  const begun = await Promise.allSettled([startCognitoLocal(), createFixture({ sample: true }), launchBrowser()]);
  const [pool, built, chromium] = begun;
  if (pool.status === "fulfilled") stops.push(() => pool.value.stop());
  if (built.status === "fulfilled") stops.push(() => built.value.cleanup());
  if (chromium.status === "fulfilled") stops.push(() => chromium.value.close());
  try {
    if (pool.status === "rejected") throw pool.reason;
    if (built.status === "rejected") throw built.reason;
    if (chromium.status === "rejected") throw chromium.reason;
    const [cognito, fixture, browser] = [pool.value, built.value, chromium.value];
    // The payments service as deployed: the account API at its /graphql, from the pool's settings.
    const service = await startTestPaymentsService({
      env: {
        NZF_COGNITO_USER_POOL_ID: cognito.userPoolId,
        NZF_COGNITO_CLIENT_ID: cognito.clientId,
        NZF_COGNITO_ENDPOINT: cognito.endpoint,
      },
      ...(options.account ? { account: options.account } : {}),
    });
    stops.push(() => service.stop());
    const auth = resolveAuthConfig({
      userPoolId: cognito.userPoolId,
      userPoolClientId: cognito.clientId,
      userPoolEndpoint: cognito.endpoint,
      authFlowType: "USER_PASSWORD_AUTH",
      accountApiUrl: `${service.url}/graphql`,
    });
    const payments = { apiUrl: service.url, publishableKey: TEST_PUBLISHABLE_KEY };
    await fixture.run({ publicConfig: { auth, ...(options.payments === false ? {} : { payments }) } });
    const rules = parseHeadersFile(await readFile(join(fixture.config.outDir, "_headers"), "utf8"));
    const server = await startStaticServer({ root: fixture.config.outDir, headers: (path) => headersFor(rules, path) });
    stops.push(() => server.stop());
    return { cognito, service, fixture, server, browser, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}
