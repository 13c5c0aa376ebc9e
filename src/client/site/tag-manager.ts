/**
 * Google Tag Manager, started from the site's own script so the pages need no inline script (CSP).
 * Container GTM-55LSDKV5, data layer `dataLayer`: the foundation's existing container, set up for
 * the Gatsby site. Each page view pushes
 * `gatsby-route-change`, the event the existing container's triggers listen for (the Gatsby plugin
 * pushed it on every route update, 50 ms later so the title had changed). Web-vitals reporting is
 * off: nothing is pushed for it. When the tag manager is blocked, the page carries on silently.
 * Called by src/client/entries/page-scripts.ts once the page has loaded and painted.
 */
export const GTM_ID = "GTM-55LSDKV5";
export const ROUTE_CHANGE_EVENT = "gatsby-route-change";

type DataLayer = Record<string, unknown>[];

function loadTagManager(): void {
  const script = document.createElement("script");
  script.async = true;
  script.src = `https://www.googletagmanager.com/gtm.js?id=${GTM_ID}`;
  script.addEventListener("error", () => script.remove());
  document.head.appendChild(script);
}

export function startTagManager(): void {
  const win = window as Window & { dataLayer?: DataLayer };
  // A queue the tag manager reads when it starts: nothing pushed before then is lost.
  const dataLayer = (win.dataLayer = win.dataLayer ?? []);
  dataLayer.push({ "gtm.start": Date.now(), event: "gtm.js" });
  // The container's script comes after the load event: a connection to another origin and its
  // download competed with the page's largest image (a later LCP in Lighthouse's mobile runs of the
  // home page).
  if (document.readyState === "complete") loadTagManager();
  else window.addEventListener("load", () => setTimeout(loadTagManager, 0), { once: true });
  setTimeout(() => dataLayer.push({ event: ROUTE_CHANGE_EVENT }), 50);
}
