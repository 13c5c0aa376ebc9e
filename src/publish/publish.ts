/**
 * Publishing: the output folder (`dist`) is a symbolic link to a complete version of the site in
 * `<out>.versions/<id>/` (src/publish/versions.ts). A build makes the new version beside the
 * published one, nobody serving it (src/publish/site-output.ts), then publishes it by renaming a new
 * link over the old one. rename() is atomic: at every instant, across a kill -9 at any moment,
 * `dist` is the complete previous site or the complete new one. A reader resolves the link once per
 * path it opens, so anything that serves or syncs `dist` (the static server, `aws s3 sync dist`)
 * reads through the link.
 *
 * Nothing needs undoing after a failure or a crash: until the rename, only the unpublished tree was
 * touched, and it is discarded (or, after a kill, removed by the next publish). The build's lock
 * (src/publish/output-lock.ts) makes sure one build at a time writes the versions.
 *
 * A first publish over an output folder made by an older nzf-build (a real folder, not a link) moves
 * that folder into the versions and puts the link in its place: two renames, between which (an instant,
 * once) the output folder does not exist; a build killed there has the link put back by the next one
 * (readOutputState).
 */
import { readdirSync, renameSync, type Dirent } from "node:fs";
import { join } from "node:path";
import { NzfError } from "../core/errors.js";
import type { SiteOutput } from "./site-output.js";
import {
  removeLegacyLeftovers,
  removeOtherVersions,
  readManifest,
  swapLink,
  writeManifest,
  type OutputState,
} from "./versions.js";

/** The files of a published site, relative to it; empty when there is none. */
export function listPublishedFiles(dir: string | null): Set<string> {
  const files = new Set<string>();
  if (!dir) return files;
  // Synchronous on purpose: a walk of 2,000 folders finishes sooner than through the thread pool.
  const walk = (sub: string): void => {
    let entries: Dirent[];
    try {
      entries = readdirSync(join(dir, sub), { withFileTypes: true });
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

/** Completes the new version and makes it the published one. */
export async function publishOutput(
  output: SiteOutput,
  state: OutputState,
): Promise<{ placed: number; removed: number }> {
  const { id } = output.target;
  const changed = output.changed();
  const removed = output.removed();
  let base = state.currentId;
  try {
    output.finish();
    if (state.legacy) base = `v0-${Date.now().toString(36)}`;
    writeManifest(state.versionsDir, { id, base, changed, removed });
    if (state.legacy) renameSync(state.outDir, join(state.versionsDir, base!));
    swapLink(state.outDir, id);
  } catch (error) {
    throw new NzfError(
      "PUBLISH_FAILED",
      `The new site could not be published to ${state.outDir}; the previous site is still published`,
      { subject: state.outDir, cause: error },
    );
  }
  // Kept: the new version, the one before (readers mid-request) and the one before that (the next build reuses it).
  const keep = [id, base, readManifest(state.versionsDir, base)?.base].filter((v): v is string => Boolean(v));
  void removeOtherVersions(state.versionsDir, keep).catch(() => undefined);
  if (state.legacy) void removeLegacyLeftovers(state.outDir).catch(() => undefined);
  return { placed: changed.length, removed: removed.length };
}

/** Removes the tree of a version that will not be published (a build that failed). */
export async function discardOutput(output: SiteOutput): Promise<void> {
  const { rm } = await import("node:fs/promises");
  await rm(output.target.dir, { recursive: true, force: true });
}
