/**
 * The compiled bundles one test run's builds share. Each build still gets a work folder of its own
 * (its last-build record, document hashes, snapshot index, deploy files); only the folders of the
 * bundle families (src/cache/README.md) are links to one folder of the run, so a fixture's first
 * build reuses the templates, render worker, islands, scripts, preview, stylesheet, icons and
 * service worker an earlier build of the run compiled, instead of running esbuild again.
 *
 * Safe because the production cache is made for it: two nzf-build processes may build from one
 * .nzf-cache at once (src/bundle/README.md), every entry is written atomically and verified before
 * use, and one missing or corrupt is made again. Records name their files by real path
 * (src/cache/entry.ts familyFolder), so they hold after the work folder that wrote them is removed.
 *
 * The folder is made by the run (test/support/global-setup.ts, NZF_TEST_SHARED_BUNDLES) and
 * removed when it ends: no test reads bundles a run before it left. Outside such a run (the
 * variable unset) nothing is linked. A test that corrupts a bundle entry, or needs a cold
 * compile, keeps its own (`ownBundles`: all of them, or the families it changes).
 */
import { mkdir, symlink } from "node:fs/promises";
import { join } from "node:path";

/** The bundle families of a work folder (src/cache/README.md): each keeps records verified before use. */
export const SHARED_FAMILIES = ["templates-bundled", "templates", "render-worker", "islands", "styles", "icons", "sw"];

/** Which bundle families a work folder keeps to itself: all (`true`), none (`false`), or those listed. */
export type OwnBundles = boolean | readonly string[];

/**
 * Links `workDir`'s bundle families to the run's shared folder for `kind` of project: builds of
 * the project itself ("project"), or of a folder of links to it (test/cli/cli-process.ts
 * projectRoot, "linked"). A bundle record holds its inputs relative to the project folder, so the
 * two kinds keep apart: one would find the other's record a miss and compile again each time.
 */
export async function linkSharedBundles(
  workDir: string,
  kind: "project" | "linked",
  own: OwnBundles = false,
): Promise<void> {
  const run = process.env.NZF_TEST_SHARED_BUNDLES;
  if (!run || own === true) return;
  const shared = join(run, kind);
  await mkdir(workDir, { recursive: true });
  for (const family of SHARED_FAMILIES) {
    if (own && own.includes(family)) continue;
    await mkdir(join(shared, family), { recursive: true });
    await symlink(join(shared, family), join(workDir, family), "dir");
  }
}
