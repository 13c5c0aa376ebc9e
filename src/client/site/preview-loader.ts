/**
 * The preview loader: the only preview code a donor's browser runs (a few hundred bytes, inside
 * src/client/entries/page-scripts.ts). It imports the preview bundle (React, the templates, the
 * dialogs) only when the Prismic preview cookie is set or on the resolver page /preview/.
 */
import { PREVIEW_COOKIE_NAME, readCookie } from "../../preview/cookies.js";

/**
 * The preview bundle's fixed address (PREVIEW_URL in src/bundle/island-bundle.ts), imported by URL
 * rather than bundled: the pages' loader then stays the same file when preview code changes.
 */
const PREVIEW_BUNDLE = "/_preview/preview.js";

/** The browser's asynchronous cookie API: Chromium and Safari, on HTTPS and localhost. */
type CookieReader = { get(name: string): Promise<{ value?: string } | null> };

/**
 * Whether the Prismic preview cookie is set. Reading `document.cookie` stops the page until the
 * browser answers: the first read on a page was one long task on every page in Lighthouse's mobile
 * trace of /pay/zakat/. `cookieStore` asks without stopping
 * the page; browsers without it (Firefox, plain-HTTP hosts) read `document.cookie` as before.
 */
export async function hasPreviewCookie(
  store: CookieReader | null = (globalThis as { cookieStore?: CookieReader }).cookieStore ?? null,
): Promise<boolean> {
  if (store) {
    try {
      return Boolean((await store.get(PREVIEW_COOKIE_NAME))?.value);
    } catch {
      // A cookieStore that refuses (an opaque origin): fall back to the synchronous read below.
    }
  }
  return Boolean(readCookie(document.cookie, PREVIEW_COOKIE_NAME));
}

function loadPreview(): void {
  // An editor on a flaky connection: say why nothing happens rather than fail silently.
  import(/* @vite-ignore */ PREVIEW_BUNDLE).catch((error: unknown) =>
    console.error("The preview could not be loaded:", error),
  );
}

export function loadPreviewWhenWanted(): void {
  if (/^\/preview\/?$/.test(location.pathname)) return loadPreview();
  hasPreviewCookie().then(
    (wanted) => wanted && loadPreview(),
    (error: unknown) => console.error("Could not tell whether a preview is open; reload to try again.", error),
  );
}
