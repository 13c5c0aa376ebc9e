/**
 * Renders one page through a tracking view of the content graph: its HTML, everything it read from
 * the content (its dependencies), and what the site files need from it. The same function runs in
 * the build's own thread and in the render workers (src/render/worker/render-worker.ts).
 *
 * A page is its template's body inside a frame (layout and document head). Both are tracked
 * separately, so a body rendered earlier can be framed again without rendering it (see
 * src/render/body-cache.ts): after a layout edit, no page body renders.
 */
import { createHash } from "node:crypto";
import type { ContentGraph } from "../content/graph.js";
import type { PageEntry } from "./pages.js";
import type { TemplateModule } from "../bundle/template-bundle.js";
import type { ImageLookup, PageBody, PageMeta, SiteAssets, SiteSettings } from "../template-kit/types.js";
import { createTrackingSession, type Dependency } from "./dependencies.js";
import { NzfError } from "../core/errors.js";
import { errorText, templateLocationOf, type SourceLocation } from "./template-errors.js";
import { framedPageFactsOf, inlineFactsOf, type InlineFacts, type PageFacts } from "../site-files/page-facts.js";

/** A rendered body with what it read and its inline hashes: everything needed to frame it again. */
export interface RenderedBody extends PageBody {
  deps: string[];
  facts: InlineFacts;
}

export interface PageRender {
  /** The page's HTML is before + body.html + after (kept in parts so the body is not copied). */
  before: string;
  after: string;
  body: RenderedBody;
  /** sha1 of the HTML, to skip writing a page identical to the published one. */
  hash: string;
  /** Everything the page read from the content graph, sorted. */
  deps: string[];
  islands: string[];
  meta: PageMeta;
  facts: PageFacts;
}

/** What the build keeps of a page a render worker wrote to disk itself: everything but the HTML. */
export type PageSummary = Omit<PageRender, "before" | "after" | "body">;

export const htmlOf = (render: PageRender): string => render.before + render.body.html + render.after;

export interface PageRenderer {
  /** Renders the page; with `body`, only the frame around that earlier rendered body. */
  render(page: PageEntry, body?: RenderedBody): PageRender;
}

export interface PageRendererInput {
  module: TemplateModule;
  graph: ContentGraph;
  images: ImageLookup;
  site: SiteSettings;
  assets: SiteAssets;
}

export function createPageRenderer(input: PageRendererInput): PageRenderer {
  const tracking = createTrackingSession(input.graph);
  // The frame (layout, head) is rendered once per layout variant and reused by every page that has it.
  const { memo } = tracking;
  const inputFor = (page: PageEntry, deps: Set<Dependency>) => ({
    page,
    graph: tracking.graphFor(deps),
    images: input.images,
    site: input.site,
    assets: input.assets,
    memo,
  });
  return {
    render(page, earlier) {
      let body = earlier;
      if (!body) {
        const deps = new Set<Dependency>();
        const rendered = input.module.renderBody(inputFor(page, deps));
        body = { ...rendered, deps: [...deps].sort(), facts: inlineFactsOf(rendered.html) };
      }
      const frameDeps = new Set<Dependency>();
      const frame = input.module.renderFrame(inputFor(page, frameDeps), body);
      const hash = createHash("sha1").update(frame.before).update(body.html).update(frame.after).digest("hex");
      const deps = [...new Set<string>([...body.deps, ...frameDeps])].sort();
      return {
        before: frame.before,
        after: frame.after,
        body,
        hash,
        deps,
        islands: frame.islands,
        meta: body.meta,
        facts: framedPageFactsOf(frame.before, body.facts, frame.after),
      };
    },
  };
}

/** A page that failed to render: what the template threw, and where in the templates (when the stack says). */
export interface RenderFailure {
  message: string;
  at?: SourceLocation;
}

export function renderFailureOf(error: unknown): RenderFailure {
  const at = templateLocationOf(error);
  return at ? { message: errorText(error), at } : { message: errorText(error) };
}

/** The build error for a page that failed to render: the template file and line, the document and the output page. */
export function renderError(page: PageEntry, failure: RenderFailure, cause?: unknown): NzfError {
  const about = page.documentId ? `document ${page.documentId} (${page.template})` : `the "${page.template}" page`;
  const where = failure.at
    ? `${failure.at.file}:${failure.at.line}:${failure.at.column}`
    : `The "${page.template}" template`;
  const hint = failure.at
    ? `Fix ${failure.at.file} line ${failure.at.line}: the template must render this document as it is (empty or unexpected fields included). The document itself is not at fault.`
    : undefined;
  // With the template's line known, the message says all the error did: its bundle stack would only repeat it.
  return new NzfError("RENDER_FAILED", `${where} threw while rendering ${about} for ${page.path}: ${failure.message}`, {
    subject: page.file,
    cause: failure.at ? undefined : cause,
    hint,
    ...(failure.at ? { location: failure.at } : {}),
  });
}
