/**
 * A large snapshot read for a render worker without holding its parse or its text: the file stays
 * open (the operating system caches it; an atomic replacement leaves this file as it was), each
 * document keeps its small top-level fields (id, type, uid, lang, dates, alternate languages) and
 * the small fields of its `data`, and a large `data` field is read and parsed from its line when
 * something reads it, with the last few hundred documents' data kept. One parse of a 20,000-document snapshot is several hundred
 * MB of objects that V8 then grows its heap around; this keeps the heap to the documents in use.
 *
 * It reads the layout snapshotText writes (one document a line). Any other layout, or anything it
 * cannot parse, gives null: the caller reads the file with readSnapshot, which reports what is wrong.
 * A large field's getter sits where the field was, so JSON.stringify and key order are unchanged.
 */
import { closeSync, openSync, readSync } from "node:fs";
import type { PrismicDocument } from "@prismicio/client";
import { isDocument, type Snapshot } from "./snapshot.js";
import { hintPublished } from "./graph.js";

const NEWLINE = 10;
const TRAILING_COMMA = /,$/;
/** Bytes read at a time while the lines are found. */
const CHUNK = 1024 * 1024;
/** Parsed `data` objects kept: a page reads its own document and a few others many pages share. */
const KEPT = 512;

/**
 * Each on-demand snapshot's open file, closed once nothing can read from it: the registered object
 * is the one every document's `data` getter reads through, so a document that outlives its
 * snapshot still reads its own file, never a descriptor number reused for another.
 */
const openFiles = new FinalizationRegistry<number>((fd) => closeSync(fd));

/** Closes `fd` once `handle`, which everything reading the file reads through, is collected. */
export function closeWhenUnreachable(handle: { fd: number }, fd: number): void {
  openFiles.register(handle, fd);
}

/**
 * The snapshot in `file` read on demand, or null for another layout. `visit` sees every document
 * whole once, in snapshot order, while the file is indexed (the plan's checks: content-plan.ts);
 * after a null it may have seen some.
 */
export async function readSnapshotOnDemand(
  file: string,
  visit: (document: PrismicDocument) => void = () => undefined,
): Promise<Snapshot | null> {
  const fd = openSync(file, "r");
  try {
    const handle = { fd };
    const snapshot = indexSnapshot(handle, visit);
    if (snapshot) closeWhenUnreachable(handle, fd);
    else closeSync(fd);
    return snapshot;
  } catch (error) {
    closeSync(fd);
    throw error;
  }
}

/** The byte range of every line of the file after the first, and the first line itself. */
export function linesOf(fd: number): { first: string; starts: number[]; ends: number[] } | null {
  const starts: number[] = [];
  const ends: number[] = [];
  const chunk = Buffer.allocUnsafe(CHUNK);
  let first: string | null = null;
  let head = Buffer.alloc(0);
  // `lineStart` is the file offset of the line in progress; `at` the file offset read up to.
  let lineStart = 0;
  let at = 0;
  for (;;) {
    const read = readSync(fd, chunk, 0, CHUNK, at);
    if (read === 0) break;
    let from = 0;
    for (;;) {
      const newline = chunk.indexOf(NEWLINE, from);
      if (newline < 0 || newline >= read) break;
      const lineEnd = at + newline;
      if (first === null) {
        first = Buffer.concat([head, chunk.subarray(0, newline)]).toString("utf8");
        head = Buffer.alloc(0);
      } else if (lineEnd > lineStart) {
        starts.push(lineStart);
        ends.push(lineEnd);
      }
      lineStart = lineEnd + 1;
      from = newline + 1;
    }
    if (first === null) head = Buffer.concat([head, chunk.subarray(0, read)]);
    at += read;
  }
  if (first === null || lineStart !== at) return null;
  return { first, starts, ends };
}

function indexSnapshot(handle: { fd: number }, visit: (document: PrismicDocument) => void): Snapshot | null {
  const lines = linesOf(handle.fd);
  if (!lines || !lines.first.endsWith('"documents":[')) return null;
  let head: Snapshot;
  try {
    head = JSON.parse(`${lines.first}]}`) as Snapshot;
  } catch {
    return null;
  }
  if (head?.format !== 1 || typeof head.ref !== "string" || !Array.isArray(head.languages)) return null;
  const { starts, ends } = lines;
  // The last line closes the document list.
  const last = starts.length - 1;
  if (last < 0) return null;
  const reader = lineReader(handle, starts, ends);
  if (reader.textOf(last) !== "]}") return null;
  const { parse, dataOf } = reader;

  const documents: PrismicDocument[] = [];
  for (let i = 0; i < last; i++) {
    let doc: PrismicDocument;
    try {
      doc = parse(i);
    } catch {
      return null;
    }
    if (!isDocument(doc)) return null;
    visit(doc);
    hintPublished(doc, (doc.data as { published?: unknown }).published);
    const data = lightData(doc.data as Record<string, unknown>, (key) => dataOf(i)[key]);
    Object.defineProperty(doc, "data", { value: data, enumerable: true, configurable: true, writable: true });
    documents.push(doc);
  }
  return { ...head, documents };
}

/**
 * Reads and parses a document's line of the file on demand (the layout snapshotText writes), with
 * the `data` of the last KEPT documents read kept.
 */
export function lineReader(handle: { fd: number }, starts: number[], ends: number[]) {
  let buffer = Buffer.allocUnsafe(64 * 1024);
  const textOf = (i: number): string => {
    const length = ends[i]! - starts[i]!;
    if (buffer.length < length) buffer = Buffer.allocUnsafe(length * 2);
    const read = readSync(handle.fd, buffer, 0, length, starts[i]!);
    return buffer.toString("utf8", 0, read);
  };
  const parse = (i: number): PrismicDocument => JSON.parse(textOf(i).replace(TRAILING_COMMA, ""));
  const kept = new Map<number, unknown>();
  const dataOf = (i: number): Record<string, unknown> => {
    let data = kept.get(i);
    if (data !== undefined) {
      // Most recently read last, so the oldest is the first to go.
      kept.delete(i);
    } else {
      data = parse(i).data;
      if (kept.size >= KEPT) kept.delete(kept.keys().next().value as number);
    }
    kept.set(i, data);
    return data as Record<string, unknown>;
  };
  return { textOf, parse, dataOf };
}

/**
 * A document's `data` with its small fields kept (a title, a summary, an image, a date: what a
 * listing's card reads) and each large one (a body, the slices) read from the file when a page reads
 * it. A page listing every case then parses none of them; the case's own page parses its body.
 * Keys keep their order, so JSON.stringify gives the document's JSON.
 */
function lightData(data: Record<string, unknown>, large: (key: string) => unknown): Record<string, unknown> {
  const light: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(data)) {
    if (weightWithin(value, SMALL_FIELD)) light[key] = value;
    else Object.defineProperty(light, key, { get: () => large(key), enumerable: true, configurable: true });
  }
  return light;
}

/** A field is small up to this many values and string bytes / 64 (a rich text title, an image with its views). */
export const SMALL_FIELD = 48;

/** Whether `value` weighs at most `budget`: each value counts one, each 64 characters of a string one more. */
export function weightWithin(value: unknown, budget: number): boolean {
  let left = budget;
  const stack: unknown[] = [value];
  while (stack.length) {
    const next = stack.pop();
    left -= typeof next === "string" ? 1 + (next.length >> 6) : 1;
    if (left < 0) return false;
    if (typeof next === "object" && next !== null) for (const child of Object.values(next)) stack.push(child);
  }
  return true;
}
