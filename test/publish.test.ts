/**
 * Publishing by renaming changed files into place (src/publish/publish.ts): what ends up in the
 * published folder, and that a failure or a crash part-way leaves the previous site exactly as it was.
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { link, mkdir, mkdtemp, readdir, readFile, rename, rm, stat, writeFile } from "node:fs/promises";
import { existsSync } from "node:fs";
import { dirname, join } from "node:path";
import { tmpdir } from "node:os";
import { createSiteOutput, type SiteOutput } from "../src/publish/site-output.js";
import { listPublishedFiles, planPublish, publishOutput, recoverInterruptedPublish, runSteps, stagingDirFor } from "../src/publish/publish.js";
import { SpareFiles, spareDirFor } from "../src/publish/spares.js";

let root: string;
let outDir: string;

/** Every file of a folder with its text, for before/after comparisons. */
async function snapshotOf(dir: string): Promise<Record<string, string>> {
  const files = [...listPublishedFiles(dir)].sort();
  return Object.fromEntries(await Promise.all(files.map(async (f) => [f, await readFile(join(dir, f), "utf8")] as const)));
}

async function writeSite(files: Record<string, string>): Promise<void> {
  for (const [file, text] of Object.entries(files)) {
    await mkdir(dirname(join(outDir, file)), { recursive: true });
    await writeFile(join(outDir, file), text);
  }
}

const OLD_SITE = {
  "index.html": "home v1",
  "about/index.html": "about v1",
  "case/old-case/index.html": "old case",
  "_islands/faq-AAAA.js": "faq code",
  "sw.js": "worker v1",
};

/** The next site: home changes, about stays, the old case goes, a new case and a new bundle arrive. */
async function nextSite(scanned: string[] = []): Promise<SiteOutput> {
  const output = await createSiteOutput({ stagingDir: stagingDirFor(outDir), outDir, published: listPublishedFiles(outDir), inspect: (file) => scanned.push(file) });
  await output.put("index.html", "home v2");
  output.keep("about/index.html");
  await output.put("case/new-case/index.html", "new case");
  const bundle = join(root, "bundle-BBBB.js");
  await writeFile(bundle, "new faq code");
  await output.adopt("_islands/faq-BBBB.js", bundle, { hashedName: true });
  await output.put("sw.js", "worker v1", { unlessSame: true });
  return output;
}

const NEXT_SITE = {
  "index.html": "home v2",
  "about/index.html": "about v1",
  "case/new-case/index.html": "new case",
  "_islands/faq-BBBB.js": "new faq code",
  "sw.js": "worker v1",
};

beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), "nzf-publish-"));
  outDir = join(root, "dist");
  await writeSite(OLD_SITE);
});

afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

