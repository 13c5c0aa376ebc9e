/**
 * Publishing by a link swap (src/publish/publish.ts, versions.ts, site-output.ts): what the output
 * folder shows after each publish, that unchanged files are not rewritten, that a reused tree ends up
 * exactly the new site without changing the versions it shares files with, and what happens to
 * output folders the tool did not make.
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { lstat, mkdir, mkdtemp, readdir, readFile, readlink, rm, stat, symlink, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { tmpdir } from "node:os";
import { createSiteOutput } from "../../src/publish/site-output.js";
import { discardOutput, listPublishedFiles, publishOutput } from "../../src/publish/publish.js";
import { chooseTarget, readOutputState, versionsDirFor } from "../../src/publish/versions.js";
import type { NzfError } from "../../src/core/errors.js";
import { startStaticServer } from "../../src/server/static-server.js";

let root: string;
let outDir: string;

/** Every file of a folder with its text. */
async function contentOf(dir: string): Promise<Record<string, string>> {
  const files = [...listPublishedFiles(dir)].sort();
  return Object.fromEntries(
    await Promise.all(files.map(async (f) => [f, await readFile(join(dir, f), "utf8")] as const)),
  );
}

/** Publishes a site as a build does: unchanged content is kept from the published version. */
async function publish(files: Record<string, string>, options: { fail?: boolean } = {}) {
  const state = readOutputState(outDir);
  const target = chooseTarget(state);
  const output = createSiteOutput({
    outDir,
    currentDir: state.currentDir,
    target,
    published: listPublishedFiles(state.currentDir),
  });
  for (const [file, text] of Object.entries(files)) await output.put(file, text, { unlessSame: true });
  if (options.fail) {
    await discardOutput(output);
    return { target, output };
  }
  await publishOutput(output, state);
  return { target, output };
}

const site = (n: number, extra: Record<string, string> = {}) => ({
  "index.html": `home v${n}`,
  "about/index.html": "about (never changes)",
  [`case/c${n}/index.html`]: `case ${n}`,
  "sw.js": `worker v${n}`,
  ...extra,
});

beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), "nzf-publish-"));
  outDir = join(root, "dist");
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

describe("publishing by a link swap", () => {
  it("makes the output folder a link to a complete version, first publish included", async () => {
    await publish(site(1));
    expect((await lstat(outDir)).isSymbolicLink()).toBe(true);
    expect(await readlink(outDir)).toMatch(/^dist\.versions\/v1-/);
    expect(await contentOf(outDir)).toEqual(site(1));
  });

  it("keeps unchanged files as hard links of the published ones and drops removed files", async () => {
    await publish(site(1));
    const before = await stat(join(outDir, "about/index.html"));
    const previous = await readlink(outDir);
    await publish(site(2));
    expect(await contentOf(outDir)).toEqual(site(2));
    const after = await stat(join(outDir, "about/index.html"));
    expect(after.ino, "the unchanged page is the same file, not rewritten").toBe(before.ino);
    // The previous version stays whole for a reader that resolved the link before the swap.
    expect(await contentOf(join(root, previous))).toEqual(site(1));
  });

  it("reuses the tree two versions back, which ends up exactly the new site without touching the versions it shares files with", async () => {
    for (let n = 1; n <= 3; n++) await publish(site(n, n === 2 ? { "only-in-2.txt": "x" } : {}));
    const versions = async () =>
      (await readdir(versionsDirFor(outDir))).filter((e) => /^v\d+-[0-9a-z]+$/.test(e)).sort();
    const [oldest, middle, newest] = await versions();
    const published = await readlink(outDir);
    // The page all three share changes: the reused tree must get a new file, not write into the shared one.
    const { target } = await publish(site(4, { "about/index.html": "about, changed at last" }));
    expect(target.dirty, "the tree was reused").not.toBeNull();
    expect(await contentOf(outDir)).toEqual(site(4, { "about/index.html": "about, changed at last" }));
    // The tree reused was the oldest; the two published before stay exactly as they were.
    expect(await versions()).toHaveLength(3);
    expect(await versions()).not.toContain(oldest);
    expect(await contentOf(join(versionsDirFor(outDir), newest!))).toEqual(site(3));
    expect(await contentOf(join(versionsDirFor(outDir), middle!))).toEqual(site(2, { "only-in-2.txt": "x" }));
    expect(published).toContain(newest);
    // And again, through several reuses in a row.
    for (let n = 5; n <= 8; n++) {
      await publish(site(n, n % 2 ? { "odd.txt": `odd ${n}` } : {}));
      expect(await contentOf(outDir)).toEqual(site(n, n % 2 ? { "odd.txt": `odd ${n}` } : {}));
    }
  });

  it("leaves the published site as it was when a build fails before publishing", async () => {
    await publish(site(1));
    await publish(site(2));
    await publish(site(3));
    await publish(site(4), { fail: true });
    expect(await contentOf(outDir)).toEqual(site(3));
    // The next build makes a new tree and publishes normally.
    await publish(site(5));
    expect(await contentOf(outDir)).toEqual(site(5));
  });
});

