/**
 * Which files of the client bundle only an editor's preview uses: the `preview` entry and the
 * chunks no other island or script imports. The service worker should not precache these (every
 * donor's browser would download the preview code at install, which the loader exists to avoid).
 * Paths are relative to the site folder, as Workbox's `globIgnores` expects.
 */
import type { ClientBundle } from "../render/island-bundle.js";

export const PREVIEW_SCRIPT = "preview";

export function previewOnlyFiles(bundle: Pick<ClientBundle, "islands" | "scripts">): string[] {
  const preview = bundle.scripts[PREVIEW_SCRIPT];
  if (!preview) return [];
  const usedElsewhere = new Set<string>();
  for (const [kind, assets] of [["island", bundle.islands], ["script", bundle.scripts]] as const) {
    for (const [name, asset] of Object.entries(assets)) {
      if (kind === "script" && name === PREVIEW_SCRIPT) continue;
      usedElsewhere.add(asset.src);
      asset.imports.forEach((url) => usedElsewhere.add(url));
    }
  }
  return [preview.src, ...preview.imports]
    .filter((url) => !usedElsewhere.has(url))
    .map((url) => url.replace(/^\//, ""))
    .sort();
}
