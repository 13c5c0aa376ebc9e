/**
 * The dependency record of incremental builds. While a page renders, its content graph is a
 * tracking view that notes every document it reads (`id:<id>`) and every listing it reads
 * (`type:<type>`, e.g. the cases page lists all cases). On the next build, a page renders again only
 * when one of those changed, or when something every page uses (templates, styles, scripts,
 * configuration) changed.
 */
import { createHash } from "node:crypto";
import type { PrismicDocument } from "@prismicio/client";
import type { ContentGraph } from "../content/graph.js";

export type Dependency = `id:${string}` | `type:${string}`;

/** A view of the graph that records what is read through it. */
export function trackingGraph(graph: ContentGraph, deps: Set<Dependency>): ContentGraph {
  const note = (doc: PrismicDocument | undefined) => {
    if (doc) deps.add(`id:${doc.id}`);
    return doc;
  };
  return {
    get documents() {
      // Reading everything depends on everything: any type change re-renders this page.
      for (const doc of graph.documents) deps.add(`type:${doc.type}`);
      return graph.documents;
    },
    languages: graph.languages,
    byId: (id) => {
      const doc = graph.byId(id);
      // A missing document may appear later: depend on its id either way.
      deps.add(`id:${id}`);
      return doc;
    },
    single: (type, lang) => {
      deps.add(`type:${type}`);
      return note(graph.single(type, lang));
    },
    all: (type, lang) => {
      deps.add(`type:${type}`);
      return graph.all(type, lang);
    },
    byUid: (type, uid, lang) => {
      deps.add(`type:${type}`);
      return note(graph.byUid(type, uid, lang));
    },
    resolveLink: (link) => {
      if (link?.link_type === "Document" && link.id) deps.add(`id:${link.id}`);
      return graph.resolveLink(link);
    },
  };
}

/** A stable hash per document (its whole JSON), to tell which documents changed between builds. */
export function documentHashes(documents: readonly PrismicDocument[]): Record<string, string> {
  const hashes: Record<string, string> = {};
  for (const doc of documents) hashes[doc.id] = createHash("sha1").update(JSON.stringify(doc)).digest("hex").slice(0, 16);
  return hashes;
}

/** The dependencies invalidated by moving from one set of document hashes to another. */
export function changedDependencies(
  before: Record<string, string>,
  after: Record<string, string>,
  typeOf: (id: string) => string | undefined,
  previousTypes: Record<string, string>,
): Set<Dependency> {
  const changed = new Set<Dependency>();
  for (const id of new Set([...Object.keys(before), ...Object.keys(after)])) {
    if (before[id] === after[id]) continue;
    changed.add(`id:${id}`);
    const type = typeOf(id) ?? previousTypes[id];
    if (type) changed.add(`type:${type}`);
  }
  return changed;
}

export function isAffected(deps: readonly string[] | undefined, changed: Set<Dependency>): boolean {
  if (!deps) return true;
  return deps.some((d) => changed.has(d as Dependency));
}
