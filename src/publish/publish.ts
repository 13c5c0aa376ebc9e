/**
 * Publishing: the new site is built in a staging folder beside the output folder and moved into
 * place only when complete, so `dist/` is the old site or the new one, never half of each. A build
 * that fails removes its staging folder and leaves `dist/` untouched.
 */
import { mkdir, readdir, rename, rm } from "node:fs/promises";
import { basename, dirname, join } from "node:path";
import { NzfError } from "../core/errors.js";
import { exists } from "../core/fs.js";

const STAGING = ".staging-";
const RETIRED = ".retired-";


/** Restores the previous site if a crash happened between the two renames of a publish. */
export async function recoverInterruptedPublish(outDir: string): Promise<void> {
  const parent = dirname(outDir);
  const name = basename(outDir);
  let entries: string[] = [];
  try {
    entries = await readdir(parent);
  } catch {
    return;
  }
  const retired = entries.filter((e) => e.startsWith(name + RETIRED)).sort();
  if (!(await exists(outDir)) && retired.length) await rename(join(parent, retired.at(-1)!), outDir);
  for (const e of entries) {
    if (e.startsWith(name + RETIRED) || e.startsWith(name + STAGING)) {
      if (await exists(join(parent, e))) await rm(join(parent, e), { recursive: true, force: true });
    }
  }
}

export async function createStaging(outDir: string): Promise<string> {
  await mkdir(dirname(outDir), { recursive: true });
  const staging = `${outDir}${STAGING}${process.pid}-${Date.now()}`;
  await mkdir(staging, { recursive: true });
  return staging;
}

export async function discardStaging(staging: string): Promise<void> {
  await rm(staging, { recursive: true, force: true });
}

/** Moves the staging folder into place. The previous site is retired and removed afterwards. */
export async function publishStaging(staging: string, outDir: string): Promise<void> {
  const retired = `${outDir}${RETIRED}${process.pid}-${Date.now()}`;
  try {
    const hadPrevious = await exists(outDir);
    if (hadPrevious) await rename(outDir, retired);
    try {
      await rename(staging, outDir);
    } catch (error) {
      if (hadPrevious) await rename(retired, outDir);
      throw error;
    }
  } catch (error) {
    throw new NzfError("PUBLISH_FAILED", `The new site could not be moved to ${outDir}`, { subject: outDir, cause: error });
  }
  // The retired site is deleted in the background: the new one is live already. A crash before it is
  // gone leaves a folder that the next build's recoverInterruptedPublish removes.
  void rm(retired, { recursive: true, force: true }).catch(() => undefined);
}
