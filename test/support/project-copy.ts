/**
 * A copy of the project's sources (templates, src, package files) in a temporary folder, with the
 * project's node_modules linked in: a test edits a template, an island or the stylesheet there and
 * builds it with `root` set to the copy, never touching the real sources.
 */
import { cp, mkdtemp, rm, symlink } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PROJECT_ROOT } from "./build-fixture.js";

export interface ProjectCopy {
  root: string;
  cleanup(): Promise<void>;
}

export async function copyProject(): Promise<ProjectCopy> {
  const root = await mkdtemp(join(tmpdir(), "nzf-project-"));
  for (const entry of ["templates", "src", "assets", "package.json", "package-lock.json", "tsconfig.json"]) {
    await cp(join(PROJECT_ROOT, entry), join(root, entry), { recursive: true });
  }
  await symlink(join(PROJECT_ROOT, "node_modules"), join(root, "node_modules"), "dir");
  return { root, cleanup: () => rm(root, { recursive: true, force: true }) };
}
