/**
 * Registers /sw.js (the offline page and cached assets), the way gatsby-plugin-offline did. Called by
 * src/client/entries/page-scripts.ts once the page has loaded and painted:
 * - only over HTTPS or on localhost; otherwise logs that service workers need HTTPS;
 * - after the load event, so installing the worker never delays the page itself;
 * - when an update installs while an older worker controls the page, the page is flagged as updated
 *   (`window.__nzfSwUpdated`, `<html data-sw-updated>`), so the next navigation loads the new build;
 *   and if resources of this page had failed to load (an old bundle gone after a deploy), it reloads;
 * - once a worker is active, it asks it to cache this page and its images, so the page a donor
 *   first landed on also opens offline.
 */
interface NzfWindow extends Window {
  __nzfSwUpdated?: boolean;
  __nzfFailedResources?: boolean;
}
const win = window as NzfWindow;
const LOCAL_HOSTS = ["localhost", "127.0.0.1", "[::1]"];
const RELOAD_KEY = "nzf-sw-reloaded";

// Our own bundles and stylesheet: a failure there means this page is from an older build.
const isOwnAsset = (url: string) => {
  try {
    const u = new URL(url, location.href);
    return u.origin === location.origin && /^\/(_islands|_assets)\//.test(u.pathname);
  } catch {
    return false;
  }
};

function onResourceError(event: Event): void {
  const target = event.target as (HTMLScriptElement & HTMLLinkElement) | null;
  const url = target && (target.src || target.href);
  if (url && isOwnAsset(url)) win.__nzfFailedResources = true;
}

function failedEarlier(): boolean {
  // Failures before the listener was added show in resource timing (responseStatus: Chromium 109+).
  return performance
    .getEntriesByType("resource")
    .some(
      (e) =>
        isOwnAsset(e.name) &&
        ((e as PerformanceResourceTiming & { responseStatus?: number }).responseStatus ?? 200) >= 400,
    );
}

function cacheThisPage(worker: ServiceWorker | null): void {
  // The processed images the page loaded: those of its <img> elements, and the main image, which
  // the document head preloads (a resource of initiator "link" that the <img> then takes as it is,
  // so it had no "img" entry and the home page's hero was missing offline).
  const candidates = [
    ...performance.getEntriesByType("resource").map((e) => e.name),
    ...[...document.images].map((img) => img.currentSrc),
  ];
  const images = [...new Set(candidates)].filter((url) => {
    const u = new URL(url || "about:blank", location.href);
    return u.origin === location.origin && u.pathname.startsWith("/_images/");
  });
  // Handled by Workbox's router (the same routes as real requests); text/html marks the page.
  worker?.postMessage({
    type: "CACHE_URLS",
    payload: { urlsToCache: [[location.href, { headers: { accept: "text/html" } }], ...images] },
  });
}

/** At most one reload per page and tab, so a still-broken deploy cannot loop. */
function reloadedAlready(): boolean {
  try {
    if (sessionStorage.getItem(RELOAD_KEY) === location.href) return true;
    sessionStorage.setItem(RELOAD_KEY, location.href);
  } catch {
    // Storage blocked: reload once anyway; the new worker serves the new bundles.
  }
  return false;
}

function onInstalled(): void {
  // An older worker controls the page: this is an update, not the first install.
  if (!navigator.serviceWorker.controller) return;
  win.__nzfSwUpdated = true;
  document.documentElement.dataset.swUpdated = "true";
  if ((win.__nzfFailedResources || failedEarlier()) && !reloadedAlready()) location.reload();
}

function watchInstalling(worker: ServiceWorker | null): void {
  if (!worker) return;
  const check = () => {
    if (worker.state === "installed") onInstalled();
    else if (worker.state === "redundant") console.error("The installing service worker became redundant.");
  };
  worker.addEventListener("statechange", check);
  // register() may have started the update before this script could listen for it.
  if (worker.state === "installed") check();
}

function register(): void {
  navigator.serviceWorker
    .register("/sw.js")
    .then((registration) => {
      registration.addEventListener("updatefound", () => watchInstalling(registration.installing));
      watchInstalling(registration.installing);
      document.documentElement.dataset.sw = "registered";
      return navigator.serviceWorker.ready;
    })
    .then((registration) => cacheThisPage(registration.active))
    .catch((error: unknown) => console.error("Error during service worker registration:", error));
}

export function registerServiceWorker(): void {
  if (location.protocol !== "https:" && !LOCAL_HOSTS.includes(location.hostname)) {
    console.error("Service workers can only be used over HTTPS, or on localhost for development");
    return;
  }
  if (!navigator.serviceWorker) return;
  window.addEventListener("error", onResourceError, true);
  // After the load event (as gatsby-plugin-offline did): a first install starts the worker and
  // precaches the site's scripts and styles, which would otherwise compete with the page's own
  // first paint and largest image (Lighthouse counted it against LCP and total blocking time).
  if (document.readyState === "complete") register();
  else window.addEventListener("load", () => setTimeout(register, 0), { once: true });
}
