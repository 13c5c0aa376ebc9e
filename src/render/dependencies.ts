/**
 * The dependency record of incremental builds. While a page renders, its content graph is a
 * tracking view that notes what the page read:
 *
 * - `id:<id>`: the content of one document (its data);
 * - `list:<type>|<lang>`: which documents of a type exist, in which order, under which uids (the
 *   cases page lists all cases; a link to a case needs its uid). Editing the text of one case does
 *   not change this list, so pages that merely list cases re-render only if they show that case's
 *   content;
 * - `type:<type>`: anything about any document of a type (reading the whole graph).
 *
 * On the next build a page renders again only when one of its dependencies changed, or when
 * something every page uses (templates, styles, scripts, configuration) changed.
 */
import { createHash } from "node:crypto";
import { join } from "node:path";
import type { PrismicDocument } from "@prismicio/client";
import { readJsonEntry, writeJsonEntry } from "../cache/entry.js";
import { cacheDebug } from "../cache/debug.js";
import { publishedOf, type ContentGraph } from "../content/graph.js";
import { MASTER_LANG } from "../content/routes.js";

export type Dependency = `id:${string}` | `list:${string}` | `type:${string}`;

const listKey = (type: string, lang = MASTER_LANG): Dependency => `list:${type}|${lang}`;

/**
 * One tracking session per build: every page renders through `graphFor(deps)`, a view of the graph
 * that records what the page reads into `deps`. Documents handed out in lists are read-through
 * proxies, made once per build (not per page: listing pages hand out thousands), that record into
 * whichever page is rendering now. Rendering is synchronous, so "now" is well defined.
 */
export interface TrackingSession {
  graphFor(deps: Set<Dependency>): ContentGraph;
  /**
   * A value computed once per key in this session (one build), with what computing it read: each
   * later page that asks for it records those dependencies as if it had computed it itself.
   */
  memo<T>(key: string, compute: () => T): T;
}

export function createTrackingSession(graph: ContentGraph): TrackingSession {
  let current = new Set<Dependency>();
  const memos = new Map<string, { value: unknown; deps: Set<Dependency> }>();
  const proxies = new Map<string, PrismicDocument>();
  const lists = new Map<Dependency, PrismicDocument[]>();
  const watched = (doc: PrismicDocument): PrismicDocument => {
    let proxy = proxies.get(doc.id);
    if (!proxy) {
      proxy = new Proxy(doc, {
        get(target, key, receiver) {
          if (key === "data" || key === "alternate_languages") current.add(`id:${target.id}`);
          return Reflect.get(target, key, receiver);
        },
      });
      proxies.set(doc.id, proxy);
    }
    return proxy;
  };
  const read = (doc: PrismicDocument | undefined) => {
    if (doc) current.add(`id:${doc.id}`);
    return doc;
  };
  const view: ContentGraph = {
    get documents() {
      for (const doc of graph.documents) current.add(`type:${doc.type}`);
      return graph.documents;
    },
    languages: graph.languages,
    byId: (id) => {
      // A missing document may appear later: depend on its id either way.
      current.add(`id:${id}`);
      return graph.byId(id);
    },
    single: (type, lang) => {
      current.add(listKey(type, lang));
      return read(graph.single(type, lang));
    },
    all: (type, lang) => {
      current.add(listKey(type, lang));
      // The same list of proxies for every page of the build (a copy, so a page may sort its own):
      // every article page asks for all articles, and mapping 1,000 of them for each of 1,000
      // pages cost a worker about a tenth of its rendering time.
      const key = listKey(type, lang);
      let list = lists.get(key);
      if (!list) lists.set(key, (list = graph.all(type, lang).map(watched)));
      return list.slice();
    },
    byUid: (type, uid, lang) => {
      current.add(listKey(type, lang));
      return read(graph.byUid(type, uid, lang));
    },
    resolveLink: (link) => {
      // A link needs the target's path (type, uid, language): the list signature covers those.
      if (link?.link_type === "Document" && link.id) {
        const target = graph.byId(link.id);
        current.add(listKey(target?.type ?? link.type ?? "", target?.lang ?? link.lang));
      }
      return graph.resolveLink(link);
    },
  };
  return {
    graphFor(deps) {
      current = deps;
      return view;
    },
    memo<T>(key: string, compute: () => T): T {
      const known = memos.get(key);
      if (known) {
        for (const dep of known.deps) current.add(dep);
        return known.value as T;
      }
      const outer = current;
      const deps = new Set<Dependency>();
      current = deps;
      let value: T;
      try {
        value = compute();
      } finally {
        current = outer;
      }
      for (const dep of deps) outer.add(dep);
      memos.set(key, { value, deps });
      return value;
    },
  };
}

