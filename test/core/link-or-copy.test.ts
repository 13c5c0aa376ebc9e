/**
 * linkOrCopy: hard links where it can, copies across file systems. A build whose output folder is on
 * another disk than its work folder (dist/ on a mounted volume) failed with EXDEV before.
 */
import { existsSync } from "node:fs";
import { mkdtemp, readFile, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { linkOrCopy } from "../../src/core/fs.js";

const made: string[] = [];
async function folderIn(base: string): Promise<string> {
  const dir = await mkdtemp(join(base, "nzf-link-"));
  made.push(dir);
  return dir;
}
afterEach(async () => {
  for (const dir of made.splice(0)) await rm(dir, { recursive: true, force: true });
});

// /dev/shm is a tmpfs on Linux: another file system than the temporary folder, when both exist.
const otherDisk = existsSync("/dev/shm") ? "/dev/shm" : null;

describe("linkOrCopy", () => {
  it("hard-links on the same file system", async () => {
    const dir = await folderIn(tmpdir());
    await writeFile(join(dir, "a.js"), "console.log(1)");
    await linkOrCopy(join(dir, "a.js"), join(dir, "b.js"));
    expect((await stat(join(dir, "b.js"))).ino).toBe((await stat(join(dir, "a.js"))).ino);
  });

  it("copies across file systems, with the same bytes", async (context) => {
    const here = await folderIn(tmpdir());
    const there = otherDisk && (await folderIn(otherDisk));
    if (!there || (await stat(here)).dev === (await stat(there)).dev) return context.skip();
    await writeFile(join(here, "a.js"), "console.log(2)");
    await linkOrCopy(join(here, "a.js"), join(there, "a.js"));
    expect(await readFile(join(there, "a.js"), "utf8")).toBe("console.log(2)");
    expect((await stat(join(here, "a.js"))).nlink).toBe(1);
  });

  it("still fails on a missing source, saying which", async () => {
    const dir = await folderIn(tmpdir());
    await expect(linkOrCopy(join(dir, "missing.js"), join(dir, "b.js"))).rejects.toThrow(/missing\.js/);
  });
});
