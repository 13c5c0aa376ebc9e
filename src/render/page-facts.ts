/**
 * What the site files need from a page's HTML (src/render/site-files.ts): worked out while the page
 * is rendered and kept in the build record, so no build reads the whole site back. Small on purpose:
 * the render workers bundle it (src/render/render-worker.ts).
 */
import { inlineHashes } from "../pwa/csp.js";

/** What the site files need to know about one page's HTML. */
export interface PageFacts {
  noindex: boolean;
  /** sha256 sources of its inline scripts and styles (for the CSP). */
  scripts: string[];
  styles: string[];
}

export function pageFactsOf(html: string): PageFacts {
  const inline = inlineHashes([html]);
  return { noindex: /<meta name="robots" content="[^"]*noindex/.test(html), scripts: inline.scripts, styles: inline.styles };
}