describe("publishOutput", () => {
  it("leaves exactly the new site: changed files replaced, kept files untouched, removed files and their empty folders gone", async () => {
    const aboutBefore = await stat(join(outDir, "about/index.html"));
    const scanned: string[] = [];
    const output = await nextSite(scanned);
    expect(output.staged().map((s) => s.file).sort()).toEqual(["_islands/faq-BBBB.js", "case/new-case/index.html", "index.html"]);
    const result = await publishOutput(output);
    expect(result).toEqual({ placed: 3, removed: 2 });
    expect(await snapshotOf(outDir)).toEqual(NEXT_SITE);
    // Kept means not rewritten: the same file, not a copy.
    expect((await stat(join(outDir, "about/index.html"))).ino).toBe(aboutBefore.ino);
    expect(existsSync(join(outDir, "case/old-case")), "the removed page's folder").toBe(false);
    expect(existsSync(join(outDir, "case")), "a folder that still has a page").toBe(true);
    // New text files were shown to the secret scan; the kept and unchanged ones were not.
    expect(scanned.sort()).toEqual(["_islands/faq-BBBB.js", "case/new-case/index.html", "index.html"]);
  });

  it("publishes into an output folder that does not exist yet", async () => {
    await rm(outDir, { recursive: true });
    const output = await createSiteOutput({ stagingDir: stagingDirFor(outDir), outDir, published: listPublishedFiles(outDir) });
    await output.put("index.html", "first");
    await output.put("blog/a/index.html", "article");
    await publishOutput(output);
    expect(await snapshotOf(outDir)).toEqual({ "index.html": "first", "blog/a/index.html": "article" });
  });

  it("stages a first site as a tree and publishes it by renaming that one folder, into a missing or empty output folder", async () => {
    for (const before of ["missing", "empty"] as const) {
      await rm(outDir, { recursive: true });
      if (before === "empty") await mkdir(outDir);
      const stagingDir = stagingDirFor(outDir);
      const output = await createSiteOutput({ stagingDir, outDir, published: listPublishedFiles(outDir), tree: true });
      await output.put("index.html", "first");
      await output.put("blog/a/index.html", "article");
      const bundle = join(root, "bundle-CCCC.js");
      await writeFile(bundle, "code");
      await output.adopt("_islands/app-CCCC.js", bundle, { hashedName: true });
      // Staged where it will be published, inside the staging folder: nothing in the output folder yet.
      expect(output.pathOf("blog/a/index.html")).toBe(join(stagingDir, "site", "blog/a/index.html"));
      expect(existsSync(join(outDir, "index.html"))).toBe(false);
      const treeFolder = await stat(join(stagingDir, "site", "blog"));
      expect(await publishOutput(output)).toEqual({ placed: 3, removed: 0 });
      expect(await snapshotOf(outDir)).toEqual({ "index.html": "first", "blog/a/index.html": "article", "_islands/app-CCCC.js": "code" });
      // Renamed, not rebuilt: the published folder is the one that was staged.
      expect((await stat(join(outDir, "blog"))).ino, before).toBe(treeFolder.ino);
    }
  });

  it("publishes a tree file by file when the output folder stopped being empty meanwhile", async () => {
    await rm(outDir, { recursive: true });
    const output = await createSiteOutput({ stagingDir: stagingDirFor(outDir), outDir, published: listPublishedFiles(outDir), tree: true });
    await output.put("index.html", "first");
    await output.put("blog/a/index.html", "article");
    // Something made a folder in the output folder after the build listed it as empty.
    await mkdir(join(outDir, "uploads"), { recursive: true });
    await publishOutput(output);
    expect(await snapshotOf(outDir)).toEqual({ "index.html": "first", "blog/a/index.html": "article" });
    expect(existsSync(join(outDir, "uploads"))).toBe(true);
  });

  it("puts the previous site back when a step fails part-way, and reports it", async () => {
    const before = await snapshotOf(outDir);
    const output = await nextSite();
    // The new case is staged; take its staged file away so its rename fails after earlier steps ran.
    const newCase = output.staged().find((s) => s.file === "case/new-case/index.html")!;
    await rm(newCase.path);
    await expect(publishOutput(output)).rejects.toMatchObject({ code: "PUBLISH_FAILED", message: expect.stringContaining("the previous site was put back") });
    expect(await snapshotOf(outDir)).toEqual(before);
  });

  it("the next build rolls back a publish that a crash interrupted, and removes its staging folder", async () => {
    const before = await snapshotOf(outDir);
    const output = await nextSite();
    const steps = await planPublish(output);
    // The process dies after three steps: the new bundle, the new case and the new home page are in place.
    runSteps(outDir, output.stagingDir, steps.slice(0, 3));
    expect(await snapshotOf(outDir)).not.toEqual(before);
    await recoverInterruptedPublish(outDir);
    expect(await snapshotOf(outDir)).toEqual(before);
    expect((await readdir(root)).filter((e) => e.startsWith("dist.staging-"))).toEqual([]);
  });

  it("a crash after the last step but before the commit is rolled back too (the journal was not removed)", async () => {
    const before = await snapshotOf(outDir);
    const output = await nextSite();
    const steps = await planPublish(output);
    runSteps(outDir, output.stagingDir, steps);
    expect(await snapshotOf(outDir)).toEqual(NEXT_SITE);
    await recoverInterruptedPublish(outDir);
    expect(await snapshotOf(outDir)).toEqual(before);
  });

  it("rolls back a publish interrupted under an earlier version, whose journal kept every backup in old/", async () => {
    const before = await snapshotOf(outDir);
    const output = await nextSite();
    const steps = await planPublish(output);
    // What that version did: each replaced file moved to old/<index>, then the staged file into place.
    for (const step of steps.slice(0, 3)) {
      if (existsSync(join(outDir, step.file))) await rename(join(outDir, step.file), join(output.stagingDir, "old", String(step.index)));
      await mkdir(dirname(join(outDir, step.file)), { recursive: true });
      if (step.from) await rename(step.from, join(outDir, step.file));
    }
    await writeFile(join(output.stagingDir, "journal.json"), JSON.stringify({ outDir, steps }));
    expect(await snapshotOf(outDir)).not.toEqual(before);
    await recoverInterruptedPublish(outDir);
    expect(await snapshotOf(outDir)).toEqual(before);
  });

  it("leaves alone the staging folder of another build that is still running", async () => {
    const other = `${outDir}.staging-${process.ppid}-1`;
    await mkdir(join(other, "new"), { recursive: true });
    await recoverInterruptedPublish(outDir);
    expect(existsSync(other)).toBe(true);
  });

  it("keeps replaced pages as spare files and writes the next build's pages into them, with nothing of the old content left", async () => {
    const spares = () => new SpareFiles(spareDirFor(outDir));
    const first = await createSiteOutput({ stagingDir: stagingDirFor(outDir), outDir, published: listPublishedFiles(outDir), spares: spares() });
    await first.put("index.html", "home v2");
    await first.put("about/index.html", "about v2");
    for (const file of ["case/old-case/index.html", "_islands/faq-AAAA.js", "sw.js"]) first.keep(file);
    await publishOutput(first);
    // The two replaced pages are the spares now, taken over as one folder.
    const kept = await readdir(spareDirFor(outDir));
    expect(kept).toHaveLength(1);
    expect(await readdir(join(spareDirFor(outDir), kept[0]!))).toHaveLength(2);

    const second = await createSiteOutput({ stagingDir: stagingDirFor(outDir), outDir, published: listPublishedFiles(outDir), spares: spares() });
    await second.put("index.html", "v3");
    await second.put("about/index.html", "a much longer about page, version 3");
    await second.put("case/new-case/index.html", "new case");
    for (const file of ["case/old-case/index.html", "_islands/faq-AAAA.js", "sw.js"]) second.keep(file);
    const staged = second.staged();
    expect(staged.filter((s) => s.path.startsWith(spareDirFor(outDir))), "two pages written into spares").toHaveLength(2);
    await publishOutput(second);
    expect(await snapshotOf(outDir)).toMatchObject({ "index.html": "v3", "about/index.html": "a much longer about page, version 3", "case/new-case/index.html": "new case" });
    // The used-up folder goes when the spares are next read; the two pages the second publish replaced are there.
    const third = new SpareFiles(spareDirFor(outDir));
    const folders = await readdir(spareDirFor(outDir));
    expect(folders).toHaveLength(1);
    expect(await readdir(join(spareDirFor(outDir), folders[0]!))).toHaveLength(2);
    expect(third.write("x")).not.toBeNull();
  });

  it("never writes into a spare that something linked to after it was kept", async () => {
    const first = await createSiteOutput({ stagingDir: stagingDirFor(outDir), outDir, published: listPublishedFiles(outDir), spares: new SpareFiles(spareDirFor(outDir)) });
    await first.put("index.html", "home v2");
    for (const file of ["about/index.html", "case/old-case/index.html", "_islands/faq-AAAA.js", "sw.js"]) first.keep(file);
    await publishOutput(first);
    const [folder] = await readdir(spareDirFor(outDir));
    const [spare] = await readdir(join(spareDirFor(outDir), folder!));
    // Someone keeps the old home page by a hard link (a backup made with cp -al, say).
    const backup = join(root, "home-backup.html");
    await link(join(spareDirFor(outDir), folder!, spare!), backup);
    const spares = new SpareFiles(spareDirFor(outDir));
    expect(spares.write("home v3")).toBeNull();
    expect(await readFile(backup, "utf8")).toBe("home v1");
  });

  it("makes no folder of spares beside the output folder for a publish that replaced nothing", async () => {
    const spares = new SpareFiles(spareDirFor(outDir));
    expect(spares.keep([])).toBe(0);
    expect(existsSync(spareDirFor(outDir))).toBe(false);
  });

  it("never makes a spare of a file that shares its content with a cache (a hard link)", async () => {
    const cached = join(root, "image-cache.webp");
    await writeFile(cached, "image bytes");
    const output = await createSiteOutput({ stagingDir: stagingDirFor(outDir), outDir, published: listPublishedFiles(outDir), spares: new SpareFiles(spareDirFor(outDir)) });
    await output.adopt("_images/a.webp", cached, { hashedName: true });
    for (const file of Object.keys(OLD_SITE)) output.keep(file);
    await publishOutput(output);
    // The next site drops the image: it is removed from dist/, and the cache's copy is untouched.
    const next = await createSiteOutput({ stagingDir: stagingDirFor(outDir), outDir, published: listPublishedFiles(outDir), spares: new SpareFiles(spareDirFor(outDir)) });
    for (const file of Object.keys(OLD_SITE)) next.keep(file);
    await publishOutput(next);
    expect(existsSync(join(outDir, "_images/a.webp"))).toBe(false);
    expect(existsSync(spareDirFor(outDir)) ? await readdir(spareDirFor(outDir)) : []).toEqual([]);
    const again = await createSiteOutput({ stagingDir: stagingDirFor(outDir), outDir, published: listPublishedFiles(outDir), spares: new SpareFiles(spareDirFor(outDir)) });
    await again.put("index.html", "overwrites no cache");
    expect(await readFile(cached, "utf8")).toBe("image bytes");
  });
});
