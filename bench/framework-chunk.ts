/**
 * Which built file is the shared UI framework chunk: React and react-dom, which every island
 * imports (src/client/hydrate.ts) and esbuild's code splitting puts in one chunk. Recognised by
 * strings React's production build always contains: its error URL (react.dev/errors, from both
 * react and react-dom) and the property react-dom keeps its fiber on (__reactFiber$). The chunks it
 * imports (esbuild's CommonJS interop helpers, which React's CommonJS build needs) count as React's
 * too: the budgets measure what an island adds on top of the framework (bench/donation.ts,
 * bench/calculator.ts).
 */
const MARKERS = ["react.dev/errors", "__reactFiber$"];

/** True when the code carries any of React (react or react-dom). */
export function isReactCode(code: string): boolean {
  return MARKERS.some((marker) => code.includes(marker));
}

/** True for the framework chunk: react-dom's client, the part of React an island page cannot do without. */
export function isFrameworkChunk(code: string): boolean {
  return code.includes("__reactFiber$");
}
