/**
 * Caches an esbuild result by the content of its inputs. esbuild's metafile lists every file a bundle
 * read; when none of them changed (and the lock file did not), the previous output is reused and
 * esbuild is not run at all. This is what makes a no-change rebuild cheap.
 *
 * The record is a cache entry (src/cache/entry.ts) that lists the output files with their hashes: a
 * truncated or overwritten bundle makes the record a miss and the bundle is compiled again, never
 * imported or published.
 */
import { stat } from "node:fs/promises";
import { hashFile } from "../cache/file-hash.js";
import { join, resolve } from "node:path";
import { hashOfFile, readJsonEntry, verifyFiles, writeJsonEntry } from "../cache/entry.js";
import { cacheDebug } from "../cache/debug.js";

export interface BundleRecord<T> {
  /** Input file (relative to the project root) → sha1 of its content. */
  inputs: Record<string, string>;
  /** What the bundler produced, as the caller describes it. */
  result: T;
  /** The output files the result names (absolute paths) → sha256 of their bytes, checked before reuse. */
  outputs: Record<string, string>;
}

/** Hashes of the given inputs; node_modules inputs are summarised by the lock file. */
export async function hashInputs(root: string, inputs: string[]): Promise<Record<string, string>> {
  const hashes: Record<string, string> = {};
  const own = inputs.filter((i) => !i.includes("node_modules/") && !i.includes(":")).sort();
  await Promise.all(
    own.map(async (input) => {
      hashes[input] = (await hashFile(resolve(root, input))) ?? "missing";
    }),
  );
  hashes["package-lock.json"] = (await hashFile(join(root, "package-lock.json"))) ?? "missing";
  return hashes;
}

/** What a compile starts from: the previous record if it is still good, and its inputs' hashes now. */
export interface BundleStart<T> {
  /** The previous record, when none of its inputs changed (the bundler need not run). */
  reusable: BundleRecord<T> | null;
  /** The previous record's inputs hashed before the bundler reads them. */
  before: Record<string, string>;
  /** When the compile started (Date.now(), the clock file times are set by). */
  startedAt: number;
}

/** Marks an input whose content may differ from what the bundler read: never equal to a real hash. */
export const CHANGED_DURING_BUILD = "changed-during-build";

export async function startBundle<T>(file: string, root: string, family = "bundles"): Promise<BundleStart<T>> {
  const startedAt = Date.now();
  const record = await readJsonEntry<BundleRecord<T>>(file, family);
  if (!record?.inputs || !record.outputs) return { reusable: null, before: {}, startedAt };
  const before = await hashInputs(root, Object.keys(record.inputs));
  const changed = Object.keys(record.inputs).find((input) => before[input] !== record.inputs[input]);
  if (changed) {
    cacheDebug?.(family, `miss ${file}: ${changed} changed`);
    return { reusable: null, before, startedAt };
  }
  // Inputs unchanged, but the outputs must still be the bytes the bundler wrote.
  const bad = await verifyFiles(record.outputs, family, file);
  return { reusable: bad === null ? record : null, before, startedAt };
}

/**
 * The inputs' hashes once the bundler has finished. A file saved while the bundler ran may have been
 * read in its old state (an editor truncates, then writes), so hashing it now would record content
 * the bundle was not built from, and every later build would reuse the stale bundle. Such inputs are
 * recorded as CHANGED_DURING_BUILD, so the next build compiles again: an input whose hash moved
 * since the start, or a new input whose file was modified within a second of the start (file times
 * can be that coarse).
 */
export async function hashInputsAfterBuild(
  root: string,
  inputs: string[],
  start: BundleStart<unknown>,
): Promise<Record<string, string>> {
  const hashes = await hashInputs(root, inputs);
  await Promise.all(
    Object.keys(hashes).map(async (input) => {
      const before = start.before[input];
      if (before !== undefined) {
        if (before !== hashes[input]) hashes[input] = CHANGED_DURING_BUILD;
        return;
      }
      const modified = await stat(resolve(root, input)).then(
        (s) => s.mtimeMs,
        () => Infinity,
      );
      if (modified > start.startedAt - 1000) hashes[input] = CHANGED_DURING_BUILD;
    }),
  );
  return hashes;
}

/** Records a bundle with the hash of each output file it names (absolute paths). */
export async function writeBundleRecord<T>(
  file: string,
  record: Omit<BundleRecord<T>, "outputs">,
  outputs: string[] = [],
): Promise<void> {
  const hashes: Record<string, string> = {};
  for (const output of [...outputs].sort()) hashes[output] = await hashOfFile(output);
  await writeJsonEntry(file, { ...record, outputs: hashes });
}
