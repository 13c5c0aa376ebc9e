import { renameSync, rmSync, writeFileSync } from "node:fs";
import { copyFile, link, rename, rm, stat, writeFile } from "node:fs/promises";

/**
 * What tells one version of a file from the next without reading it: inode, size, modification and
 * change times (a rename, an in-place edit or a rewrite each changes one). Null when it cannot be read.
 */
export async function identityOf(file: string): Promise<string | null> {
  try {
    return identityOfStats(await stat(file));
  } catch {
    return null;
  }
}

/** identityOf from stats read already (statSync, fstatSync): the same string, compared across threads. */
export function identityOfStats(info: { ino: number; size: number; mtimeMs: number; ctimeMs: number }): string {
  return `${info.ino}:${info.size}:${info.mtimeMs}:${info.ctimeMs}`;
}

/** Whether a file or folder exists (any error reading it counts as no). */
export async function exists(path: string): Promise<boolean> {
  try {
    await stat(path);
    return true;
  } catch {
    return false;
  }
}

/**
 * Writes a file whole or not at all: into a temporary file of this process beside it, then renamed
 * over it, so a reader (or another process writing the same file) never sees half of it.
 */
export async function writeFileAtomic(path: string, data: string | Buffer): Promise<void> {
  const temp = `${path}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`;
  try {
    await writeFile(temp, data);
    await rename(temp, path);
  } catch (error) {
    await rm(temp, { force: true });
    throw error;
  }
}

/** writeFileAtomic for the code that must not yield (publishing under the output lock). */
export function writeFileAtomicSync(path: string, data: string | Buffer): void {
  const temp = `${path}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`;
  try {
    writeFileSync(temp, data);
    renameSync(temp, path);
  } catch (error) {
    rmSync(temp, { force: true });
    throw error;
  }
}

/**
 * Hard-links `from` to `to`, or copies it where a link cannot be made: the two paths on different
 * file systems (the output folder on another disk or volume than the work folder: EXDEV), or a file
 * system without hard links (EPERM, ENOTSUP). The files we link are never written in place, so a
 * copy holds the same bytes.
 */
export async function linkOrCopy(from: string, to: string): Promise<void> {
  try {
    await link(from, to);
  } catch (error) {
    if (!["EXDEV", "EPERM", "ENOTSUP", "EMLINK"].includes((error as NodeJS.ErrnoException).code ?? "")) throw error;
    await copyFile(from, to);
  }
}
