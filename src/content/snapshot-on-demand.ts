/**
 * A large snapshot read for a render worker without holding its parse: the file stays one Buffer
 * (outside the JavaScript heap), each document keeps its small top-level fields (id, type, uid,
 * lang, dates, alternate languages), and its `data` is parsed from its line when something reads
 * it, with the last few hundred kept. One parse of a 20,000-document snapshot is several hundred
 * MB of objects that V8 then grows its heap around; this keeps the heap to the documents in use.
 *
 * It reads the layout snapshotText writes (one document a line). Any other layout, or anything it
 * cannot parse, gives null: the caller reads the file with readSnapshot, which reports what is wrong.
 * A document's `data` getter sits where `data` was, so JSON.stringify and key order are unchanged.
 */
import { readFile } from "node:fs/promises";
import type { PrismicDocument } from "@prismicio/client";
import type { Snapshot } from "./snapshot.js";
import { hintPublished } from "./graph.js";

export interface OnDemandSnapshot extends Snapshot {
  /** Calls `visit` with every document whole (parsed afresh, not kept), in snapshot order. */
  eachWhole(visit: (document: PrismicDocument) => void): void;
}

const NEWLINE = 10;
const COMMA = 44;
/** Parsed `data` objects kept: a page reads its own document and a few others many pages share. */
const KEPT = 512;

export async function readSnapshotOnDemand(file: string): Promise<OnDemandSnapshot | null> {
  const bytes = await readFile(file);
  const firstEnd = bytes.indexOf(NEWLINE);
  if (firstEnd < 0) return null;
  const first = bytes.toString("utf8", 0, firstEnd);
  if (!first.endsWith('"documents":[')) return null;
  let head: Snapshot;
  try {
    head = JSON.parse(`${first}]}`) as Snapshot;
  } catch {
    return null;
  }
  if (head?.format !== 1 || typeof head.ref !== "string" || !Array.isArray(head.languages)) return null;

  const starts: number[] = [];
  const ends: number[] = [];
  let at = firstEnd + 1;
  let closed = false;
  while (at < bytes.length) {
    let end = bytes.indexOf(NEWLINE, at);
    if (end < 0) end = bytes.length;
    const line = bytes.toString("latin1", at, Math.min(end, at + 2));
    if (line === "]}") {
      closed = bytes.length - end <= 1;
      break;
    }
    if (end > at) {
      const last = bytes[end - 1] === COMMA ? end - 1 : end;
      starts.push(at);
      ends.push(last);
    }
    at = end + 1;
  }
  if (!closed) return null;

  const parse = (i: number): PrismicDocument => JSON.parse(bytes.toString("utf8", starts[i], ends[i]));
  const kept = new Map<number, unknown>();
  const dataOf = (i: number): unknown => {
    let data = kept.get(i);
    if (data !== undefined) {
      // Most recently read last, so the oldest is the first to go.
      kept.delete(i);
    } else {
      data = parse(i).data;
      if (kept.size >= KEPT) kept.delete(kept.keys().next().value as number);
    }
    kept.set(i, data);
    return data;
  };

  const documents: PrismicDocument[] = [];
  for (let i = 0; i < starts.length; i++) {
    let doc: PrismicDocument;
    try {
      doc = parse(i);
    } catch {
      return null;
    }
    if (!isDocument(doc)) return null;
    hintPublished(doc, (doc.data as { published?: unknown }).published);
    Object.defineProperty(doc, "data", { get: () => dataOf(i), enumerable: true, configurable: true });
    documents.push(doc);
  }
  return {
    ...head,
    documents,
    eachWhole(visit) {
      for (let i = 0; i < starts.length; i++) visit(parse(i));
    },
  };
}

function isDocument(value: unknown): value is PrismicDocument {
  if (typeof value !== "object" || value === null) return false;
  const d = value as Record<string, unknown>;
  return (
    typeof d.id === "string" &&
    typeof d.type === "string" &&
    typeof d.lang === "string" &&
    typeof d.data === "object" &&
    d.data !== null
  );
}
