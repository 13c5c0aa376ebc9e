/**
 * Real Chromium for browser tests, driven by playwright-core. The browser is the one
 * test/support/chromium-path.ts finds: CHROMIUM_PATH, a system Chromium, or the one installed
 * with the project (@sparticuz/chromium).
 */
import { chromium, type Browser, type BrowserContext, type Page } from "playwright-core";
import { type BrowserProxy, startBrowserProxy } from "./browser-proxy.js";
import { resolveChromium } from "./chromium-path.js";

// The flags keep Chromium from reaching the internet (this machine has none) and run it as root.
// Port 9 is the address the shared builds give a service that each test file's proxy answers
// (shared-site.ts, payments-route.ts): Chromium refuses it as a "discard" port unless allowed.
const ARGS = [
  "--explicitly-allowed-ports=9",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--disable-dev-shm-usage",
];

export async function launchBrowser(): Promise<Browser> {
  const executablePath = await resolveChromium();
  try {
    return await chromium.launch({ executablePath, args: ARGS, headless: true });
  } catch (error) {
    throw new Error(
      `Could not start Chromium (${executablePath}). Set CHROMIUM_PATH to a working Chromium or run \`npm ci\` ` +
        `to reinstall the bundled one. Cause: ${(error as Error).message}`,
    );
  }
}

export interface PageProblems {
  consoleErrors: string[];
  pageErrors: string[];
  failedRequests: string[];
}

/** Records console errors, uncaught exceptions and failed requests of a page. */
export function watchProblems(page: Page): PageProblems {
  const problems: PageProblems = { consoleErrors: [], pageErrors: [], failedRequests: [] };
  page.on("console", (msg) => {
    if (msg.type() === "error") problems.consoleErrors.push(`${page.url()}: ${msg.text()}`);
  });
  page.on("pageerror", (error) => problems.pageErrors.push(`${page.url()}: ${error.message}`));
  // A script fetched on demand and cancelled because the page moved on (net::ERR_ABORTED after a
  // navigation) is the browser's doing, not a failure the donor sees; any other failure counts.
  // Navigations are counted, not compared by address: going to the same page again (the account
  // page after giving) cancels the old page's requests too. A navigation counts from its start (the
  // main frame's document request), not from `framenavigated`: Chromium cancels the old page's
  // requests when the new page commits, and reports that cancellation BEFORE `framenavigated` (100
  // of 100 times for a request still loading; test/support/watch-problems.test.ts), whereas the
  // document request is always reported before the old page is left. `framenavigated` still counts,
  // for a navigation with no request of its own.
  let navigations = 0;
  page.on("framenavigated", (frame) => {
    if (frame === page.mainFrame()) navigations++;
  });
  const navigationWhenAsked = new WeakMap<object, number>();
  page.on("request", (req) => {
    navigationWhenAsked.set(req, navigations);
    if (req.isNavigationRequest() && req.frame() === page.mainFrame()) navigations++;
  });
  page.on("requestfailed", (req) => {
    const reason = req.failure()?.errorText;
    if (reason === "net::ERR_ABORTED" && navigationWhenAsked.get(req) !== navigations) return;
    problems.failedRequests.push(`${req.url()}: ${reason}`);
  });
  page.on("response", (res) => {
    if (res.status() >= 400 && !res.url().endsWith("/favicon.ico"))
      problems.failedRequests.push(`${res.url()}: HTTP ${res.status()}`);
  });
  return problems;
}

/** Stands in for the tag manager's gtm.js: records that it ran, as the real container would load. */
export const GTM_STAND_IN = `window.__gtmStandIn = document.currentScript && document.currentScript.src; (window.dataLayer = window.dataLayer || []).push({ event: "gtm.standIn" });`;

/** As on a page that is not a secure context: no `navigator.serviceWorker`. */
function removeServiceWorkers(): void {
  delete (Navigator.prototype as { serviceWorker?: unknown }).serviceWorker;
}

