/**
 * Stands in for src/auth/amplify.ts in the preview bundle (src/render/island-bundle.ts). The preview
 * renders drafts with the templates, account island included, to HTML only: the island imports the
 * auth library lazily, in an effect, which never runs there (the page's own island bundle hydrates).
 * Leaving aws-amplify out makes the preview about 150 KB smaller and compile about twice as fast.
 */
import type { AuthAdapter } from "../../auth/types.js";

export function createAmplifyAdapter(): AuthAdapter {
  throw new Error("Signing in is not part of a preview: open the published /account/ page.");
}
