/**
 * Loads a compiled CommonJS module (the one-shot templates bundle, React included: 1.7 MB) with
 * V8's code cache. Each render thread of a new process otherwise parsed and compiled the bundle
 * before its first page, and compiled each function again the first time a page called it. A
 * thread that loaded the module without a cache keeps one once it has rendered a few hundred pages
 * (`keep`), with the functions those pages compiled; the next process's threads start from it.
 *
 * The cache sits beside the module, named by the module (whose name is the hash of its code) and by
 * V8's tag for its version and flags (a cache from another V8 or other flags would be rejected
 * anyway). It is a cache record (src/cache/entry.ts): a truncated or altered file is never handed
 * to V8. One that V8 rejects is made again.
 */
import { readdirSync, readFileSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { basename, dirname, join } from "node:path";
import { cachedDataVersionTag } from "node:v8";
import { pathToFileURL } from "node:url";
import { Script } from "node:vm";
import { encodeEntry, readEntrySync } from "../cache/entry.js";
import { writeFileAtomicSync } from "../core/fs.js";

export interface CachedModule<T> {
  exports: T;
  /** Whether V8 took the code cache a previous process kept. */
  fromCache: boolean;
  /** Keeps V8's code for the next process, when it did not start from a cache; once. Never throws. */
  keep(): void;
}

const SUFFIX = ".v8cache";

/**
 * A compiled templates module, whichever its format: CommonJS (packages bundled, the one-shot
 * builds) through the code cache, an ES module (watch mode's) imported, with nothing to keep.
 */
export async function loadCompiledModule<T>(file: string): Promise<CachedModule<T>> {
  if (file.endsWith(".cjs")) return loadWithCodeCache<T>(file);
  const exports = (await import(pathToFileURL(file).href)) as T;
  return { exports, fromCache: false, keep: () => undefined };
}

export function loadWithCodeCache<T>(file: string): CachedModule<T> {
  const source = readFileSync(file, "utf8");
  const cacheFile = `${file}.${cachedDataVersionTag()}${SUFFIX}`;
  const cachedData = readEntrySync(cacheFile, "code cache") ?? undefined;
  // Node's own CommonJS wrapper, on the first line, so the bundle's lines (and its source map) hold.
  const script = new Script(`(function (exports, require, module, __filename, __dirname) {${source}\n})`, {
    filename: file,
    cachedData,
  });
  const fromCache = cachedData !== undefined && !script.cachedDataRejected;
  const module = { exports: {} as T };
  const run = script.runInThisContext() as (...args: unknown[]) => void;
  run(module.exports, createRequire(file), module, file, dirname(file));
  let kept = fromCache;
  return {
    exports: module.exports,
    fromCache,
    keep() {
      if (kept) return;
      kept = true;
      try {
        writeFileAtomicSync(cacheFile, encodeEntry(script.createCachedData()));
        removeOtherCaches(file);
      } catch {
        // Not kept (a full disk, say): the next process compiles the module again.
      }
    },
  };
}

/**
 * The caches of the folder's older modules: a module's code is not compiled again under the same
 * name. Its caches for other V8 flags stay (the CLI tiers up later than the webhook server).
 */
function removeOtherCaches(file: string): void {
  const dir = dirname(file);
  const own = `${basename(file)}.`;
  const stem = basename(file).replace(/-[0-9a-f]+\.cjs$/, "-");
  for (const name of readdirSync(dir))
    if (name.endsWith(SUFFIX) && name.startsWith(stem) && !name.startsWith(own))
      rmSync(join(dir, name), { force: true });
}
