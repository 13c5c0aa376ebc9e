/**
 * The launcher compiles nzf-build again when one of its sources in src/ changed since lib/ was
 * compiled (bin/recompile-if-stale.mjs), so `npm run build` after an edit of src/ runs the edit.
 * Works in a copy of the project's bin/, scripts/, src/ and lib/, never touching the real lib/.
 */
import { execFile } from "node:child_process";
import { cp, readdir, readFile, stat, symlink, utimes, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, expect, it } from "vitest";
import { PROJECT_ROOT } from "../support/build-fixture.js";
import { childEnv, removeTemporary, tempDir } from "./cli-process.js";

const run = promisify(execFile);
afterAll(removeTemporary);

async function copyInstallation(): Promise<string> {
  const root = await tempDir("nzf-stale-");
  for (const entry of ["bin", "scripts", "src", "bench", "lib", "templates", "package.json"])
    await cp(join(PROJECT_ROOT, entry), join(root, entry), { recursive: true });
  // The compile reads these and never writes them.
  for (const entry of ["node_modules", "test"]) await symlink(join(PROJECT_ROOT, entry), join(root, entry), "dir");
  // Up to date to start with, whatever the project's own lib/ and src/ are: the sources two minutes
  // old, lib/ compiled one minute ago (so the edit below, 5 s after it, is still in the past when
  // lib/ is compiled again).
  const now = Date.now() / 1000;
  const sources = JSON.parse(await readFile(join(root, "lib", "cli-sources.json"), "utf8")) as string[];
  await Promise.all(sources.map((source) => utimes(join(root, source), now - 120, now - 120)));
  await utimes(join(root, "lib", "build-id"), now - 60, now - 60);
  return root;
}

async function version(root: string, count = 1) {
  return Promise.all(
    Array.from({ length: count }, () =>
      run(process.execPath, [join(root, "bin", "nzf-build"), "--version"], { env: childEnv({}) }),
    ),
  );
}

it("compiles again, once, after an edit of src/, and not when nothing changed", async () => {
  const root = await copyInstallation();
  const compiled = await readFile(join(root, "lib", "build-id"), "utf8");
  // Up to date: no compile, nothing said.
  const [quiet] = await version(root);
  expect(quiet!.stderr).toBe("");
  expect(quiet!.stdout.trim()).toMatch(/^\d+\.\d+\.\d+/);

  // An edit of a source of the CLI, newer than the compile.
  const edited = join(root, "src", "content", "routes.ts");
  const source = await readFile(edited, "utf8");
  const redirect = '"/pay/tainted_wealth/": "/pay/tainted-wealth/",';
  expect(source).toContain(redirect);
  await writeFile(edited, source.replace(redirect, `${redirect} "/pay/stale-check/": "/pay/zakat/",`));
  const later = (await stat(join(root, "lib", "build-id"))).mtime.getTime() / 1000 + 5;
  await utimes(edited, later, later);

  // Three processes at once: one compiles, the others wait for it.
  const runs = await version(root, 3);
  const said = runs.map((r) => r.stderr).join("");
  expect(said.match(/changed since nzf-build was compiled/g)).toHaveLength(1);
  expect(said).toContain("src/content/routes.ts changed since nzf-build was compiled; compiling it again");
  for (const r of runs) expect(r.stdout.trim()).toBe(quiet!.stdout.trim());
  expect(await readFile(join(root, "lib", "build-id"), "utf8")).not.toBe(compiled);
  const compiledCode = await Promise.all(
    (await readdir(join(root, "lib")))
      .filter((f) => f.endsWith(".mjs"))
      .map((f) => readFile(join(root, "lib", f), "utf8")),
  );
  expect(compiledCode.some((code) => code.includes("/pay/stale-check/"))).toBe(true);
  // Up to date again: the next start says nothing.
  const [after] = await version(root);
  expect(after!.stderr).toBe("");
});
