import { stat } from "node:fs/promises";

/**
 * What tells one version of a file from the next without reading it: inode, size, modification and
 * change times (a rename, an in-place edit or a rewrite each changes one). Null when it cannot be read.
 */
export async function identityOf(file: string): Promise<string | null> {
  try {
    const info = await stat(file);
    return `${info.ino}:${info.size}:${info.mtimeMs}:${info.ctimeMs}`;
  } catch {
    return null;
  }
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
