/**
 * Stands in for src/auth/amplify.ts wherever islands are only rendered to HTML: the templates
 * bundle that renders pages on the build machine, and the preview bundle that renders drafts in
 * the editor's browser (src/bundle/template-bundle.ts, island-bundle.ts). The account island
 * imports the auth library lazily, in an effect, which never runs there; the page's own island
 * bundle, with the real library, hydrates it in the browser.
 *
 * Why: importing aws-amplify loads hundreds of modules, which every render worker of a CLI build
 * paid before its first page; and it is a large part of the preview bundle.
 */
import type { AuthAdapter } from "./types.js";

export function createAmplifyAdapter(): AuthAdapter {
  throw new Error(
    "The auth library is not loaded where pages are only rendered to HTML (the build, the preview): open the published /account/ page to sign in.",
  );
}
