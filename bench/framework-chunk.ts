/**
 * Which built file is the shared UI framework chunk. Islands run on Preact in the browser
 * (preact/compat stands in for React, see src/render/island-bundle.ts); the editor-only preview
 * still bundles React. Each is recognised by a string its minified code always contains: React's
 * production error URL, Preact's regex of unitless style properties.
 */
const MARKERS = ["react.dev/errors", "acit|ex(?:s|g|n|p|$)|rph|grid|ows|mnc|ntw|ine[ch]|zoo|^ord|itera"];

export function isFrameworkChunk(code: string): boolean {
  return MARKERS.some((marker) => code.includes(marker));
}