/**
 * A context whose requests outside loopback never leave the machine: they go through the context's
 * own loopback proxy (browser-proxy.ts; `proxyOf(context)`), where the tag manager is answered by a
 * local stand-in (the production loader code still runs) and everything else beyond loopback fails
 * at the network. Tests that need another third party (Stripe.js, PayPal's SDK) or a built address
 * sent on to a service of their own answer it there (`proxyOf(context).answer`/`.forward`); later
 * answers take precedence. No Playwright route: a route, even one that matches nothing, makes
 * Playwright pause every request of the context for the test to decide and switches the context's
 * HTTP cache off, so each page load fetched and compiled React, Amplify and axe-core again.
 *
 * `withoutServiceWorker`: the pages run as in a browser that has no service workers
 * (no `navigator.serviceWorker`, as on a page that is not a secure context), so the
 * site's registration steps aside as it does there (src/client/site/service-worker-registration.ts).
 * For sweeps that judge each page on its own (its markup, accessibility, layout shift): a worker
 * in the context precaches the site's scripts and then fetches each page and its images again into
 * its cache, work none of those checks reads (11% of html-checkers' CPU, 20% of donor-details',
 * measured). Journeys across pages keep the worker, as donors have it; pwa.test.ts tests it.
 * (Playwright's `serviceWorkers: "block"` is not that browser: its register() answers nothing,
 * and the site's registration then reports an error.)
 *
 * `unrouted`: no proxy of the test's either. Requests beyond loopback are sent to a proxy at
 * 127.0.0.1:9, where nothing listens, so they fail in the browser's network stack; the tag manager
 * then fails to load, as behind a blocker. Loopback goes straight to the site, through no Node code:
 * for sweeps that need no stand-in.
 */
export async function isolatedContext(
  browser: Browser,
  options: Parameters<Browser["newContext"]>[0] & {
    blockTagManager?: boolean;
    withoutServiceWorker?: boolean;
    unrouted?: boolean;
  } = {},
): Promise<BrowserContext> {
  const { blockTagManager, withoutServiceWorker, unrouted, ...contextOptions } = options;
  if (unrouted) {
    const context = await browser.newContext({
      ...contextOptions,
      proxy: { server: "http://127.0.0.1:9", bypass: "127.0.0.1,localhost" },
    });
    if (withoutServiceWorker) await context.addInitScript(removeServiceWorkers);
    return context;
  }
  const proxy = await startBrowserProxy();
  // No bypass: loopback goes through the proxy too (Playwright then adds Chromium's `<-loopback>`),
  // so the built payments address on loopback reaches it. The stand-ins' TLS is the proxy's own.
  const context = await browser
    .newContext({ ...contextOptions, ignoreHTTPSErrors: true, proxy: { server: proxy.url } })
    .catch(async (error: unknown) => {
      await proxy.stop();
      throw error;
    });
  proxies.set(context, proxy);
  context.on("close", () => void proxy.stop());
  if (withoutServiceWorker) await context.addInitScript(removeServiceWorkers);
  if (!blockTagManager) {
    proxy.answer("https://www.googletagmanager.com/", () => ({
      headers: { "content-type": "text/javascript" },
      body: GTM_STAND_IN,
    }));
  }
  return context;
}

const proxies = new WeakMap<BrowserContext, BrowserProxy>();

const ownOriginScripts = new WeakMap<BrowserProxy, Set<string>>();

/**
 * Adds a test's script (a checker such as axe-core) to the page by address on the page's own
 * origin, answered by the context's proxy with a long cache lifetime: the site's CSP allows its own
 * origin, and the context's HTTP cache and V8's code cache keep the script for every later page,
 * where putting the source in sent it over the DevTools protocol and compiled it again each time.
 * False, and nothing added, when the context has no proxy (`unrouted`) or the page no web origin.
 */
export async function addScriptFromPageOrigin(
  page: Page,
  path: string,
  source: () => Promise<string>,
): Promise<boolean> {
  const proxy = proxies.get(page.context());
  const origin = new URL(page.url()).origin;
  if (!proxy || !/^https?:/.test(origin)) return false;
  const answered = ownOriginScripts.get(proxy) ?? new Set<string>();
  ownOriginScripts.set(proxy, answered);
  if (!answered.has(origin + path)) {
    const body = await source();
    proxy.answer(origin + path, () => ({
      headers: { "content-type": "text/javascript", "cache-control": "max-age=86400, immutable" },
      body,
    }));
    answered.add(origin + path);
  }
  await page.addScriptTag({ url: origin + path });
  return true;
}

/** The proxy of a context made by isolatedContext (not `unrouted`). */
export function proxyOf(context: BrowserContext): BrowserProxy {
  const proxy = proxies.get(context);
  if (!proxy) throw new Error("this context has no proxy of the tests' (made by isolatedContext, not unrouted?)");
  return proxy;
}
