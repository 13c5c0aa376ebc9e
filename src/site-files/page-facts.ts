/**
 * What the site files need from a page's HTML (src/pipeline/site-files-stage.ts): worked out while the page
 * is rendered and kept in the build record, so no build reads the whole site back. Small on purpose:
 * the render workers bundle it (src/render/worker/render-worker.ts).
 */
import { inlineHashes } from "./csp.js";

/** What the site files need to know about one page's HTML. */
export interface PageFacts {
  noindex: boolean;
  /** sha256 sources of its inline scripts and styles (for the CSP). */
  scripts: string[];
  styles: string[];
}

/** Inline script and style hashes of a part of a page (a page's body is measured once and reused). */
export type InlineFacts = Omit<PageFacts, "noindex">;

export function inlineFactsOf(html: string): InlineFacts {
  return inlineHashes([html]);
}

/**
 * The facts of a page made of a frame around a body whose facts are known. No inline script or
 * style crosses the seam (the body is a whole element subtree), so the union is the page's.
 */
export function framedPageFactsOf(before: string, body: InlineFacts, after: string): PageFacts {
  const frame = inlineHashes([before, after]);
  const union = (a: string[], b: string[]) => [...new Set([...a, ...b])].sort();
  return {
    noindex: noindexIn(before),
    scripts: union(frame.scripts, body.scripts),
    styles: union(frame.styles, body.styles),
  };
}

function noindexIn(html: string): boolean {
  // The robots meta is in the head: searching only there saves scanning every page's whole body.
  const headEnd = html.indexOf("</head>");
  const head = headEnd === -1 ? html : html.slice(0, headEnd);
  return /<meta name="robots" content="[^"]*noindex/.test(head);
}

export function pageFactsOf(html: string): PageFacts {
  const inline = inlineHashes([html]);
  return { noindex: noindexIn(html), scripts: inline.scripts, styles: inline.styles };
}
