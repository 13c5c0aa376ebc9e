/**
 * Which URLs from the CMS may reach a page. A link whose address runs script (`javascript:`,
 * `vbscript:`) or carries a document of its own (`data:`) is dropped at build time: left in the
 * HTML, React would replace it with a `javascript:throw …` URL of its own and the page would still
 * ship a script URL. Images may be `data:image/…`, which an <img> never runs.
 *
 * Pure: the templates (also bundled for the browser preview) and the content checks both use it.
 */

export type UrlUse = "link" | "image";

const SCRIPT_SCHEMES = new Set(["javascript", "vbscript"]);

/**
 * The scheme a browser would see: it strips leading C0 controls and spaces, and removes tabs and
 * line breaks anywhere, so `" java\tscript:"` is a javascript: URL.
 */
export function urlScheme(url: string): string | null {
  const clean = url.replace(/^[\u0000-\u0020]+/, "").replace(/[\t\n\r]/g, "");
  const match = /^([a-z][a-z0-9+.-]*):/i.exec(clean);
  return match ? match[1]!.toLowerCase() : null;
}

/** Why the URL must not be published, or null when it may be. */
export function unsafeUrlReason(url: string, use: UrlUse): string | null {
  // Nearly every URL: no need to look further (this runs for every link and image of every document).
  if (url.startsWith("https://") || url.startsWith("http://") || url.startsWith("/")) return null;
  const scheme = urlScheme(url);
  if (scheme === null) return null;
  if (SCRIPT_SCHEMES.has(scheme)) return `a ${scheme}: URL`;
  if (scheme === "data") {
    if (use === "image" && /^data:image\//i.test(url.replace(/^[\u0000-\u0020]+/, "").replace(/[\t\n\r]/g, "")))
      return null;
    return use === "image" ? "a data: URL that is not an image" : "a data: URL";
  }
  return null;
}

export function isSafeUrl(url: unknown, use: UrlUse = "link"): url is string {
  return typeof url === "string" && unsafeUrlReason(url, use) === null;
}
