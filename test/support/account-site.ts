/**
 * The account pages against the real payments service, as account-*.test.ts use them: cognito-local
 * (cognito-local.ts), the payments service serving the account API at its /graphql from the pool's
 * settings (as deployed), the sample built with both, served on loopback with its own `_headers`
 * (so its CSP is enforced), and Chromium. By default each file gets its own pool, service and
 * build: the pool's ids and addresses are baked into the pages.
 *
 * With `shared`, the file instead signs in on the run's shared account build (shared-site.ts,
 * "account"), made once against the run's one cognito-local (global-setup.ts): the file joins that
 * pool through a bridge of its own (cognito-local.ts joinCognitoLocal) and makes its own users,
 * with e-mails no other file uses. The built cognito and payments addresses are routed in each of
 * the file's browser contexts to its bridge and service (`route`), so the pages call them as built
 * and the browser applies the CSP to the built addresses. No build of the file's own.
 */
import type { Browser, BrowserContext } from "playwright-core";
import { resolveAuthConfig } from "../../src/auth/config.js";
import { startPreviewServer } from "../../src/server/preview-server.js";
import type { StaticServer } from "../../src/server/static-server.js";
import { launchBrowser } from "./browser.js";
import { createFixture, type Fixture } from "./build-fixture.js";
import { type CognitoLocal, joinCognitoLocal, runCognito, startCognitoLocal } from "./cognito-local.js";
import { BUILT_PAYMENTS_URL, routeOriginTo, routePaymentsTo } from "./payments-route.js";
import { sharedSampleSite } from "./shared-site.js";
import { startTestPaymentsService, TEST_PUBLISHABLE_KEY, type TestPaymentsService } from "./payments-service.js";

export interface AccountSite {
  cognito: CognitoLocal;
  service: TestPaymentsService;
  /** The file's own build; absent on the shared build. */
  fixture?: Fixture;
  /** The built site's folder (the file's own or the shared one): read it, never write to it. */
  outDir: string;
  /** The payments and account API address as the pages call it (where a test routes a failure of its own). */
  apiUrl: string;
  /** On the shared build, sends a context's requests to the built addresses on to this file's bridge and service. */
  route(context: BrowserContext): Promise<void>;
  /** The built site, with its `_headers`. */
  server: StaticServer;
  browser: Browser;
  stop(): Promise<void>;
}

export async function startAccountSite(
  options: {
    /** Whether the pages give through the service too (the pay pages' PAYMENTS_API_URL); default yes. */
    payments?: boolean;
    /** The run's shared account build and cognito-local (see the file comment); own ones when the run has none. */
    shared?: boolean;
  } = {},
): Promise<AccountSite> {
  const run = options.shared ? runCognito() : null;
  if (run) {
    if (options.payments === false) throw new Error("the shared account build gives through the service");
    return startOnSharedBuild(run);
  }
  const { stops, stop } = stopList();
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
    const service = await startServiceFor(cognito);
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
    const server = await serveWithItsHeaders(fixture.config.outDir);
    stops.push(() => server.stop());
    const outDir = fixture.config.outDir;
    return { cognito, service, fixture, outDir, server, browser, stop, apiUrl: service.url, route: async () => {} };
  } catch (error) {
    await stop();
    throw error;
  }
}

async function startOnSharedBuild(run: NonNullable<ReturnType<typeof runCognito>>): Promise<AccountSite> {
  const { stops, stop } = stopList();
  const begun = await Promise.allSettled([joinCognitoLocal(run), sharedSampleSite("account"), launchBrowser()]);
  const [pool, built, chromium] = begun;
  if (pool.status === "fulfilled") stops.push(() => pool.value.stop());
  if (chromium.status === "fulfilled") stops.push(() => chromium.value.close());
  try {
    if (pool.status === "rejected") throw pool.reason;
    if (built.status === "rejected") throw built.reason;
    if (chromium.status === "rejected") throw chromium.reason;
    const [cognito, site, browser] = [pool.value, built.value, chromium.value];
    // Against the run's address (the tokens' issuer), as built.
    const service = await startServiceFor(cognito);
    stops.push(() => service.stop());
    const server = await serveWithItsHeaders(site.outDir);
    stops.push(() => server.stop());
    return {
      cognito,
      service,
      outDir: site.outDir,
      server,
      browser,
      stop,
      apiUrl: BUILT_PAYMENTS_URL,
      async route(context) {
        await routePaymentsTo(context, service.url);
        await routeOriginTo(context, cognito.endpoint, cognito.bridge);
      },
    };
  } catch (error) {
    await stop();
    throw error;
  }
}

/** Parts stopped last to first, by stop() or when a later part fails to start (nobody else holds them yet). */
function stopList() {
  const stops: (() => Promise<unknown>)[] = [];
  const stop = async () => {
    for (const one of [...stops].reverse()) await one();
  };
  return { stops, stop };
}

/** The payments service as deployed: the account API at its /graphql, checking tokens against this pool. */
function startServiceFor(cognito: CognitoLocal): Promise<TestPaymentsService> {
  return startTestPaymentsService({
    env: {
      NZF_COGNITO_USER_POOL_ID: cognito.userPoolId,
      NZF_COGNITO_CLIENT_ID: cognito.clientId,
      NZF_COGNITO_ENDPOINT: cognito.endpoint,
    },
  });
}

/**
 * The built site on loopback as `nzf-build preview` serves it (S3 behind CloudFront): its own
 * `_headers` applied, so the browser enforces its CSP.
 */
function serveWithItsHeaders(outDir: string): Promise<StaticServer> {
  return startPreviewServer({ root: outDir, host: "127.0.0.1", port: 0 });
}
