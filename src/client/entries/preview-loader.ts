/**
 * The preview loader: the only preview code a donor's browser downloads (a few hundred bytes).
 * It imports the preview bundle (React, the templates, the dialogs) only when the Prismic preview
 * cookie is set or on the resolver page /preview/. Deliberately imports nothing at the top level,
 * so esbuild gives it no shared chunk to fetch.
 */
const PREVIEW_COOKIE = /(?:^|;\s*)io\.prismic\.preview=[^;]/;
/**
 * The preview bundle's fixed address (PREVIEW_URL in src/render/island-bundle.ts), imported by URL
 * rather than bundled: this loader then stays the same file when a template changes.
 */
const PREVIEW_BUNDLE = "/_preview/preview.js";

if (PREVIEW_COOKIE.test(document.cookie) || /^\/preview\/?$/.test(location.pathname)) {
  // An editor on a flaky connection: say why nothing happens rather than fail silently.
  import(/* @vite-ignore */ PREVIEW_BUNDLE).catch((error: unknown) => console.error("The preview could not be loaded:", error));
}
