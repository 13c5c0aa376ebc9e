/**
 * Publishing: every file of the new site that differs from the published one is ready in a staging
 * folder (src/publish/site-output.ts) before anything in `dist/` changes. Publishing then renames
 * each staged file over its published path (the old file moves into the staging folder as a backup)
 * and moves away the published files the new site no longer has.
 *
 * Nothing is lost when this fails: a journal written before the first rename lists every step, and a
 * failure rolls every step back, so `dist/` is the old site or the new one. A crash part-way (power
 * cut, kill -9) is rolled back by the next build (recoverInterruptedPublish). While the renames run
 * (about 0.1 ms a file) a visitor may get a new page beside an old one; the order keeps every page
 * working: new assets first, then pages, then the other site files, `sw.js` last, and old assets are
 * removed only at the end.
 *
 * Why not build a second tree and swap folders: creating a folder costs about a millisecond on a
 * slow disk, and a site of 2,000 pages has 2,000 folders. Renaming only what changed costs a fraction
 * of that, and nothing at all for the pages that did not change. The exception is a first publish
 * (nothing published yet), where every folder is new either way: the site is staged as a tree and
 * renamed into place whole (publishTree).
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmdirSync, rmSync, writeFileSync, type Dirent } from "node:fs";
import { mkdir, readdir, rename, rm } from "node:fs/promises";
import { basename, dirname, join } from "node:path";
import { NzfError } from "../core/errors.js";
import { exists } from "../core/fs.js";
import type { SiteOutput } from "./site-output.js";

const STAGING = ".staging-";
/** Left by versions that swapped whole folders; recovered the same way. */
const RETIRED = ".retired-";
const JOURNAL = "journal.json";

export interface Step {
  file: string;
  /** Index of the backup of the published file (see backupOf). */
  index: number;
  /** Where the new content is staged; absent when the step only removes a published file. */
  from?: string;
}

/** A staging folder beside the output folder (the same disk, so renames between them are cheap). */
export function stagingDirFor(outDir: string): string {
  return `${outDir}${STAGING}${process.pid}-${Date.now()}`;
}

/** The files of a published site, relative to it; empty when there is none. */
export function listPublishedFiles(outDir: string): Set<string> {
  const files = new Set<string>();
  // Synchronous on purpose: a walk of 2,000 folders finishes sooner than through the thread pool.
  const walk = (sub: string): void => {
    let entries: Dirent[];
    try {
      entries = readdirSync(join(outDir, sub), { withFileTypes: true });
    } catch {
      return;
    }
    for (const entry of entries) {
      const file = sub ? `${sub}/${entry.name}` : entry.name;
      if (entry.isDirectory()) walk(file);
      else files.add(file);
    }
  };
  walk("");
  return files;
}