describe("output folders the tool did not make", () => {
  it("refuses a folder holding other files, and leaves them alone", async () => {
    await mkdir(outDir);
    await writeFile(join(outDir, "thesis.docx"), "years of work");
    const error = (() => {
      try {
        readOutputState(outDir);
      } catch (e) {
        return e as NzfError;
      }
    })();
    expect(error?.code).toBe("OUTPUT_NOT_OURS");
    expect(error?.message).toContain("thesis.docx");
    expect(await readFile(join(outDir, "thesis.docx"), "utf8")).toBe("years of work");
  });

  it("refuses a link that points somewhere else", async () => {
    await mkdir(join(root, "elsewhere"));
    await symlink(join(root, "elsewhere"), outDir);
    expect(() => readOutputState(outDir)).toThrow(/symbolic link/);
  });

  it("moves an older nzf-build's output folder into the versions at the first publish", async () => {
    const old = {
      "index.html": "old home",
      "sw.js": "old worker",
      "_islands/a.js": "a",
      "about/index.html": "about (never changes)",
    };
    for (const [file, text] of Object.entries(old)) {
      await mkdir(dirname(join(outDir, file)), { recursive: true });
      await writeFile(join(outDir, file), text);
    }
    await mkdir(`${outDir}.spare`);
    const about = await stat(join(outDir, "about/index.html"));
    await publish(site(1));
    expect(await contentOf(outDir)).toEqual(site(1));
    expect((await stat(join(outDir, "about/index.html"))).ino, "kept from the old folder").toBe(about.ino);
    const versions = (await readdir(versionsDirFor(outDir))).filter((e) => !e.includes("."));
    const moved = versions.find((v) => v.startsWith("v0-"))!;
    expect(await contentOf(join(versionsDirFor(outDir), moved))).toEqual(old);
  });

  it("puts the link back when a build died between the two renames of that first publish, and only then", async () => {
    await mkdir(outDir);
    await publish(site(1));
    const published = await readlink(outDir);
    // As a kill between moving the old folder away and renaming the link into place leaves it.
    await rm(outDir);
    const state = readOutputState(outDir);
    expect(await readlink(outDir)).toBe(published);
    expect(state.currentId).toBe(published.split("/").at(-1));
    // A link deleted by hand later (to build afresh) stays deleted: the next build starts from nothing.
    await publish(site(2));
    await rm(outDir);
    expect(readOutputState(outDir).currentId).toBeNull();
    await expect(lstat(outDir)).rejects.toThrow(/ENOENT/);
  });
});

describe("serving the output folder", () => {
  it("the static server follows each publish without a restart (it serves through the link)", async () => {
    await publish(site(1));
    const server = await startStaticServer({ root: outDir, host: "127.0.0.1", port: 0 });
    try {
      expect(await (await fetch(`${server.url}/`)).text()).toBe("home v1");
      await publish(site(2));
      expect(await (await fetch(`${server.url}/`)).text()).toBe("home v2");
      expect(await (await fetch(`${server.url}/case/c2/`)).text()).toBe("case 2");
      expect((await fetch(`${server.url}/case/c1/`)).status).toBe(404);
    } finally {
      await server.stop();
    }
  });
});
