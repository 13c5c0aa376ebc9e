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
  // The robots meta is in the head: searching only there saves scanning every page's whole body.
  const headEnd = html.indexOf("</head>");
  const head = headEnd === -1 ? html : html.slice(0, headEnd);
  return { noindex: /<meta name="robots" content="[^"]*noindex/.test(head), scripts: inline.scripts, styles: inline.styles };
}
