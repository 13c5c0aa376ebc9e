/**
 * The hash of each file of the published site (./plan.ts objectHash), what the plan compares with
 * the bucket. Reading and hashing every file (2,000 pages and their images) was a quarter of the
 * deploy of one changed page, though nearly all of them are the bytes the last deploy hashed: a
 * version shares its unchanged files with the one it was made from (hard links).
 *
 * The build says which files it changed: each version's manifest (src/publish/versions.ts) lists
 * the files that differ from its base. Walking the manifests from the deployed version back to the
 * version the last deploy from this machine sent (./last-deploy.ts) gives every file that may
 * differ since; each other file has the hash that deploy recorded for it, and is not read. Any
 * doubt means reading: no record, a record of another bucket or of hashes made with other header
 * rules (HASH_SCHEME), a manifest missing on the way (a version removed, a folder made by hand), the
 * same version as the last deploy (only a new build's version has a manifest vouching for it), a
 * file the record does not have or has as retired.
 */
import { readFile } from "node:fs/promises";
import { basename, dirname, join } from "node:path";
import pLimit from "p-limit";
import { readManifest } from "../publish/versions.js";
import { objectHash, type LocalFile, type RemoteObject } from "./plan.js";

/** The version a deploy sent, as its record keeps it. */
export interface DeployedSite {
  /** The version's folder (`<out>.versions/<id>`, the link resolved). */
  dir: string;
  /** HASH_SCHEME when the deploy hashed it. */
  scheme: string;
}

/** Versions between two deploys further apart than this are read in full (a kept version is three at most). */
const MAX_STEPS = 10;

/**
 * The files that may differ between the version in `siteDir` and the version in `deployedDir`, by
 * the manifests from the first back to the second; null when the chain cannot be followed.
 */
export function changedSince(siteDir: string, deployedDir: string): Set<string> | null {
  const versionsDir = dirname(siteDir);
  if (dirname(deployedDir) !== versionsDir) return null;
  const target = basename(deployedDir);
  // The very version deployed before, deployed again (by hand, or a dry run after an edit): no
  // manifest says what happened to it since, and a file edited in place keeps its name, so read all.
  if (basename(siteDir) === target) return null;
  const changed = new Set<string>();
  let id = basename(siteDir);
  for (let steps = 0; id !== target; steps++) {
    const manifest = steps < MAX_STEPS ? readManifest(versionsDir, id) : null;
    if (!manifest?.base) return null;
    for (const file of [...manifest.changed, ...manifest.removed]) changed.add(file);
    id = manifest.base;
  }
  return changed;
}

export interface SiteHashes {
  files: LocalFile[];
  /** How many files were read and hashed (the others had the last deploy's hash). */
  read: number;
}

/**
 * The site's files (`keys`) with their hashes. `last` is the last deploy's record for this bucket:
 * the version it sent and the objects it left.
 */
export async function siteHashes(
  siteDir: string,
  keys: string[],
  scheme: string,
  last: { site?: DeployedSite; objects: Readonly<Record<string, RemoteObject>> } | null,
): Promise<SiteHashes> {
  const changed = last?.site && last.site.scheme === scheme ? changedSince(siteDir, last.site.dir) : null;
  const recorded = (key: string): string | null => {
    if (!changed || changed.has(key) || !Object.hasOwn(last!.objects, key)) return null;
    const object = last!.objects[key]!;
    return object.retiredAt === undefined ? object.hash : null;
  };
  const limit = pLimit(16);
  let read = 0;
  const files = await Promise.all(
    keys.map((key) => {
      const hash = recorded(key);
      if (hash) return { key, hash };
      read++;
      return limit(async () => ({ key, hash: objectHash(await readFile(join(siteDir, key)), key) }));
    }),
  );
  return { files, read };
}
