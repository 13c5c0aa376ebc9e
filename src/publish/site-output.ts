/**
 * The new site as a set of files, before it is published. Each file of the new site is one of:
 * - new content (`put`): written now into a flat staging folder beside the output folder;
 * - a file that exists elsewhere already (`adopt`: an image from the image cache, an island bundle):
 *   hard-linked into the staging folder (copied when the two are on different disks);
 * - the published file, unchanged (`keep`: a page no change affects, a content-hashed asset that
 *   is live already): nothing to do.
 *
 * Why flat: on a slow disk, creating a folder costs about a millisecond, and a site of 2,000 pages is
 * 2,000 folders (`/about/index.html`). Staging in one folder and then renaming each new file over
 * its published path (src/publish/publish.ts) costs a fraction of building a second tree. New
 * content goes into a spare file when there is one (src/publish/spares.ts), which is faster still.
 *
 * Except when nothing is published yet (CI's fresh clone, a new output folder): the folders must be
 * made either way, so the new site is staged as a tree, made while the pages render, and published
 * by renaming that one folder into place instead of each of its files.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { mkdir, readFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import type { SpareFiles } from "./spares.js";
import { linkOrCopy } from "../core/fs.js";

export type FileSource = { kind: "staged"; path: string } | { kind: "published" };

/** Text files the secret scan reads (images and other binary files cannot hold a key by accident). */
const TEXT_FILE = /(\.(html|js|mjs|json|css|txt|xml|webmanifest|map|svg)|^_headers|^_redirects)$/;

export interface SiteOutputOptions {
  /** The staging folder (created by createSiteOutput). */
  stagingDir: string;
  /** The published site's folder. */
  outDir: string;
  /** Files of the published site, relative to outDir. */
  published: ReadonlySet<string>;
  /** Sees the text of every new text file (the secret scan). */
  inspect?: (file: string, text: string) => void;
  /** Files to write new content into instead of creating files. */
  spares?: SpareFiles;
  /** Stage the new site as a tree, to be published whole (only when nothing is published). */
  tree?: boolean;
}

export class SiteOutput {
  readonly stagingDir: string;
  readonly outDir: string;
  readonly published: ReadonlySet<string>;
  private readonly sources = new Map<string, FileSource>();
  private readonly inspect?: (file: string, text: string) => void;
  readonly spares?: SpareFiles;
  /** The staged tree of the whole new site, when it is staged as one (see above). */
  readonly treeDir: string | null;
  private readonly madeDirs = new Set<string>();
  private next = 0;

  constructor(options: SiteOutputOptions) {
    this.stagingDir = options.stagingDir;
    this.outDir = options.outDir;
    this.published = options.published;
    this.inspect = options.inspect;
    this.spares = options.tree ? undefined : options.spares;
    this.treeDir = options.tree ? join(options.stagingDir, "site") : null;
  }

  /** A new path in the staging folder for `file`'s content. */
  private stage(file: string): string {
    const path = this.treeDir ? this.treePath(file) : join(this.stagingDir, "new", String(this.next++));
    this.sources.set(file, { kind: "staged", path });
    return path;
  }

  private treePath(file: string): string {
    const path = join(this.treeDir!, file);
    const dir = dirname(path);
    if (!this.madeDirs.has(dir)) {
      mkdirSync(dir, { recursive: true });
      this.madeDirs.add(dir);
    }
    return path;
  }

  /**
   * Adds new content for `file`. A content-hashed name that is published already is kept (the same
   * name means the same bytes). With `unlessSame`, content identical to the published file is kept
   * as published instead (for small site files that most builds regenerate unchanged).
   */
  async put(file: string, data: string | Buffer, options: { unlessSame?: boolean; hashedName?: boolean; inspectOnly?: string[] } = {}): Promise<void> {
    if (options.hashedName && this.published.has(file)) return this.keep(file);
    if (options.unlessSame && this.published.has(file)) {
      const current = await readFile(join(this.outDir, file)).catch(() => null);
      if (current && current.equals(typeof data === "string" ? Buffer.from(data) : data)) return this.keep(file);
    }
    // `inspectOnly`: the parts not inspected before (a page framing a body an earlier, published build inspected).
    if (this.inspect && TEXT_FILE.test(file)) for (const text of options.inspectOnly ?? [typeof data === "string" ? data : data.toString("utf8")]) this.inspect(file, text);
    const spare = this.spares?.write(data);
    if (spare) this.sources.set(file, { kind: "staged", path: spare });
    // Synchronous on purpose: a page is written in tens of microseconds, and the thread pool's
    // hand-offs cost several times the write itself (2,000 pages: about 60 ms of CPU written here,
    // 290-350 ms through fs/promises, on tmpfs; about half, on this machine's ext4).
    else writeFileSync(this.stage(file), data);
  }

  /**
   * Adds a file whose content is at `from` already. A content-hashed name that is published already
   * is kept: the same name means the same bytes.
   */
  async adopt(file: string, from: string, options: { hashedName?: boolean } = {}): Promise<void> {
    if (options.hashedName && this.published.has(file)) return this.keep(file);
    if (this.inspect && TEXT_FILE.test(file)) this.inspect(file, await readFile(from, "utf8"));
    await linkOrCopy(from, this.stage(file));
  }

  /** Keeps the published file as it is. */
  keep(file: string): void {
    this.sources.set(file, { kind: "published" });
  }

  has(file: string): boolean {
    return this.sources.has(file);
  }

  /** The content the new site will have at `file`. */
  async read(file: string): Promise<Buffer> {
    return readFile(this.pathOf(file));
  }

  /** Where the content of a file of the new site is on disk now (staged or published). */
  pathOf(file: string): string {
    const source = this.sources.get(file);
    if (!source) throw new Error(`${file} is not part of the new site`);
    return source.kind === "staged" ? source.path : join(this.outDir, file);
  }

  /** Every file of the new site, sorted. */
  files(): string[] {
    return [...this.sources.keys()].sort();
  }

  /** The files to move into place, with where their content is staged. */
  staged(): { file: string; path: string }[] {
    const out: { file: string; path: string }[] = [];
    for (const [file, source] of this.sources) if (source.kind === "staged") out.push({ file, path: source.path });
    return out;
  }

  /** Published files the new site does not have. */
  removed(): string[] {
    return [...this.published].filter((file) => !this.sources.has(file)).sort();
  }
}

export async function createSiteOutput(options: SiteOutputOptions): Promise<SiteOutput> {
  await mkdir(join(options.stagingDir, options.tree ? "site" : "new"), { recursive: true });
  return new SiteOutput(options);
}
