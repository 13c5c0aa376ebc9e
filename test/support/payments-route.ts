/**
 * The shared sample site (shared-site.ts, "payments-unreachable") against a real payments service:
 * the site was built once for the whole run with an address nothing listens on, and each test file
 * starts its own service on its own port. The page's requests to the built address are sent on to
 * the file's service, headers and body as the page sent them, and the service's answer (status,
 * headers, body) is handed back to the page, so the browser still applies its CSP (to the built
 * address) and CORS (to the service's own headers) as it would without the detour. Saves each such
 * file a build of its own.
 *
 * Preflights are not the service's in any browser test: once a context routes anything (every
 * isolatedContext does), Playwright answers CORS preflights itself.
 */
import type { BrowserContext, Page } from "playwright-core";
import { SHARED_SITE_VARIANTS } from "./shared-site.js";

/** The payments address the shared site was built with. */
export const BUILT_PAYMENTS_URL = SHARED_SITE_VARIANTS["payments-unreachable"].payments.apiUrl;

/**
 * Sends the page's requests to BUILT_PAYMENTS_URL on to `serviceUrl`. `onRequest` sees each one as
 * it is sent on (a test that jumps the page's clock waits for the request it is timing).
 */
export function routePaymentsTo(
  target: BrowserContext | Page,
  serviceUrl: string,
  onRequest: (method: string, path: string) => void = () => {},
): Promise<void> {
  return routeOriginTo(target, BUILT_PAYMENTS_URL, serviceUrl, onRequest);
}

/**
 * Sends the page's requests to the origin `built` on to `to`, as above (the shared account build
 * also names the run's cognito-local, which each file reaches through its own bridge).
 */
export async function routeOriginTo(
  target: BrowserContext | Page,
  built: string,
  to: string,
  onRequest: (method: string, path: string) => void = () => {},
): Promise<void> {
  await target.route(
    (url) => url.origin === built,
    async (route) => {
      const request = route.request();
      const path = request.url().slice(built.length);
      onRequest(request.method(), path);
      try {
        // One retry on a reset connection, as a browser retries a request whose reused keep-alive
        // connection the server closed before answering. The detour's own connections (Playwright's
        // keep-alive agent) do not: the service (Node's server) closes one idle for about 6 s, and a
        // request sent on just then failed with ECONNRESET, so the page saw the payments service
        // unreachable (the donation tests' first Continue after the 5 s timeout test, issue 42).
        // Safe for writes: the service has not read the request, and every write is keyed.
        const response = await route.fetch({ url: to + path, maxRedirects: 0, maxRetries: 1 });
        await route.fulfill({ response });
      } catch {
        // The page gave up on the request meanwhile (its own time limit, a navigation): the
        // service has had it all the same, and there is nobody left to answer.
        await route.abort("connectionreset").catch(() => {});
      }
    },
  );
}
