/**
 * The browser tests' site against the real payments service: the sample built with the service's
 * URL as PAYMENTS_API_URL, served on loopback, Chromium at 390×844 with the tag manager stubbed and
 * Stripe.js replaced by the stand-in that confirms through the service's Stripe stand-in.
 * Without `auth`, the site is the run's shared payments build (shared-site.ts), its payments address
 * sent on to the service (payments-route.ts): the same pages, without a build of the file's own.
 * With `sharedAuth` (a file's bridge to the run's cognito-local, cognito-local.ts joinCognitoLocal),
 * the run's shared account build ("account"), its sign-in address sent on to that bridge too.
 */
import type { Browser, BrowserContext } from "playwright-core";
import type { PublicAuthConfig } from "../../src/auth/types.js";
import { startStaticServer, type StaticServer } from "../../src/server/static-server.js";
import { isolatedContext, launchBrowser, proxyOf } from "./browser.js";
import { createFixture, type Fixture } from "./build-fixture.js";
import { BUILT_PAYMENTS_URL, routeOriginTo, routePaymentsTo } from "./payments-route.js";
import { TEST_PUBLISHABLE_KEY, type TestPaymentsService } from "./payments-service.js";
import { sharedSampleSite } from "./shared-site.js";
import { installStripeStandIn } from "./stripe-stand-in.js";

export interface SiteWithService {
  /** The file's own build (with `auth`); absent where the shared build serves. */
  fixture?: Fixture;
  site: StaticServer;
  /** The payments address as the pages call it: where a test routes a failure of its own. */
  apiUrl: string;
  browser: Browser;
  /** 390×844, 15 s per action. */
  context: BrowserContext;
  /** Another context of the file's: the built addresses sent on as in `context` (shared build only). */
  route(context: BrowserContext): Promise<void>;
  stop(): Promise<void>;
}

export async function startSiteWithService(
  service: TestPaymentsService,
  /** `auth`: the site's sign-in and account API (the /account page), as account-*.test.ts build it. */
  options: {
    timezoneId?: string;
    auth?: PublicAuthConfig | null;
    sharedAuth?: { endpoint: string; bridge: string };
  } = {},
): Promise<SiteWithService> {
  let fixture: Fixture | undefined;
  let outDir: string;
  if (options.auth) {
    fixture = await createFixture({ sample: true });
    await fixture.run({
      publicConfig: { auth: options.auth, payments: { apiUrl: service.url, publishableKey: TEST_PUBLISHABLE_KEY } },
    });
    outDir = fixture.config.outDir;
  } else {
    outDir = (await sharedSampleSite(options.sharedAuth ? "account" : "payments-unreachable")).outDir;
  }
  const site = await startStaticServer({ root: outDir });
  const browser = await launchBrowser();
  const context = await isolatedContext(browser, {
    viewport: { width: 390, height: 844 },
    ...(options.timezoneId ? { timezoneId: options.timezoneId } : {}),
  });
  context.setDefaultTimeout(15_000);
  // The tag manager is a third party; an empty script keeps the console clean.
  proxyOf(context).answer("https://www.googletagmanager.com/", () => ({
    headers: { "content-type": "text/javascript" },
    body: "",
  }));
  const route = async (target: BrowserContext) => {
    if (fixture) return;
    await routePaymentsTo(target, service.url);
    if (options.sharedAuth) await routeOriginTo(target, options.sharedAuth.endpoint, options.sharedAuth.bridge);
  };
  await route(context);
  await installStripeStandIn(context, { stripeApiUrl: service.stripe.url });
  return {
    fixture,
    site,
    apiUrl: fixture ? service.url : BUILT_PAYMENTS_URL,
    browser,
    context,
    route,
    async stop() {
      await context.close();
      await browser.close();
      await site.stop();
      await fixture?.cleanup();
    },
  };
}
