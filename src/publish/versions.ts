/**
 * The published site's versions. The output folder (`dist`) is a symbolic link to one complete
 * version in `<out>.versions/<id>/`; publishing a new version replaces the link with one rename(),
 * which readers see as all or nothing (src/publish/publish.ts).
 *
 * `<out>.versions/` holds, besides the lock (src/publish/output-lock.ts):
 * - `<id>/`: a version's tree. Three are kept: the published one, the one before it (a reader that
 *   resolved the link before the last swap finishes reading it), and the one before that, which the
 *   next build reuses (see chooseTarget).
 * - `<id>.json`: the version's manifest: the version it was made from (`base`) and the files that
 *   differ from it. Written when the tree is complete, before the swap, and deleted before a tree is
 *   reused, so a tree with a manifest is complete and unchanged since.
 * Anything else there (a tree a killed build left, an old version) is removed after the next publish.
 */
import {
  existsSync,
  lstatSync,
  type Stats,
  mkdirSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  renameSync,
  rmSync,
  symlinkSync,
  unlinkSync,
} from "node:fs";
import { rm } from "node:fs/promises";
import { basename, dirname, join, relative, resolve } from "node:path";
import { NzfError } from "../core/errors.js";
import { writeFileAtomicSync } from "../core/fs.js";

export interface VersionManifest {
  id: string;
  /** The version this one was made from (its unchanged files are hard links to that one's). */
  base: string | null;
  /** Files written or linked anew: their content differs from the base's (or the base lacks them). */
  changed: string[];
  /** Files of the base this version does not have. */
  removed: string[];
}

/** The published site as a build finds it. */
export interface OutputState {
  outDir: string;
  versionsDir: string;
  /** The published version's id, or null when none is published (or it is a folder from before versions). */
  currentId: string | null;
  /** Where the published files are, or null when nothing is published. */
  currentDir: string | null;
  /** The output folder is a real folder from an earlier nzf-build, moved into the versions at the first publish. */
  legacy: boolean;
  /** Its files can be kept by the new version (false for a folder a killed older publish left mixed). */
  trusted: boolean;
}

const ID = /^v(\d+)-[0-9a-z]+$/;

export function versionsDirFor(outDir: string): string {
  return `${outDir}.versions`;
}

function seqOf(id: string): number {
  return Number(ID.exec(id)?.[1] ?? 0);
}

export function readManifest(versionsDir: string, id: string | null): VersionManifest | null {
  if (!id) return null;
  try {
    const manifest = JSON.parse(readFileSync(join(versionsDir, `${id}.json`), "utf8")) as VersionManifest;
    return manifest.id === id && existsSync(join(versionsDir, id)) ? manifest : null;
  } catch {
    return null;
  }
}

export function writeManifest(versionsDir: string, manifest: VersionManifest): void {
  const file = join(versionsDir, `${manifest.id}.json`);
  writeFileAtomicSync(file, JSON.stringify(manifest));
}

function notOurs(outDir: string, what: string): NzfError {
  return new NzfError(
    "OUTPUT_NOT_OURS",
    `${outDir} ${what}, so nzf-build will not publish there (it would replace what is there)`,
    { subject: outDir },
  );
}

/** Files every site nzf-build publishes has: a folder holding them is an earlier build's output. */
const SITE_MARKERS = ["index.html", "sw.js", "_islands"];

/**
 * Refuses an output folder the tool did not make: anything other than nothing, an empty folder,
 * an earlier nzf-build's output folder, or a link into the versions folder beside it. Reads only.
 */
export function guardOutput(outDir: string): void {
  let info: Stats | null;
  try {
    info = lstatSync(outDir);
  } catch {
    return;
  }
  if (info.isSymbolicLink()) {
    const target = resolve(dirname(outDir), readlinkSync(outDir));
    if (dirname(target) !== versionsDirFor(outDir))
      throw notOurs(outDir, `is a symbolic link to ${target}, not to a version in ${versionsDirFor(outDir)}`);
    return;
  }
  if (!info.isDirectory()) throw notOurs(outDir, "is a file");
  const entries = readdirSync(outDir);
  if (entries.length === 0 || SITE_MARKERS.every((name) => entries.includes(name))) return;
  throw notOurs(
    outDir,
    `holds files that are not an nzf-build site (${entries.slice(0, 3).join(", ")}${entries.length > 3 ? ", …" : ""})`,
  );
}

/** Folders older versions of nzf-build left beside the output folder. */
function legacyLeftovers(outDir: string): { paths: string[]; interrupted: boolean } {
  const parent = dirname(outDir);
  const name = basename(outDir);
  let entries: string[] = [];
  try {
    entries = readdirSync(parent);
  } catch {
    return { paths: [], interrupted: false };
  }
  const paths = entries
    .filter((e) => e === `${name}.spare` || e.startsWith(`${name}.staging-`) || e.startsWith(`${name}.retired-`))
    .map((e) => join(parent, e));
  // A journal: a publish by the older version was cut off, and the folder may hold a mix.
  return { paths, interrupted: paths.some((p) => existsSync(join(p, "journal.json"))) };
}

