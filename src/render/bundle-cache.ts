/**
 * Caches an esbuild result by the content of its inputs. esbuild's metafile lists every file a bundle
 * read; when none of them changed (and the lock file did not), the previous output is reused and
 * esbuild is not run at all. This is what makes a no-change rebuild cheap.
 */
import { createHash } from "node:crypto";
import { readFile, writeFile, mkdir, rm, stat } from "node:fs/promises";
import { identityOf } from "../core/fs.js";
import { join, resolve } from "node:path";

export interface BundleRecord<T> {
  /** Input file (relative to the project root) → sha1 of its content. */
  inputs: Record<string, string>;
  /** What the bundler produced, as the caller describes it. */
  result: T;
}

/**
 * Hashes by file, with the file's identity when hashed: a long-running process (watch mode, the
 * webhook server) checks hundreds of bundle inputs every build, and a stat is much cheaper than
 * reading and hashing a file that did not change.
 */
const hashMemo = new Map<string, { identity: string; hash: string }>();

export async function hashFile(file: string): Promise<string | null> {
  const identity = await identityOf(file);
  if (identity === null) return null;
  try {
    const known = hashMemo.get(file);
    if (known?.identity === identity) return known.hash;
    const hash = createHash("sha1").update(await readFile(file)).digest("hex");
    hashMemo.set(file, { identity, hash });
    return hash;
  } catch {
    return null;
  }
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

export async function startBundle<T>(file: string, root: string): Promise<BundleStart<T>> {
  const startedAt = Date.now();
  let record: BundleRecord<T>;
  try {
    record = JSON.parse(await readFile(file, "utf8")) as BundleRecord<T>;
  } catch {
    return { reusable: null, before: {}, startedAt };
  }
  const before = await hashInputs(root, Object.keys(record.inputs));
  const unchanged = Object.entries(record.inputs).every(([input, hash]) => before[input] === hash);
  return { reusable: unchanged ? record : null, before, startedAt };
}

/**
 * The inputs' hashes once the bundler has finished. A file saved while the bundler ran may have been
 * read in its old state (an editor truncates, then writes), so hashing it now would record content
 * the bundle was not built from, and every later build would reuse the stale bundle. Such inputs are
 * recorded as CHANGED_DURING_BUILD, so the next build compiles again: an input whose hash moved
 * since the start, or a new input whose file was modified within a second of the start (file times
 * can be that coarse).
 */
export async function hashInputsAfterBuild(root: string, inputs: string[], start: BundleStart<unknown>): Promise<Record<string, string>> {
  const hashes = await hashInputs(root, inputs);
  await Promise.all(
    Object.keys(hashes).map(async (input) => {
      const before = start.before[input];
      if (before !== undefined) {
        if (before !== hashes[input]) hashes[input] = CHANGED_DURING_BUILD;
        return;
      }
      const modified = await stat(resolve(root, input)).then((s) => s.mtimeMs, () => Infinity);
      if (modified > start.startedAt - 1000) hashes[input] = CHANGED_DURING_BUILD;
    }),
  );
  return hashes;
}

export async function writeBundleRecord<T>(file: string, record: BundleRecord<T>): Promise<void> {
  await mkdir(join(file, ".."), { recursive: true });
  await writeFile(file, JSON.stringify(record, null, 1));
}

export async function clearDir(dir: string): Promise<void> {
  await rm(dir, { recursive: true, force: true });
  await mkdir(dir, { recursive: true });
}
