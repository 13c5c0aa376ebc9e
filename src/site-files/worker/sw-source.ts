/**
 * The service worker's source (browser code, bundled by src/site-files/service-worker.ts with esbuild;
 * workbox-build's injectManifest then writes the precache list where this reads `self.__WB_MANIFEST`).
 *
 * - Precached: island bundles, CSS, the offline page, the 404 page, manifest and icons.
 * - Pages: network first with a short timeout, so donors see fresh content when online and the
 *   cached copy of a page they visited when the network is slow or gone; the offline page otherwise.
 * - Images (same origin only: cross-origin opaque responses would take megabytes of quota each):
 *   cache first, bounded by count and age.
 * - skipWaiting + clientsClaim, as gatsby-plugin-offline did: a new build takes over at once; the
 *   registration script flags the page as updated, so the next navigation loads the new build.
 */
import { clientsClaim } from "workbox-core";
import { cleanupOutdatedCaches, matchPrecache, precacheAndRoute } from "workbox-precaching";
import { registerRoute, setCatchHandler } from "workbox-routing";
import { CacheFirst, NetworkFirst } from "workbox-strategies";
import { ExpirationPlugin } from "workbox-expiration";
import { CacheableResponsePlugin } from "workbox-cacheable-response";

interface WorkerScope {
  __WB_MANIFEST: { url: string; revision: string | null }[];
  location: Location;
  skipWaiting(): Promise<void>;
  addEventListener(type: "install", listener: () => void): void;
}
declare const self: WorkerScope;

const PAGE_CACHE = "nzf-pages";
const IMAGE_CACHE = "nzf-images";
const OFFLINE_URL = "/offline.html";

self.addEventListener("install", () => void self.skipWaiting());
clientsClaim();
cleanupOutdatedCaches();
precacheAndRoute(self.__WB_MANIFEST);

// Navigations, and the page's own "cache this page" request (CACHE_URLS messages build plain
// requests, which are never mode "navigate"; the registration script marks them text/html).
const isPage = (request: Request, url: URL) =>
  request.mode === "navigate" ||
  (url.origin === self.location.origin && (request.headers.get("accept") ?? "").startsWith("text/html"));
const isImage = (request: Request, url: URL) =>
  url.origin === self.location.origin && (request.destination === "image" || url.pathname.startsWith("/_images/"));

registerRoute(
  ({ request, url }) => isPage(request, url),
  new NetworkFirst({
    cacheName: PAGE_CACHE,
    networkTimeoutSeconds: 3,
    plugins: [
      new CacheableResponsePlugin({ statuses: [200] }),
      new ExpirationPlugin({ maxEntries: 100, maxAgeSeconds: 30 * 24 * 3600 }),
    ],
  }),
);

registerRoute(
  ({ request, url }) => isImage(request, url),
  new CacheFirst({
    cacheName: IMAGE_CACHE,
    plugins: [
      new CacheableResponsePlugin({ statuses: [200] }),
      new ExpirationPlugin({ maxEntries: 150, maxAgeSeconds: 30 * 24 * 3600, purgeOnQuotaError: true }),
    ],
  }),
);

// Nothing cached and no network: pages get the offline page, everything else a network error.
setCatchHandler(async ({ request }) => {
  if (request.destination === "document") return (await matchPrecache(OFFLINE_URL)) ?? Response.error();
  return Response.error();
});
