/**
 * The shared sample site (shared-site.ts, "payments-unreachable") against a real payments service:
 * the site was built once for the whole run with an address nothing listens on, and each test file
 * starts its own service on its own port. The page's requests to the built address are sent on to
 * the file's service, headers and body as the page sent them, and the service's answer (status,
 * headers, body) is handed back to the page, so the browser still applies its CSP (to the built
 * address) and CORS (to the service's own headers) as it would without the detour. Saves each such
 * file a build of its own.
 *
 * The page's CORS preflights reach the service too, which answers them as deployed.
 */
import type { BrowserContext } from "playwright-core";
import { proxyOf } from "./browser.js";
import { SHARED_SITE_VARIANTS } from "./shared-site.js";

/** The payments address the shared site was built with. */
export const BUILT_PAYMENTS_URL = SHARED_SITE_VARIANTS["payments-unreachable"].payments.apiUrl;

/**
 * Sends the page's requests to BUILT_PAYMENTS_URL on to `serviceUrl`. `onRequest` sees each one as
 * it is sent on (a test that jumps the page's clock waits for the request it is timing).
 */
export function routePaymentsTo(
  target: BrowserContext,
  serviceUrl: string,
  onRequest: (method: string, path: string) => void = () => {},
): Promise<void> {
  return routeOriginTo(target, BUILT_PAYMENTS_URL, serviceUrl, onRequest);
}

/**
 * Sends the page's requests to the origin `built` on to `to`, as above (the shared account build
 * also names the run's cognito-local, which each file reaches through its own bridge). Through the
 * context's proxy (browser-proxy.ts), on a connection of its own per request, so no reused
 * keep-alive connection closed by the service meets a request (the ECONNRESET the donation tests'
 * first Continue after the 5 s timeout test once met, issue 42).
 */
export async function routeOriginTo(
  target: BrowserContext,
  built: string,
  to: string,
  onRequest: (method: string, path: string) => void = () => {},
): Promise<void> {
  proxyOf(target).forward(built, to, onRequest);
}