/** A view of the graph that records what is read through it (a session of one page). */
export function trackingGraph(graph: ContentGraph, deps: Set<Dependency>): ContentGraph {
  return createTrackingSession(graph).graphFor(deps);
}

/** A stable hash per document (its whole JSON), to tell which documents changed between builds. */
/** Each document's hash, remembered for as long as the document object lives (see collectImages). */
const hashByDocument = new WeakMap<PrismicDocument, string>();

export function documentHashes(documents: readonly PrismicDocument[]): Record<string, string> {
  const hashes: Record<string, string> = {};
  for (const doc of documents) {
    let hash = hashByDocument.get(doc);
    if (hash === undefined) {
      hash = createHash("sha1").update(JSON.stringify(doc)).digest("hex").slice(0, 16);
      hashByDocument.set(doc, hash);
    }
    hashes[doc.id] = hash;
  }
  return hashes;
}

/**
 * documentHashes for a snapshot read from a file, kept in the work folder by the file's identity:
 * hashing thousands of documents again costs a new process its main thread's time (JSON.stringify
 * of every document), on the way to the first rendered page. A changed file has a new identity.
 */
export async function snapshotDocumentHashes(
  documents: readonly PrismicDocument[],
  origin: { identity: string } | undefined,
  workDir: string,
): Promise<Record<string, string>> {
  // Without a file, or with every document hashed by this process already (watch, webhook): no I/O.
  if (!origin || documents.every((doc) => hashByDocument.has(doc))) return documentHashes(documents);
  const file = join(workDir, "document-hashes.json");
  const kept = await readJsonEntry<{ identity: string; hashes: Record<string, string> }>(file, "document hashes");
  if (
    kept?.identity === origin.identity &&
    kept.hashes &&
    documents.every((doc) => typeof kept.hashes[doc.id] === "string")
  ) {
    for (const doc of documents) if (!hashByDocument.has(doc)) hashByDocument.set(doc, kept.hashes[doc.id]!);
    return documentHashes(documents);
  }
  const hashes = documentHashes(documents);
  // Kept in the background: the build does not wait for a cache only a later process reads (on a
  // slow disk the write and rename took tens of milliseconds of a webhook rebuild).
  if (kept) cacheDebug?.("document hashes", `miss ${file}: kept for another version of the snapshot`);
  // Not kept (a full disk, say): the next process hashes again.
  const write = writeJsonEntry(file, { identity: origin.identity, hashes }).catch(() => undefined);
  keeping = keeping.then(() => write);
  return hashes;
}
let keeping: Promise<void> = Promise.resolve();

/** Settles when the hashes snapshotDocumentHashes keeps in the background are on disk (a render worker waits for it before it answers a plan: it may not outlive the build). */
export function documentHashesKept(): Promise<void> {
  return keeping;
}

/** Per type and language, a hash of which documents exist, in list order, with their uids and dates. */
export function listSignatures(graph: ContentGraph): Record<string, string> {
  const groups = new Map<string, PrismicDocument>();
  for (const doc of graph.documents) groups.set(`${doc.type}|${doc.lang}`, doc);
  const signatures: Record<string, string> = {};
  for (const [key, doc] of groups) {
    const list = graph
      .all(doc.type, doc.lang)
      .map((d) => [d.id, d.uid, publishedOf(d), d.alternate_languages?.length ?? 0]);
    signatures[`list:${key}`] = createHash("sha1").update(JSON.stringify(list)).digest("hex").slice(0, 16);
  }
  return signatures;
}

export interface ContentState {
  documents: Record<string, string>;
  types: Record<string, string>;
  lists: Record<string, string>;
}

/** The dependencies invalidated by moving from one content state to another. */
export function changedDependencies(before: ContentState, after: ContentState): Set<Dependency> {
  const changed = new Set<Dependency>();
  for (const id of new Set([...Object.keys(before.documents), ...Object.keys(after.documents)])) {
    if (before.documents[id] === after.documents[id]) continue;
    changed.add(`id:${id}`);
    const type = after.types[id] ?? before.types[id];
    if (type) changed.add(`type:${type}`);
  }
  for (const key of new Set([...Object.keys(before.lists), ...Object.keys(after.lists)])) {
    if (before.lists[key] !== after.lists[key]) changed.add(key as Dependency);
  }
  return changed;
}

export function isAffected(deps: readonly string[] | undefined, changed: Set<Dependency>): boolean {
  if (!deps) return true;
  return deps.some((d) => changed.has(d as Dependency));
}
