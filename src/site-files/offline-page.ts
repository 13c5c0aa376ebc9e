/**
 * The offline page the service worker shows when a donor opens a page that is not on the device and
 * there is no connection. It is the built 404 page with its title and main content replaced, so it
 * has the site's header, footer, stylesheet and scripts without a template of its own.
 */
export const OFFLINE_URL = "/offline.html";

const MAIN = /<main\b([^>]*)>[\s\S]*<\/main>/;

export function offlinePageFrom(notFoundHtml: string, siteName: string): string {
  if (!MAIN.test(notFoundHtml)) throw new Error("The 404 page has no <main> element to base the offline page on");
  const title = "You are offline";
  const main =
    `<div class="container section narrow"><h1>${title}</h1><div class="prose">` +
    `<p>This page is not saved on this device yet, and there is no internet connection.</p>` +
    `<p>Pages you have opened before still work offline. Check your connection, then reload the page.</p></div>` +
    `<ul><li><a href="/">Go to the home page</a></li><li><a href="/calculate/">Calculate your zakat</a></li></ul></div>`;
  return notFoundHtml
    .replace(/<title>[^<]*<\/title>/, `<title>${title} | ${siteName.replace(/[&<>]/g, "")}</title>`)
    .replace(/(<meta property="og:title" content=")[^"]*(")/, `$1${title}$2`)
    .replace(/<meta property="og:url" content="[^"]*">\n?/, "")
    .replace(MAIN, (_m, attrs: string) => `<main${attrs}>${main}</main>`);
}