/**
 * Reads the published state (call with the lock held). A link left missing by a build killed
 * between the two renames of a first publish over an older output folder is put back.
 */
export function readOutputState(outDir: string): OutputState {
  guardOutput(outDir);
  const versionsDir = versionsDirFor(outDir);
  let info: Stats | null;
  try {
    info = lstatSync(outDir);
  } catch {
    info = null;
  }
  if (info === null) {
    // Only a move cut short: the newest version was made from the older folder moved aside (v0-…).
    // A link deleted by hand (to build afresh, say) is not put back.
    const newest = readManifest(
      versionsDir,
      listVersions(versionsDir)
        .filter((id) => readManifest(versionsDir, id))
        .at(-1) ?? null,
    );
    if (newest?.base?.startsWith("v0-") && existsSync(join(versionsDir, newest.base))) {
      swapLink(outDir, newest.id);
      info = lstatSync(outDir);
    }
  }
  if (info === null) return { outDir, versionsDir, currentId: null, currentDir: null, legacy: false, trusted: true };
  if (info.isDirectory()) {
    const leftovers = legacyLeftovers(outDir);
    return { outDir, versionsDir, currentId: null, currentDir: outDir, legacy: true, trusted: !leftovers.interrupted };
  }
  const id = basename(readlinkSync(outDir));
  const dir = join(versionsDir, id);
  return existsSync(dir)
    ? { outDir, versionsDir, currentId: id, currentDir: dir, legacy: false, trusted: true }
    : { outDir, versionsDir, currentId: null, currentDir: null, legacy: false, trusted: true };
}

/** Version ids in the versions folder, oldest first. */
export function listVersions(versionsDir: string): string[] {
  let entries: string[] = [];
  try {
    entries = readdirSync(versionsDir);
  } catch {
    return [];
  }
  return entries.filter((e) => ID.test(e)).sort((a, b) => seqOf(a) - seqOf(b));
}

function newId(versionsDir: string, current: string | null): string {
  const seq = Math.max(0, seqOf(current ?? ""), ...listVersions(versionsDir).map(seqOf)) + 1;
  return `v${seq}-${Date.now().toString(36)}`;
}

export interface Target {
  id: string;
  dir: string;
  /**
   * Paths where the tree may differ from the published version, or null for a new, empty tree
   * (every file of the new site must be placed).
   */
  dirty: Set<string> | null;
}

/**
 * Where the new version is made. Creating thousands of folders is slow on a slow disk, so the
 * tree two versions back is reused when its manifests show how it differs from the published one:
 * it differs only where the two publishes since changed or removed files. Otherwise (the first
 * publishes, after a killed or failed build) a new tree is made.
 */
export function chooseTarget(state: OutputState): Target {
  const { versionsDir } = state;
  mkdirSync(versionsDir, { recursive: true });
  const id = newId(versionsDir, state.currentId);
  const current = readManifest(versionsDir, state.currentId);
  const previous = readManifest(versionsDir, current?.base ?? null);
  const reusable =
    previous?.base && previous.base !== state.currentId ? readManifest(versionsDir, previous.base) : null;
  if (current && previous && reusable) {
    const dirty = new Set([...current.changed, ...current.removed, ...previous.changed, ...previous.removed]);
    // The manifest goes first: a tree without one is never trusted again.
    unlinkSync(join(versionsDir, `${reusable.id}.json`));
    renameSync(join(versionsDir, reusable.id), join(versionsDir, id));
    return { id, dir: join(versionsDir, id), dirty };
  }
  mkdirSync(join(versionsDir, id));
  return { id, dir: join(versionsDir, id), dirty: null };
}

/** Points the output folder at a version: a new link renamed over the old one, one atomic step. */
export function swapLink(outDir: string, id: string): void {
  const temp = `${versionsDirFor(outDir)}/link-${process.pid}`;
  rmSync(temp, { force: true });
  symlinkSync(relative(dirname(outDir), join(versionsDirFor(outDir), id)), temp);
  renameSync(temp, outDir);
}

/** Removes what the versions folder holds besides the lock and the versions in `keep` (and their manifests). */
export async function removeOtherVersions(versionsDir: string, keep: string[]): Promise<void> {
  let entries: string[] = [];
  try {
    entries = readdirSync(versionsDir);
  } catch {
    return;
  }
  const kept = new Set(keep.flatMap((id) => [id, `${id}.json`]));
  const gone = entries.filter((e) => !kept.has(e) && (ID.test(e) || ID.test(e.replace(/\.json$/, ""))));
  await Promise.all(gone.map((e) => rm(join(versionsDir, e), { recursive: true, force: true })));
}

export async function removeLegacyLeftovers(outDir: string): Promise<void> {
  await Promise.all(legacyLeftovers(outDir).paths.map((p) => rm(p, { recursive: true, force: true })));
}
