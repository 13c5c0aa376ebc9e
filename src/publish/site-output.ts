/**
 * The new site as a set of files, written into the tree of the version being made
 * (src/publish/versions.ts), which nobody serves until it is published. Each file of the new site is
 * one of:
 * - new content (`put`): written into the tree;
 * - a file that exists elsewhere already (`adopt`: an image from the image cache, an island bundle):
 *   hard-linked into the tree (copied when the two are on different disks);
 * - the published file, unchanged (`keep`: a page no change affects, a content-hashed asset that is
 *   live already): hard-linked from the published version when the tree is finished.
 *
 * A reused tree (two versions back) has most files right already: only the paths where it may differ
 * (`dirty`), the ones written now and the ones the new site drops are looked at when it is finished.
 * Its files are shared by hard links with the versions after it, so new content is written into an
 * existing file only when nothing else links to it (a few microseconds, against about a millisecond
 * to create a file on a slow disk); otherwise the file is replaced.
 */
import {
  closeSync,
  fstatSync,
  ftruncateSync,
  linkSync,
  mkdirSync,
  openSync,
  rmdirSync,
  rmSync,
  unlinkSync,
  writeFileSync,
  writeSync,
} from "node:fs";
import { readFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { linkOrCopy } from "../core/fs.js";
import type { SecretScan } from "./secret-scan.js";
import type { Target } from "./versions.js";

/** Text files the secret scan reads (images and other binary files cannot hold a key by accident). */
const TEXT_FILE = /(\.(html|js|mjs|json|css|txt|xml|webmanifest|map|svg)|^_headers|^_redirects)$/;

export interface SiteOutputOptions {
  /** The published site's folder (the link). */
  outDir: string;
  /** Where the published files are (the current version's tree), or null when nothing is published. */
  currentDir: string | null;
  /** The tree of the version being made. */
  target: Target;
  /** Files of the published site, relative to it. */
  published: ReadonlySet<string>;
  /** The secret scan every new text file goes through. */
  scan?: Pick<SecretScan, "scanText" | "addFindings">;
}

type Source = "new" | "published";

function isCode(error: unknown, code: string): boolean {
  return (error as NodeJS.ErrnoException).code === code;
}

export class SiteOutput {
  readonly outDir: string;
  readonly currentDir: string | null;
  readonly target: Target;
  readonly published: ReadonlySet<string>;
  private readonly sources = new Map<string, Source>();
  /** Paths of the tree written by this build. */
  private readonly written = new Set<string>();
  private readonly scan?: Pick<SecretScan, "scanText" | "addFindings">;
  private readonly madeDirs = new Set<string>();

  constructor(options: SiteOutputOptions) {
    this.outDir = options.outDir;
    this.currentDir = options.currentDir;
    this.target = options.target;
    this.published = options.currentDir ? options.published : new Set();
    this.scan = options.scan;
  }

  get dir(): string {
    return this.target.dir;
  }

  /** Whether the tree started empty, so a new file may be written straight into it (no file there is shared with a published version). */
  get isNewTree(): boolean {
    return this.target.dirty === null;
  }

  private ensureDir(path: string): void {
    const dir = dirname(path);
    if (this.madeDirs.has(dir)) return;
    mkdirSync(dir, { recursive: true });
    this.madeDirs.add(dir);
  }

  /** Frees a path of the tree for a new file (a reused tree may have a file, or a folder, there). */
  private clear(path: string): void {
    if (this.target.dirty === null && !this.written.has(path)) {
      this.ensureDir(path);
      return;
    }
    try {
      unlinkSync(path);
    } catch (error) {
      if (isCode(error, "ENOENT")) this.ensureDir(path);
      else rmSync(path, { recursive: true, force: true });
    }
  }

  /** Writes into the tree's existing file when nothing else links to it; true when done. */
  private overwrite(path: string, bytes: Buffer): boolean {
    let fd: number;
    try {
      fd = openSync(path, "r+");
    } catch {
      return false;
    }
    try {
      if (fstatSync(fd).nlink !== 1) return false;
      let offset = 0;
      while (offset < bytes.length) offset += writeSync(fd, bytes, offset, bytes.length - offset, offset);
      ftruncateSync(fd, bytes.length);
      return true;
    } finally {
      closeSync(fd);
    }
  }

  /**
   * Adds new content for `file`. A content-hashed name that is published already is kept (the same
   * name means the same bytes). With `unlessSame`, content identical to the published file is kept
   * as published instead (for small site files that most builds regenerate unchanged).
   */
  async put(
    file: string,
    data: string | Buffer,
    options: { unlessSame?: boolean; hashedName?: boolean; inspectOnly?: string[]; scanned?: string[] } = {},
  ): Promise<void> {
    if (options.hashedName && this.published.has(file)) return this.keep(file);
    const bytes = typeof data === "string" ? Buffer.from(data) : data;
    if (options.unlessSame && this.published.has(file)) {
      const current = await readFile(join(this.currentDir!, file)).catch(() => null);
      if (current?.equals(bytes)) return this.keep(file);
    }
    // `scanned`: what a scan elsewhere found (the render worker's). `inspectOnly`: the parts not
    // inspected before (a page framing a body an earlier, published build inspected).
    if (this.scan && TEXT_FILE.test(file)) {
      if (options.scanned) this.scan.addFindings(file, options.scanned);
      else
        for (const text of options.inspectOnly ?? [typeof data === "string" ? data : data.toString("utf8")])
          this.scan.scanText(file, text);
    }
    const path = join(this.dir, file);
    // Synchronous on purpose: a page is written in tens of microseconds, and the thread pool's
    // hand-offs cost several times the write itself.
    if (this.target.dirty === null || !this.overwrite(path, bytes)) {
      this.clear(path);
      writeFileSync(path, bytes);
    }
    this.written.add(file);
    this.sources.set(file, "new");
  }

  /**
   * Records a file a render worker wrote into the tree itself (WorkerInit.writeTo), with what the
   * worker's secret scan found in it.
   */
  writtenByWorker(file: string, scanned: string[]): void {
    if (this.scan && TEXT_FILE.test(file)) this.scan.addFindings(file, scanned);
    this.written.add(file);
    this.sources.set(file, "new");
  }

  /**
   * Adds a file whose content is at `from` already. A content-hashed name that is published already
   * is kept: the same name means the same bytes.
   */
  async adopt(file: string, from: string, options: { hashedName?: boolean } = {}): Promise<void> {
    if (options.hashedName && this.published.has(file)) return this.keep(file);
    if (this.scan && TEXT_FILE.test(file)) this.scan.scanText(file, await readFile(from, "utf8"));
    const path = join(this.dir, file);
    this.clear(path);
    await linkOrCopy(from, path);
    this.written.add(file);
    this.sources.set(file, "new");
  }

  /** Keeps the published file as it is. */
  keep(file: string): void {
    this.sources.set(file, "published");
  }

  has(file: string): boolean {
    return this.sources.has(file);
  }

  /** The content the new site will have at `file`. */
  async read(file: string): Promise<Buffer> {
    return readFile(this.pathOf(file));
  }

  /** Where the content of a file of the new site is on disk now (the new tree or the published one). */
  pathOf(file: string): string {
    const source = this.sources.get(file);
    if (!source) throw new Error(`${file} is not part of the new site`);
    return source === "new" ? join(this.dir, file) : join(this.currentDir!, file);
  }

  /** Every file of the new site, sorted. */
  files(): string[] {
    return [...this.sources.keys()].sort();
  }

  /** Files with new content (written or linked anew). */
  changed(): string[] {
    return [...this.sources].flatMap(([file, source]) => (source === "new" ? [file] : [])).sort();
  }

  /** Published files the new site does not have. */
  removed(): string[] {
    return [...this.published].filter((file) => !this.sources.has(file)).sort();
  }

  /**
   * Completes the tree: links the kept files from the published version where the tree may differ
   * (everywhere, in a new tree) and removes the files the new site does not have.
   */
  finish(): void {
    const check =
      this.target.dirty === null
        ? this.sources.keys()
        : new Set([...this.target.dirty, ...this.written, ...this.removed()]);
    for (const file of check) {
      const source = this.sources.get(file);
      if (source === "new") continue;
      const path = join(this.dir, file);
      if (source === "published") {
        this.clear(path);
        linkSync(join(this.currentDir!, file), path);
        continue;
      }
      try {
        unlinkSync(path);
      } catch (error) {
        if (!isCode(error, "ENOENT")) throw error;
        continue;
      }
      for (let dir = dirname(file); dir !== "." && dir !== ""; dir = dirname(dir)) {
        try {
          rmdirSync(join(this.dir, dir));
        } catch {
          break; // not empty
        }
      }
    }
  }
}

export function createSiteOutput(options: SiteOutputOptions): SiteOutput {
  return new SiteOutput(options);
}
