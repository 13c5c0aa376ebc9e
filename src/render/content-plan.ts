/**
 * Everything the build's own thread needs from the content besides rendering: the pages, the images
 * they use, the dependency state of incremental builds, and the few fields the site files read.
 *
 * It is small and plain, so a render worker that has parsed the snapshot anyway can work it out and
 * hand it over (src/render/render-service.ts, RenderService.plan). A new process building many pages then
 * parses the 16 MB snapshot of a large repository twice (once per worker) instead of three times,
 * and the parse that competed with the workers' on a 2-core machine is gone from the build's thread.
 */
import type { PrismicDocument } from "@prismicio/client";
import type { Snapshot } from "../content/snapshot.js";
import { checkSiteContent } from "../content/snapshot-check.js";
import { contentPriceErrors } from "../content/price-check.js";
import type { NzfError } from "../core/errors.js";
import type { ContentGraph } from "../content/graph.js";
import { collectImages, type ImageUse } from "../images/collect.js";
import { planPages, type PageEntry } from "./pages.js";
import { checkDocuments, type ContentProblem } from "../content/content-checks.js";
import { listSignatures, snapshotDocumentHashes, type ContentState } from "./dependencies.js";

/** What the site files (sitemap, manifest) read from the content. */
export interface SiteContent {
  /** The master-language global document's data. */
  global?: Record<string, unknown>;
  /** Each page document's last publication date, by document id. */
  lastPublished: Record<string, string>;
}

export interface ContentPlan {
  /** The snapshot's Prismic repository: images come from its path of the image CDN (src/images/source-policy.ts). */
  repository?: string;
  ref: string;
  documentCount: number;
  pages: PageEntry[];
  images: ImageUse[];
  state: ContentState;
  site: SiteContent;
  /** What the build reports about the content without stopping: missing titles and uids, unsafe URLs. */
  problems: ContentProblem[];
}

/** What the plan needs from each document whole: its price disagreements, images and problems. */
export interface DocumentFacts {
  priceErrors: NzfError[];
  images: ImageUse[];
  problems: ContentProblem[];
}

/**
 * Collects DocumentFacts one document at a time, in snapshot order: a snapshot read on demand
 * (src/content/snapshot-on-demand.ts) hands each document whole to `visit` while it indexes the
 * file, so the plan needs no second parse of every document.
 */
export function documentFactsCollector(): { facts: DocumentFacts; visit: (document: PrismicDocument) => void } {
  const facts: DocumentFacts = { priceErrors: [], images: [], problems: [] };
  return {
    facts,
    visit(doc) {
      const one = [doc];
      facts.priceErrors.push(...contentPriceErrors(one));
      facts.images.push(...collectImages(one));
      facts.problems.push(...checkDocuments(one));
    },
  };
}

/**
 * Plans the build of a snapshot. `origin` is the file it was read from (its document hashes are
 * kept in the work folder by the file's identity). `facts`: collected already while the snapshot
 * was read (documentFactsCollector); without them they are collected from `snapshot.documents`.
 */
export async function planContent(
  snapshot: Snapshot,
  graph: ContentGraph,
  origin: { identity: string } | undefined,
  workDir: string,
  facts?: DocumentFacts,
): Promise<ContentPlan> {
  // No site is planned from content without its singletons: the last good dist/ stays instead.
  checkSiteContent(snapshot, `the snapshot of "${snapshot.repository}" at ref ${snapshot.ref}`);
  let known = facts;
  if (!known) {
    const collector = documentFactsCollector();
    for (const doc of snapshot.documents) collector.visit(doc);
    known = collector.facts;
  }
  const { priceErrors, images } = known;
  // Nor one whose donation pages show prices the payments API refuses: those stop the build with
  // the run's other content problems, so one bad price does not hide the rest (src/pipeline/build.ts).
  const problems: ContentProblem[] = [
    ...known.problems,
    ...priceErrors.map((error) => ({
      code: "CONTENT_PRICE_INVALID" as const,
      documentId: error.subject ?? "",
      type: "",
      field: "",
      message: error.message,
    })),
  ];
  const pages = planPages(graph);
  const lastPublished: Record<string, string> = {};
  for (const page of pages) {
    const date = page.documentId ? graph.byId(page.documentId)?.last_publication_date : undefined;
    if (date) lastPublished[page.documentId!] = date;
  }
  return {
    repository: snapshot.repository,
    ref: snapshot.ref,
    documentCount: snapshot.documents.length,
    pages,
    images,
    state: {
      documents: await snapshotDocumentHashes(snapshot.documents, origin, workDir),
      types: Object.fromEntries(snapshot.documents.map((d) => [d.id, d.type])),
      lists: listSignatures(graph),
    },
    site: { global: graph.single("global")?.data as Record<string, unknown> | undefined, lastPublished },
    problems,
  };
}
