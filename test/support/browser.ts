/**
 * Real Chromium for browser tests, driven by playwright-core. The browser is the one
 * test/support/chromium-path.ts finds: CHROMIUM_PATH, a system Chromium, or the one installed
 * with the project (@sparticuz/chromium).
 */
import { chromium, type Browser, type BrowserContext, type Page } from "playwright-core";
import { resolveChromium } from "./chromium-path.js";

// The flags keep Chromium from reaching the internet (this machine has none) and run it as root.
const ARGS = [
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
 * A context whose requests outside loopback never leave the machine: the tag manager is answered by
 * a local stand-in (the production loader code still runs), everything else is blocked. Tests that
 * need another third party (Stripe.js) route it themselves; later routes take precedence.
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
 * `unrouted`: no request goes through the test. Requests beyond loopback are sent to a proxy at
 * 127.0.0.1:9, where nothing listens, so they fail in the browser's network stack; the tag manager
 * then fails to load, as behind a blocker. A route, even one that matches nothing, makes Playwright
 * pause every request of the context and ask the test what to do with it: on a sweep of the
 * sample's pages that was 17% of the CPU and 34% of the time of loading them (measured).
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
  const context = await browser.newContext(contextOptions);
  if (withoutServiceWorker) await context.addInitScript(removeServiceWorkers);
  await context.route(/^https?:\/\/(?!127\.0\.0\.1|localhost)/, (route) => route.abort("blockedbyclient"));
  if (!blockTagManager) {
    await context.route("https://www.googletagmanager.com/**", (route) =>
      route.fulfill({ status: 200, contentType: "text/javascript", body: GTM_STAND_IN }),
    );
  }
  return context;
}
