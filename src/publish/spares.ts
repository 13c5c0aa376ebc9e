/**
 * Files kept from pages a publish replaced, to write the next build's pages into. On a slow disk,
 * creating a file costs about a millisecond and writing into an existing one a few microseconds
 * (2,000 pages: 1.3–2.4 s against 60–90 ms here), so a rebuild that changes every page (a layout
 * edit) reuses the files of the pages it replaces instead of creating 2,000 new ones and deleting
 * 2,000 old ones.
 *
 * A spare is only ever a file nothing else links to: an image or bundle hard-linked from a cache
 * shares its content with the cache and is deleted instead, and a spare is checked again before it
 * is written (a link made since would share the new content). Spares live beside the output folder
 * (the same disk, so a rename moves them), in `<out>.spare/`: single files, and folders of the
 * pages one publish replaced, taken over whole (a rename of one folder, not of 2,000 files).
 */
import { closeSync, fstatSync, ftruncateSync, mkdirSync, openSync, readdirSync, renameSync, rmdirSync, statSync, unlinkSync, writeSync, type Dirent } from "node:fs";
import { join } from "node:path";

/** More spares than this are deleted: a site rarely replaces more files than it has pages. */
const MAX_SPARES = 20_000;

export function spareDirFor(outDir: string): string {
  return `${outDir}.spare`;
}

export class SpareFiles {
  private readonly free: string[];
  private counter = 0;

  constructor(readonly dir: string) {
    this.free = [];
    let entries: Dirent[] = [];
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch {
      return;
    }
    for (const entry of entries) {
      const path = join(dir, entry.name);
      if (!entry.isDirectory()) {
        this.free.push(path);
        continue;
      }
      let names: string[] = [];
      try {
        names = readdirSync(path);
        // A folder whose spares were all used goes.
        if (names.length === 0) rmdirSync(path);
      } catch {
        // Unreadable or in use: not a source of spares this time.
      }
      for (const name of names) this.free.push(join(path, name));
    }
  }

  /**
   * Writes `data` into a spare file and returns its path, or null when there is none. The spare is
   * overwritten from the start and cut to the new length, so nothing of its old content remains.
   */
  write(data: string | Buffer): string | null {
    for (let path = this.free.pop(); path !== undefined; path = this.free.pop()) {
      let fd: number;
      try {
        fd = openSync(path, "r+");
      } catch {
        continue; // removed since (someone cleared the folder): the next one, or a new file
      }
      try {
        // Linked to since it was kept: writing would change the other name's content too.
        if (fstatSync(fd).nlink !== 1) continue;
        const bytes = typeof data === "string" ? Buffer.from(data) : data;
        let offset = 0;
        while (offset < bytes.length) offset += writeSync(fd, bytes, offset, bytes.length - offset, offset);
        ftruncateSync(fd, bytes.length);
        return path;
      } finally {
        closeSync(fd);
      }
    }
    return null;
  }

  /**
   * Takes over a folder of pages a publish replaced, by renaming it into the spares (pages are
   * written by builds, never linked from a cache; write() checks each again before use). Returns
   * how many were kept; a folder not taken is deleted with the staging folder.
   */
  keepFolder(folder: string): number {
    let names: string[];
    try {
      names = readdirSync(folder);
    } catch {
      return 0;
    }
    if (names.length === 0 || this.free.length + names.length > MAX_SPARES) return 0;
    try {
      mkdirSync(this.dir, { recursive: true });
      const kept = join(this.dir, `${process.pid}-${Date.now()}-${this.counter++}`);
      renameSync(folder, kept);
      for (const name of names) this.free.push(join(kept, name));
      return names.length;
    } catch {
      return 0;
    }
  }

  /** Moves files that a publish replaced into the spares (or deletes them); returns how many were kept. */
  keep(files: string[]): number {
    let kept = 0;
    // No folder of spares beside an output folder for a publish that replaced nothing.
    if (files.length === 0) return 0;
    try {
      mkdirSync(this.dir, { recursive: true });
    } catch {
      // No spares this time: the staging folder's removal deletes the replaced files instead.
      return 0;
    }
    for (const file of files) {
      try {
        if (this.free.length < MAX_SPARES && statSync(file).nlink === 1) {
          const spare = join(this.dir, `${process.pid}-${Date.now()}-${this.counter++}`);
          renameSync(file, spare);
          this.free.push(spare);
          kept++;
        } else unlinkSync(file);
      } catch {
        // Gone already, or not ours to move: the staging folder's removal deletes what is left.
      }
    }
    return kept;
  }
}
