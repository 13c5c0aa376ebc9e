/**
 * The preview loader: the only preview code a donor's browser runs (a few hundred bytes, inside
 * src/client/entries/page-scripts.ts). It imports the preview bundle (React, the templates, the
 * dialogs) only when the Prismic preview cookie is set or on the resolver page /preview/.
 */
const PREVIEW_COOKIE = /(?:^|;\s*)io\.prismic\.preview=[^;]/;
/**
 * The preview bundle's fixed address (PREVIEW_URL in src/render/island-bundle.ts), imported by URL
 * rather than bundled: the pages' loader then stays the same file when preview code changes.
 */
const PREVIEW_BUNDLE = "/_preview/preview.js";

export function loadPreviewWhenWanted(): void {
  if (!PREVIEW_COOKIE.test(document.cookie) && !/^\/preview\/?$/.test(location.pathname)) return;
  // An editor on a flaky connection: say why nothing happens rather than fail silently.
  import(/* @vite-ignore */ PREVIEW_BUNDLE).catch((error: unknown) => console.error("The preview could not be loaded:", error));
}
