/**
 * The page plan: every page the site publishes, derived from the content graph and the page-type
 * registry (src/content/page-types.ts: each type's route and template, and the static pages). A route collision (two sources for one URL) is an error naming both.
 */
import type { PrismicDocument } from "@prismicio/client";
import { NzfAggregateError, NzfError } from "../core/coded-error.js";
import type { ContentGraph } from "../content/graph.js";
import { REDIRECT_TEMPLATE, templateOfType } from "../content/page-types.js";
import {
  DONATION_TYPES,
  MASTER_LANG,
  REDIRECTS,
  STATIC_PAGES,
  normalizePath,
  outputFileFor,
  pathForDocument,
  thankYouPathFor,
  type StaticPageName,
} from "../content/routes.js";

// The page entry is part of what a template receives, so its type is the template kit's.
export type { Alternate, PageEntry } from "../template-kit/types.js";
import type { Alternate, PageEntry } from "../template-kit/types.js";

function describe(page: PageEntry): string {
  return page.documentId ? `document ${page.documentId} (${page.template})` : `the static page "${page.template}"`;
}

function alternatesOf(doc: PrismicDocument, graph: ContentGraph): Alternate[] {
  const list: Alternate[] = [];
  const own = pathForDocument(doc);
  if (own) list.push({ lang: doc.lang, path: own });
  for (const alt of doc.alternate_languages ?? []) {
    const target = graph.byId(alt.id);
    const path = pathForDocument(target ?? alt);
    if (path) list.push({ lang: alt.lang, path });
  }
  return list.sort((a, b) => a.lang.localeCompare(b.lang));
}

export function planPages(graph: ContentGraph): PageEntry[] {
  const pages: PageEntry[] = [];
  for (const doc of graph.documents) {
    const template = templateOfType(doc.type);
    if (!template) continue;
    const path = pathForDocument(doc);
    if (!path) continue;
    pages.push({
      path,
      file: outputFileFor(path),
      template,
      lang: doc.lang,
      documentId: doc.id,
      indexable: true,
      alternates: alternatesOf(doc, graph),
    });
  }
  for (const [name, spec] of Object.entries(STATIC_PAGES) as [
    StaticPageName,
    (typeof STATIC_PAGES)[StaticPageName],
  ][]) {
    const path = normalizePath(spec.path);
    pages.push({
      path,
      file: outputFileFor(path),
      template: name,
      lang: MASTER_LANG,
      indexable: spec.indexable,
      alternates: [],
    });
  }
  // The thank-you page again in each other language a donation page is in (thankYouPathFor).
  const donationLangs = new Set(
    graph.documents
      .filter((d) => DONATION_TYPES.includes(d.type as never) && d.lang !== MASTER_LANG)
      .map((d) => d.lang),
  );
  for (const lang of [...donationLangs].sort()) {
    const path = thankYouPathFor(lang);
    pages.push({ path, file: outputFileFor(path), template: "thank-you", lang, indexable: false, alternates: [] });
  }
  for (const [from, to] of Object.entries(REDIRECTS)) {
    const path = normalizePath(from);
    pages.push({
      path,
      file: outputFileFor(path),
      template: REDIRECT_TEMPLATE,
      lang: MASTER_LANG,
      indexable: false,
      alternates: [],
      redirectTo: normalizePath(to),
    });
  }

  const seen = new Map<string, PageEntry>();
  const collisions: NzfError[] = [];
  for (const page of pages) {
    const earlier = seen.get(page.file);
    if (earlier) {
      collisions.push(
        new NzfError(
          "ROUTE_COLLISION",
          `${describe(page)} and ${describe(earlier)} would both be published at ${page.path}`,
          {
            subject: page.path,
          },
        ),
      );
      continue;
    }
    seen.set(page.file, page);
  }
  // A landing page whose uid shadows the first segment of another route (e.g. uid "blog") hides that section.
  const sections = new Set(pages.filter((p) => p.template !== "landing").map((p) => p.path.split("/")[1]));
  for (const page of pages) {
    if (page.template !== "landing") continue;
    const segment = page.path.split("/")[1];
    const shadowed = pages.find((p) => p !== page && p.template !== "landing" && p.path.split("/")[1] === segment);
    if (sections.has(segment) && shadowed && !collisions.some((c) => c.subject === page.path)) {
      collisions.push(
        new NzfError(
          "ROUTE_COLLISION",
          `${describe(page)} has uid "${segment}", which is also the start of ${describe(shadowed)} at ${shadowed.path}`,
          {
            subject: page.path,
          },
        ),
      );
    }
  }
  if (collisions.length === 1) throw collisions[0];
  if (collisions.length > 1) throw new NzfAggregateError("route", collisions);

  return pages.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}
