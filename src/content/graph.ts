/**
 * The content graph: documents indexed by id, type and uid per language, with link resolution.
 * Built once per build from the snapshot; read-only afterwards, and what every template reads.
 */
import type { PrismicDocument } from "@prismicio/client";
import { MASTER_LANG, pathForDocument } from "./routes.js";
import { isSafeUrl } from "./safe-url.js";

export interface LinkLike {
  link_type?: string;
  id?: string;
  type?: string;
  uid?: string | null;
  lang?: string;
  url?: string;
  isBroken?: boolean;
}

export interface ContentGraph {
  readonly documents: readonly PrismicDocument[];
  readonly languages: readonly string[];
  byId(id: string): PrismicDocument | undefined;
  /** The single document of a type in a language (master language when absent). */
  single(type: string, lang?: string): PrismicDocument | undefined;
  /** All documents of a type in a language, in a stable order (newest first by `published` when present, else uid). */
  all(type: string, lang?: string): PrismicDocument[];
  byUid(type: string, uid: string, lang?: string): PrismicDocument | undefined;
  /** The URL a link field points to, or null for an empty or broken link, or one that would run script (src/content/safe-url.ts). */
  resolveLink(link: LinkLike | null | undefined): string | null;
}

/**
 * `data.published` of documents whose data is parsed only when read (src/content/snapshot-on-demand.ts):
 * lists are sorted and signed by it, which must not parse every document of a type.
 */
const publishedHints = new WeakMap<PrismicDocument, { value: unknown }>();

export function hintPublished(doc: PrismicDocument, value: unknown): void {
  publishedHints.set(doc, { value });
}

/** The document's `data.published` as it is (any type, or undefined). */
export function publishedOf(doc: PrismicDocument): unknown {
  const hint = publishedHints.get(doc);
  return hint ? hint.value : (doc.data as Record<string, unknown>).published;
}

function sortKey(doc: PrismicDocument): string {
  const published = publishedOf(doc);
  return typeof published === "string" ? published : "";
}

export function createContentGraph(
  documents: readonly PrismicDocument[],
  languages: readonly string[] = [MASTER_LANG],
): ContentGraph {
  const ids = new Map<string, PrismicDocument>();
  const byTypeLang = new Map<string, PrismicDocument[]>();
  const uids = new Map<string, PrismicDocument>();
  for (const doc of documents) {
    ids.set(doc.id, doc);
    const key = `${doc.type}|${doc.lang}`;
    let list = byTypeLang.get(key);
    if (!list) byTypeLang.set(key, (list = []));
    list.push(doc);
    if (doc.uid) uids.set(`${doc.type}|${doc.lang}|${doc.uid}`, doc);
  }
  for (const list of byTypeLang.values()) {
    list.sort((a, b) => {
      const byDate = sortKey(b).localeCompare(sortKey(a));
      if (byDate !== 0) return byDate;
      return (a.uid ?? a.id).localeCompare(b.uid ?? b.id);
    });
  }

  return {
    documents,
    languages,
    byId: (id) => ids.get(id),
    single: (type, lang = MASTER_LANG) =>
      byTypeLang.get(`${type}|${lang}`)?.[0] ??
      (lang === MASTER_LANG ? undefined : byTypeLang.get(`${type}|${MASTER_LANG}`)?.[0]),
    all: (type, lang = MASTER_LANG) => [...(byTypeLang.get(`${type}|${lang}`) ?? [])],
    byUid: (type, uid, lang = MASTER_LANG) => uids.get(`${type}|${lang}|${uid}`),
    resolveLink(link) {
      if (!link?.link_type || link.link_type === "Any") return null;
      if (link.link_type === "Web" || link.link_type === "Media")
        return link.url && isSafeUrl(link.url) ? link.url : null;
      if (link.link_type === "Document") {
        if (link.isBroken) return null;
        // Prefer the live document (its uid may have changed since the link was saved).
        const target = link.id ? ids.get(link.id) : undefined;
        return pathForDocument(target ?? { type: link.type ?? "", uid: link.uid, lang: link.lang });
      }
      return null;
    },
  };
}
