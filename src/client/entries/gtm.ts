/**
 * Google Tag Manager, loaded from this first-party file so the pages need no inline script (CSP).
 * Container GTM-55LSDKV5, data layer `dataLayer` (specification section 1). Each page view pushes
 * `gatsby-route-change`, the event the existing container's triggers listen for (the Gatsby plugin
 * pushed it on every route update, 50 ms later so the title had changed). Web-vitals reporting is
 * off: nothing is pushed for it. When the tag manager is blocked, the page carries on silently.
 */
export const GTM_ID = "GTM-55LSDKV5";
export const ROUTE_CHANGE_EVENT = "gatsby-route-change";

type DataLayer = Record<string, unknown>[];
const win = window as Window & { dataLayer?: DataLayer };
const dataLayer = (win.dataLayer = win.dataLayer ?? []);
dataLayer.push({ "gtm.start": Date.now(), event: "gtm.js" });

const script = document.createElement("script");
script.async = true;
script.src = `https://www.googletagmanager.com/gtm.js?id=${GTM_ID}`;
script.addEventListener("error", () => script.remove());
document.head.appendChild(script);

setTimeout(() => dataLayer.push({ event: ROUTE_CHANGE_EVENT }), 50);
