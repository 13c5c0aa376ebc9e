/**
 * Turns what the stage made into what templates ask for: `get(url, layout)` → the `srcset` of each
 * format with the layout's candidate widths (see sizes.ts), the fallback `src` (the largest of those
 * widths, in JPEG or PNG) and the inline placeholder.
 */
import type { ImageLayout, ImageLookup, ImageSource } from "./types.js";
import type { Manifest } from "./cache.js";
import { originalUrl } from "./collect.js";
import { candidateWidths, srcset } from "./sizes.js";

export const PUBLIC_PREFIX = "/_images/";

export function imageSourceFor(manifest: Manifest, layout: ImageLayout): ImageSource {
  const types = [...new Set(manifest.outputs.map((o) => o.type))];
  if (types.length === 1) {
    // Passed through as is (SVG, animated GIF): one file, no candidates to choose from.
    const only = manifest.outputs[0]!;
    return {
      src: PUBLIC_PREFIX + only.file,
      width: only.width,
      height: only.height,
      sources: [],
      placeholder: manifest.placeholder,
    };
  }
  const available = new Set(manifest.outputs.map((o) => o.width));
  let widths = candidateWidths(layout, manifest.width).filter((w) => available.has(w));
  // Prepared for another layout: every width there is still makes a correct srcset.
  if (widths.length === 0) widths = [...available];
  const chosen = manifest.outputs.filter((o) => widths.includes(o.width));
  const sources = types.map((type) => ({
    type,
    srcset: srcset(chosen.filter((o) => o.type === type).map((o) => ({ url: PUBLIC_PREFIX + o.file, width: o.width }))),
  }));
  const fallbackType = types[types.length - 1];
  const largest = chosen.filter((o) => o.type === fallbackType).sort((a, b) => b.width - a.width)[0]!;
  return {
    src: PUBLIC_PREFIX + largest.file,
    width: largest.width,
    height: largest.height,
    sources,
    placeholder: manifest.placeholder,
  };
}

export function createImageLookup(manifests: ReadonlyMap<string, Manifest>): ImageLookup {
  const memo = new Map<string, ImageSource | null | undefined>();
  return {
    get(url, layout = "constrained") {
      const original = originalUrl(url);
      const memoKey = `${layout} ${original}`;
      if (memo.has(memoKey)) return memo.get(memoKey);
      const manifest = manifests.get(original);
      const source = manifest?.refused ? null : manifest ? imageSourceFor(manifest, layout) : undefined;
      memo.set(memoKey, source);
      return source;
    },
  };
}
