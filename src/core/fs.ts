import { stat } from "node:fs/promises";

/** Whether a file or folder exists (any error reading it counts as no). */
export async function exists(path: string): Promise<boolean> {
  try {
    await stat(path);
    return true;
  } catch {
    return false;
  }
}
