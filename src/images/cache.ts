/**
 * The processed-image cache under `.nzf-cache/images`, which survives builds:
 *
 *   files/<key>-<width>w.<ext>   every output, named by the hash of source bytes + transform
 *   made/<key>.json              what one source became (dimensions, outputs, placeholder)
 *   sources.json                 path + size + mtime → content hash, so a warm build hashes nothing
 *
 * A manifest is written only after all its files, each file through a temporary name, so an
 * interrupted build leaves no half entry behind. Manifests and the index are cache records
 * (src/cache/entry.ts), and a manifest lists each output's sha256: a truncated or overwritten output
 * (or manifest) is a miss, and the image is made again instead of published.
 */
import { createHash } from "node:crypto";
import { mkdir, readFile, stat } from "node:fs/promises";
import { join } from "node:path";
import { writeFileAtomic } from "../core/fs.js";
import { cacheUnusable, hashBytes, readJsonEntry, verifyFiles, writeJsonEntry } from "../cache/entry.js";
import type { OutputType } from "./formats.js";

export interface CachedOutput {
  /** File name inside files/ and dist/_images/. */
  file: string;
  type: OutputType;
  width: number;
  height: number;
  bytes: number;
  /** sha256 of the file, checked before the manifest is used. */
  sha256?: string;
}

export interface Manifest {
  width: number;
  height: number;
  hasAlpha: boolean;
  format: string;
  outputs: CachedOutput[];
  placeholder?: string;
  /**
   * Set, with no outputs, for an image the build refused to take (image-stage.ts): the lookup then
   * answers null and the templates leave the picture out. Never written to the cache.
   */
  refused?: true;
}

interface SourceIndexEntry {
  size: number;
  mtimeMs: number;
  hash: string;
}

export function sha256(data: string | Buffer): string {
  return createHash("sha256").update(data).digest("hex");
}

export class ImageCache {
  private index: Record<string, SourceIndexEntry> = {};
  private indexChanged = false;
  /** Sources looked up since open(): close() keeps only these, so the index does not grow with every folder ever built from (test fixtures left 6,000 entries, 1.1 MB, read by every build). */
  private readonly used = new Set<string>();

  constructor(readonly dir: string) {}

  get filesDir(): string {
    return join(this.dir, "files");
  }

  async open(): Promise<void> {
    this.used.clear();
    try {
      await mkdir(this.filesDir, { recursive: true });
      await mkdir(join(this.dir, "made"), { recursive: true });
    } catch (error) {
      throw cacheUnusable(this.dir, error);
    }
    // A source index with wrong hashes would name outputs after content they were not made from.
    this.index =
      (await readJsonEntry<Record<string, SourceIndexEntry>>(join(this.dir, "sources.json"), "images")) ?? {};
  }

  /** The content hash of a file, from the index when its size and mtime have not changed. */
  async sourceHash(path: string): Promise<{ hash: string; bytes?: Buffer }> {
    const s = await stat(path);
    this.used.add(path);
    const known = this.index[path];
    if (known && known.size === s.size && known.mtimeMs === s.mtimeMs) return { hash: known.hash };
    const bytes = await readFile(path);
    const hash = sha256(bytes);
    this.index[path] = { size: s.size, mtimeMs: s.mtimeMs, hash };
    this.indexChanged = true;
    return { hash, bytes };
  }

  /** A manifest whose every file is still there with the bytes it was made with, or undefined. */
  async manifest(key: string): Promise<Manifest | undefined> {
    const file = join(this.dir, "made", `${key}.json`);
    const manifest = await readJsonEntry<Manifest>(file, "images");
    if (!manifest || !Array.isArray(manifest.outputs) || manifest.outputs.some((o) => typeof o.sha256 !== "string"))
      return undefined;
    const files = Object.fromEntries(manifest.outputs.map((o) => [join(this.filesDir, o.file), o.sha256!]));
    return (await verifyFiles(files, "images", file)) === null ? manifest : undefined;
  }

  /** Writes one output; returns its sha256 for the manifest. */
  async writeOutput(file: string, bytes: Buffer): Promise<string> {
    try {
      await writeFileAtomic(join(this.filesDir, file), bytes);
    } catch (error) {
      throw cacheUnusable(join(this.filesDir, file), error);
    }
    return hashBytes(bytes);
  }

  async writeManifest(key: string, manifest: Manifest): Promise<void> {
    await writeJsonEntry(join(this.dir, "made", `${key}.json`), manifest);
  }

  async close(): Promise<void> {
    const kept = Object.entries(this.index).filter(([path]) => this.used.has(path));
    if (!this.indexChanged && kept.length === Object.keys(this.index).length) return;
    this.index = Object.fromEntries(kept);
    const sorted = Object.fromEntries(kept.sort(([a], [b]) => a.localeCompare(b)));
    await writeJsonEntry(join(this.dir, "sources.json"), sorted);
    this.indexChanged = false;
  }
}
