/**
 * What makes a rebuild cheap: the record of the last build, with what every page depended on and
 * what it produced, and every file the published site has. A page whose dependencies did not change
 * is kept as published, without a render or a write; the published files the new site lacks are
 * removed (src/publish/publish.ts).
 */
import type { PageFacts } from "../site-files/page-facts.js";
import { identityOf } from "../core/fs.js";
import { readJsonEntry, writeJsonEntry } from "../cache/entry.js";

export interface PageRecord {
  deps: string[];
  /** sha1 of the page's HTML, to skip writing identical output. */
  hash: string;
  /** What the sitemap and CSP need from the page, so carried-over pages are not read back. */
  facts: PageFacts;
}

/** The record of the last build into an output folder (`last-build.json` in the work folder). */
export interface IncrementalRecord {
  version: 2;
  /** Hash of everything every page depends on (templates, scripts, styles, image settings, config). */
  globalKey: string;
  /** Hash of the whole input, for the "nothing changed" check. */
  key: string;
  outDir: string;
  documents: Record<string, string>;
  types: Record<string, string>;
  lists: Record<string, string>;
  pages: Record<string, PageRecord>;
  /** Every file of the published site, relative to it (pages, assets, site files). */
  files: string[];
  /** The preview bundle's hash: no page names it, so the "nothing changed" check asks it separately. */
  preview: string | null;
  /**
   * The published version this record describes (src/publish/versions.ts). A build trusts the record
   * only while that version is the published one: a build killed after its publish and before writing
   * the record, or a version published by hand, make the next build look at the folder instead.
   */
  published: string;
}

/** The record a caller wrote last, with its file's identity (src/pipeline/builder.ts): a rebuild need not parse it again. */
export interface RecordMemory {
  lastWritten: { file: string; identity: string; record: IncrementalRecord } | null;
}

export async function readIncrementalRecord(
  file: string,
  memory: RecordMemory = { lastWritten: null },
): Promise<IncrementalRecord | null> {
  const { lastWritten } = memory;
  if (lastWritten?.file === file && lastWritten.identity === (await identityOf(file))) return lastWritten.record;
  // A cache record (src/cache/entry.ts): a damaged one means a full build, never a wrong "unchanged".
  const record = await readJsonEntry<IncrementalRecord>(file, "last build");
  return record?.version === 2 ? record : null;
}

export async function writeIncrementalRecord(
  file: string,
  record: IncrementalRecord,
  memory: RecordMemory = { lastWritten: null },
): Promise<void> {
  await writeJsonEntry(file, record);
  const identity = await identityOf(file);
  memory.lastWritten = identity === null ? null : { file, identity, record };
}
