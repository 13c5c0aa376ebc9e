/**
 * The content snapshot: every published document of a repository at one master ref, as the Prismic
 * v2 API returned them. Written atomically (temp file + rename) so a crash or a failed fetch never
 * leaves a half-written snapshot; the last good one stays until a complete new one replaces it.
 *
 * Layout: `content-cache/<repository>/snapshot.json`. The bundled sample lives in
 * `content-cache/sample/` (committed, with its images in `content-cache/sample/images/`).
 */
import { mkdir, readFile } from "node:fs/promises";
import { identityOf, writeFileAtomic } from "../core/fs.js";
import { dirname, join } from "node:path";
import type { PrismicDocument } from "@prismicio/client";
import { NzfError } from "../core/errors.js";

export interface Snapshot {
  /** Snapshot format version; bump when the shape changes. */
  format: 1;
  repository: string;
  /** The master ref the documents were read at. */
  ref: string;
  /** Languages in the repository, master first. */
  languages: string[];
  documents: PrismicDocument[];
}

export const SNAPSHOT_FILE = "snapshot.json";
export const SAMPLE_SNAPSHOT_NAME = "sample";

export function snapshotPath(cacheDir: string, name: string): string {
  return join(cacheDir, name, SNAPSHOT_FILE);
}

export async function readSnapshot(file: string): Promise<Snapshot> {
  let text: string;
  try {
    text = await readFile(file, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") {
      throw new NzfError("SNAPSHOT_MISSING", `No content snapshot at ${file}`, { subject: file, cause: error });
    }
    throw error;
  }
  let parsed: Snapshot;
  try {
    parsed = JSON.parse(text) as Snapshot;
  } catch (error) {
    throw new NzfError("SNAPSHOT_CORRUPT", `The content snapshot is not valid JSON`, { subject: file, cause: error });
  }
  if (
    parsed?.format !== 1 ||
    !Array.isArray(parsed.documents) ||
    typeof parsed.ref !== "string" ||
    !Array.isArray(parsed.languages)
  ) {
    throw new NzfError(
      "SNAPSHOT_CORRUPT",
      `The content snapshot has an unknown shape (format ${String(parsed?.format)})`,
      { subject: file },
    );
  }
  const bad = parsed.documents.findIndex((d) => !isDocument(d));
  if (bad >= 0)
    throw new NzfError(
      "SNAPSHOT_CORRUPT",
      `The content snapshot's documents[${bad}] is not a document (an id, type and lang, and a data object)`,
      { subject: file },
    );
  return parsed;
}

/** Whether a parsed value has what every document has: an id, type and lang, and a data object. */
export function isDocument(value: unknown): value is PrismicDocument {
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

/**
 * The snapshot as JSON with no indentation, one document a line: a quarter smaller than indented
 * JSON for rich text, so faster to read and parse in every thread that reads it, and still a diff
 * of whole documents when content changes.
 */
export function snapshotText(snapshot: Snapshot): string {
  const { documents, ...head } = snapshot;
  const fields = JSON.stringify(head).slice(1, -1);
  const lines = documents.map((d) => JSON.stringify(d)).join(",\n");
  return `{${fields}${fields ? "," : ""}"documents":[\n${lines}\n]}\n`;
}

/**
 * Writes the snapshot atomically: the old file stays whole until the new one is complete. Returns
 * the snapshot as written (documents sorted by id).
 */
export async function writeSnapshot(file: string, snapshot: Snapshot): Promise<Snapshot> {
  await mkdir(dirname(file), { recursive: true });
  // Documents sorted by id so the same content always gives the same bytes.
  const sorted: Snapshot = {
    ...snapshot,
    documents: [...snapshot.documents].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)),
  };
  await writeFileAtomic(file, snapshotText(sorted));
  return sorted;
}

/**
 * The snapshots a caller (the webhook server, watch mode: src/pipeline/builder.ts) last read or wrote, by
 * file, with the file's identity then. Reusing one saves parsing the whole repository for every
 * build, and keeps unchanged documents the same objects, so their hashes and images are not worked
 * out again (documentHashes, collectImages). The documents are shared: nothing may modify them.
 */
export type SnapshotMemory = Map<string, { snapshot: Snapshot; identity: string }>;

/**
 * The file and its identity each loaded snapshot came from (render workers read the same file):
 * facts about the object, kept as long as the object lives, not a cache.
 */
const origins = new WeakMap<Snapshot, { file: string; identity: string }>();

/** Where a snapshot from loadSnapshot came from, so another thread can read the very same content. */
export function snapshotOrigin(snapshot: Snapshot): { file: string; identity: string } | undefined {
  return origins.get(snapshot);
}

function remember(file: string, snapshot: Snapshot, identity: string, memory: SnapshotMemory | undefined): void {
  memory?.set(file, { snapshot, identity });
  origins.set(snapshot, { file, identity });
}

/** readSnapshot, reusing the snapshot in `memory` when the file has not changed since it was read or written. */
export async function loadSnapshot(file: string, memory?: SnapshotMemory): Promise<Snapshot> {
  const identity = await identityOf(file);
  const known = memory?.get(file);
  if (known && identity !== null && known.identity === identity) return known.snapshot;
  const snapshot = await readSnapshot(file);
  // Read again if the file changed while it was read, so the identity describes what was parsed.
  if (identity !== null && identity === (await identityOf(file))) remember(file, snapshot, identity, memory);
  return snapshot;
}

/** Writes the snapshot and remembers it for loadSnapshot (for the fetch, which owns its documents). */
export async function writeAndRememberSnapshot(
  file: string,
  snapshot: Snapshot,
  memory?: SnapshotMemory,
): Promise<Snapshot> {
  const written = await writeSnapshot(file, snapshot);
  const identity = await identityOf(file);
  if (identity !== null) remember(file, written, identity, memory);
  return written;
}
