/**
 * An index of a content snapshot, kept in the work folder for the file's identity, so that the
 * render threads of a later process need not parse the whole file before their first page. It holds
 * each document with the small fields of its `data` (what the plan, the graph and a listing's cards
 * read) and where the document's line is in the file. A large field (a body, the slices) is parsed
 * from that line when a page reads it, as src/content/snapshot-on-demand.ts reads a snapshot too
 * large to parse whole: each render thread then parses the bodies of the pages it renders, and the
 * two threads together parse the file about once instead of twice. Bodies are nine tenths of the
 * 2,000-document bench's 11 MB; its index is about 1 MB.
 *
 * The index is made from a whole parse (the first build of a snapshot) and only for the layout
 * snapshotText writes (one document a line). It is trusted only for a file of the identity it was
 * made from, checked on the open file itself, so a snapshot replaced meanwhile is never read
 * through another's index; anything else about it that is wrong makes it a miss (a whole parse).
 *
 * Beside it, what a worker found from the whole snapshot: the documents' facts (their images and
 * problems: src/render/content-plan.ts) and the build's plan, kept for the snapshot's identity and
 * the compiled render worker that found them (its file name changes with any of its sources, the
 * content checks and the page plan among them). With the index, finding the facts again would parse
 * every body; with the plan kept, a render thread answers the build's first question as soon as it
 * has started, before it reads any content.
 */
import { closeSync, fstatSync, openSync } from "node:fs";
import type { PrismicDocument } from "@prismicio/client";
import type { Snapshot } from "../content/snapshot.js";
import { hintPublished } from "../content/graph.js";
import { closeWhenUnreachable, lineReader, linesOf, SMALL_FIELD, weightWithin } from "../content/snapshot-on-demand.js";
import { encodeEntry, readJsonEntrySync } from "../cache/entry.js";
import { identityOfStats, writeFileAtomicSync } from "../core/fs.js";
import type { DocumentFacts } from "./content-plan.js";

interface SnapshotIndex {
  format: typeof FORMAT;
  identity: string;
  head: Omit<Snapshot, "documents">;
  /** Each document, its large `data` fields null (their keys stay where they were, for key order). */
  documents: PrismicDocument[];
  /** The keys of each document's large fields (0: none). */
  large: (string[] | 0)[];
  /** Where each document's line starts and ends in the file (bytes). */
  starts: number[];
  ends: number[];
}

const FORMAT = 1;

const identityOfFd = (fd: number): string => identityOfStats(fstatSync(fd));

/**
 * Writes the index of `snapshot`, a whole parse of `file` with this `identity`, to `indexFile`.
 * Nothing is written for another layout or a file that is no longer that version.
 */
export function keepSnapshotIndex(indexFile: string, file: string, identity: string, snapshot: Snapshot): void {
  const fd = openSync(file, "r");
  let lines: ReturnType<typeof linesOf>;
  try {
    if (identityOfFd(fd) !== identity) return;
    lines = linesOf(fd);
  } finally {
    closeSync(fd);
  }
  // One line a document and the line closing the list.
  if (!lines?.first.endsWith('"documents":[') || lines.starts.length !== snapshot.documents.length + 1) return;
  const { documents: all, ...head } = snapshot;
  const documents: PrismicDocument[] = [];
  const large: SnapshotIndex["large"] = [];
  for (const doc of all) {
    const light: Record<string, unknown> = {};
    const keys: string[] = [];
    // A snapshot read on demand has its large fields as getters already: not read (parsed) here.
    for (const [key, field] of Object.entries(Object.getOwnPropertyDescriptors(doc.data))) {
      if (!field.enumerable) continue;
      const small = !field.get && weightWithin(field.value, SMALL_FIELD);
      light[key] = small ? field.value : null;
      if (!small) keys.push(key);
    }
    documents.push({ ...doc, data: light });
    large.push(keys.length ? keys : 0);
  }
  const index: SnapshotIndex = {
    format: FORMAT,
    identity,
    head,
    documents,
    large,
    starts: lines.starts.slice(0, -1),
    ends: lines.ends.slice(0, -1),
  };
  writeFileAtomicSync(indexFile, encodeEntry(JSON.stringify(index)));
}

/**
 * The snapshot in `file` read through its index, its large fields parsed when read; null when
 * there is no index of this version of the file.
 */
export function readIndexedSnapshot(indexFile: string, file: string, identity: string): Snapshot | null {
  const index = readJsonEntrySync<SnapshotIndex>(indexFile, "snapshot index");
  if (index?.format !== FORMAT || index.identity !== identity) return null;
  const { documents, large, starts, ends } = index;
  if (documents.length !== large.length || documents.length !== starts.length || starts.length !== ends.length)
    return null;
  let fd: number;
  try {
    fd = openSync(file, "r");
  } catch {
    return null;
  }
  if (identityOfFd(fd) !== identity) {
    closeSync(fd);
    return null;
  }
  const handle = { fd };
  closeWhenUnreachable(handle, fd);
  const { dataOf } = lineReader(handle, starts, ends);
  documents.forEach((doc, i) => {
    const data = doc.data as Record<string, unknown>;
    for (const key of large[i] || [])
      Object.defineProperty(data, key, { get: () => dataOf(i)[key], enumerable: true, configurable: true });
    hintPublished(doc, data.published);
  });
  return { ...index.head, documents } as Snapshot;
}

interface Found<T> {
  identity: string;
  finder: string;
  value: T;
}

/**
 * Keeps what `finder` (a compiled render worker, by file name) found from the snapshot with this
 * identity: its documents' facts, the build's plan. Pure functions of the two, so a later process
 * with the same pair uses them instead of reading every document again.
 */
export function keepFound(file: string, identity: string, finder: string, value: unknown): void {
  writeFileAtomicSync(file, encodeEntry(JSON.stringify({ identity, finder, value } satisfies Found<unknown>)));
}

/** What keepFound kept for this snapshot and finder, or null. */
export function keptFound<T>(file: string, identity: string, finder: string): T | null {
  const kept = readJsonEntrySync<Found<T>>(file, "found from the snapshot");
  return kept?.identity === identity && kept.finder === finder && kept.value ? kept.value : null;
}

/** Keeps the documents' facts, unless a price stops the build (those are errors, found again). */
export function keepDocumentFacts(file: string, identity: string, finder: string, facts: DocumentFacts): void {
  if (facts.priceErrors.length) return;
  keepFound(file, identity, finder, { images: facts.images, problems: facts.problems });
}

/** The documents' facts kept for this snapshot and finder, or null. */
export function keptDocumentFacts(file: string, identity: string, finder: string): DocumentFacts | null {
  const kept = keptFound<Omit<DocumentFacts, "priceErrors">>(file, identity, finder);
  if (!Array.isArray(kept?.images) || !Array.isArray(kept.problems)) return null;
  return { priceErrors: [], images: kept.images, problems: kept.problems };
}