/** New hashed assets first, pages next, other site files after them, the service worker last. */
function phase(file: string): number {
  if (file === "sw.js") return 3;
  if (/^(_islands|_preview|_assets|_images|icons)\//.test(file)) return 0;
  return file.endsWith(".html") ? 1 : 2;
}

function isMissing(error: unknown): boolean {
  return (error as NodeJS.ErrnoException).code === "ENOENT";
}

/** Removes the folders a removed page leaves empty, up to the site's root. */
function removeEmptyParents(outDir: string, file: string): void {
  for (let dir = dirname(file); dir !== "." && dir !== ""; dir = dirname(dir)) {
    try {
      rmdirSync(join(outDir, dir));
    } catch {
      return;
    }
  }
}

/** The journal's layout of backups (see backupOf). */
const LAYOUT = 2;

/**
 * Where a step keeps the published file it replaces: old/<index>, and for pages old/pages/<index>,
 * so that all the replaced pages become spare files in one rename (src/publish/spares.ts).
 * Journals written before pages were kept apart (no `layout`) have every backup in old/.
 */
function backupOf(stagingDir: string, step: Step, layout: number): string {
  return layout >= 2 && step.file.endsWith(".html") ? join(stagingDir, "old", "pages", String(step.index)) : join(stagingDir, "old", String(step.index));
}

/** Runs the steps of a publish in order (exported for the crash-recovery test). */
export function runSteps(outDir: string, stagingDir: string, steps: Step[]): void {
  const madeDirs = new Set<string>();
  for (const step of steps) {
    const target = join(outDir, step.file);
    let replaced = true;
    try {
      renameSync(target, backupOf(stagingDir, step, LAYOUT));
    } catch (error) {
      if (!isMissing(error)) throw error;
      replaced = false;
    }
    if (step.from === undefined) {
      removeEmptyParents(outDir, step.file);
      continue;
    }
    // A file was just moved out of this folder, so it exists: only a new file may need its folder made.
    const dir = dirname(target);
    if (!replaced && !madeDirs.has(dir)) {
      mkdirSync(dir, { recursive: true });
      madeDirs.add(dir);
    }
    renameSync(step.from, target);
  }
}

/** Undoes the steps of an interrupted or failed publish, newest first. Safe to run more than once. */
function rollBack(outDir: string, stagingDir: string, steps: Step[], layout = LAYOUT): void {
  for (const step of [...steps].reverse()) {
    const target = join(outDir, step.file);
    const backup = backupOf(stagingDir, step, layout);
    if (existsSync(backup)) {
      mkdirSync(dirname(target), { recursive: true });
      renameSync(backup, target);
    } else if (step.from !== undefined && !existsSync(step.from)) {
      // Placed where no file was before: the old site had nothing here.
      rmSync(target, { force: true });
      removeEmptyParents(outDir, step.file);
    }
  }
}

/** The steps of a publish, in order, written to the staging folder's journal before any is run. */
export async function planPublish(output: SiteOutput): Promise<Step[]> {
  const { outDir, stagingDir } = output;
  // Phases worked out once per file, and names compared by code unit: a stable order is all that
  // matters here, and ICU collation made this sort most of planning 2,000 steps.
  const placed = output
    .staged()
    .map((s) => ({ ...s, phase: phase(s.file) }))
    .sort((a, b) => a.phase - b.phase || (a.file < b.file ? -1 : a.file > b.file ? 1 : 0));
  let next = 0;
  const steps: Step[] = [...placed.map((s) => ({ file: s.file, index: next++, from: s.path })), ...output.removed().map((file) => ({ file, index: next++ }))];
  try {
    await mkdir(join(stagingDir, "old", "pages"), { recursive: true });
    await mkdir(outDir, { recursive: true });
    writeFileSync(join(stagingDir, JOURNAL), JSON.stringify({ outDir, layout: LAYOUT, steps }));
  } catch (error) {
    throw new NzfError("PUBLISH_FAILED", `The new site could not be prepared beside ${outDir}`, { subject: outDir, cause: error });
  }
  return steps;
}

/**
 * Publishes a new site staged as a tree (nothing was published) by renaming the tree to the output
 * folder: one atomic step. False when the output folder is no longer empty; the file-by-file
 * publish then places the tree's files.
 */
function publishTree(output: SiteOutput): boolean {
  try {
    renameSync(output.treeDir!, output.outDir);
    return true;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOTEMPTY" || code === "EEXIST" || code === "ENOTDIR") return false;
    throw new NzfError("PUBLISH_FAILED", `The new site could not be moved into ${output.outDir}`, { subject: output.outDir, cause: error });
  }
}

/** Moves the new site's changed files into place and removes the ones it no longer has. */
export async function publishOutput(output: SiteOutput): Promise<{ placed: number; removed: number }> {
  const { outDir, stagingDir } = output;
  if (output.treeDir && output.removed().length === 0 && publishTree(output)) {
    void discardStaging(stagingDir).catch(() => undefined);
    return { placed: output.staged().length, removed: 0 };
  }
  const steps = await planPublish(output);
  try {
    runSteps(outDir, stagingDir, steps);
  } catch (error) {
    try {
      rollBack(outDir, stagingDir, steps);
    } catch (rollbackError) {
      throw new NzfError("PUBLISH_FAILED", `Publishing to ${outDir} failed part-way and could not be undone yet (${(rollbackError as Error).message}); the next build finishes undoing it`, { subject: outDir, cause: error });
    }
    throw new NzfError("PUBLISH_FAILED", `The new site could not be moved into ${outDir}; the previous site was put back`, { subject: outDir, cause: error });
  }
  // The journal's removal is the moment the new site is committed. The replaced files become spares
  // for the next build's writes; the rest of the staging folder goes in the background.
  rmSync(join(stagingDir, JOURNAL));
  if (output.spares) {
    output.spares.keepFolder(join(stagingDir, "old", "pages"));
    output.spares.keep(readdirSync(join(stagingDir, "old")).flatMap((name) => (name === "pages" ? [] : [join(stagingDir, "old", name)])));
  }
  void discardStaging(stagingDir).catch(() => undefined);
  const placed = steps.filter((step) => step.from !== undefined).length;
  return { placed, removed: steps.length - placed };
}

export async function discardStaging(stagingDir: string): Promise<void> {
  await rm(stagingDir, { recursive: true, force: true });
}

function processIsAlive(pid: number): boolean {
  if (pid === process.pid) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/**
 * Rolls back a publish that a crash interrupted, and removes staging folders left by builds that
 * died. Folders of another build that is running now are left alone.
 */
export async function recoverInterruptedPublish(outDir: string): Promise<void> {
  const parent = dirname(outDir);
  const name = basename(outDir);
  let entries: string[];
  try {
    entries = await readdir(parent);
  } catch {
    return;
  }
  for (const entry of entries.filter((e) => e.startsWith(name + STAGING)).sort()) {
    const pid = Number(entry.slice((name + STAGING).length).split("-")[0]);
    if (processIsAlive(pid)) continue;
    const stagingDir = join(parent, entry);
    const journal = join(stagingDir, JOURNAL);
    if (existsSync(journal)) {
      const { steps, layout } = JSON.parse(readFileSync(journal, "utf8")) as { steps: Step[]; layout?: number };
      rollBack(outDir, stagingDir, steps, layout ?? 1);
    }
    await discardStaging(stagingDir);
  }
  const retired = entries.filter((e) => e.startsWith(name + RETIRED)).sort();
  if (retired.length && !(await exists(outDir))) await rename(join(parent, retired.at(-1)!), outDir);
  for (const entry of retired) await rm(join(parent, entry), { recursive: true, force: true });
}
