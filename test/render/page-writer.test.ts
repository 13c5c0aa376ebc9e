/**
 * A render worker's page writer (src/render/worker/page-writer.ts): pages into their folders, and
 * false, not an exception, when a page cannot be written, so the build's thread writes it and says why.
 */
import { afterAll, describe, expect, it } from "vitest";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { tmpdir } from "node:os";
import { createPageWriter } from "../../src/render/worker/page-writer.js";

const dirs: string[] = [];
afterAll(() => Promise.all(dirs.map((dir) => rm(dir, { recursive: true, force: true }))));

describe("the render worker's page writer", () => {
  it("writes pages into the folders their paths name", async () => {
    const dir = await mkdtemp(join(tmpdir(), "nzf-page-writer-"));
    dirs.push(dir);
    const writer = createPageWriter(dir);
    expect(writer.write("learn/zakat/index.html", "<p>Zakat — 2.5%</p>")).toBe(true);
    expect(writer.write("learn/fidyah/index.html", "<p>Fidyah</p>")).toBe(true);
    expect(await readFile(join(dir, "learn/zakat/index.html"), "utf8")).toBe("<p>Zakat — 2.5%</p>");
    expect(await readFile(join(dir, "learn/fidyah/index.html"), "utf8")).toBe("<p>Fidyah</p>");
  });

  it("answers false when a page cannot be written", async () => {
    const dir = await mkdtemp(join(tmpdir(), "nzf-page-writer-"));
    dirs.push(dir);
    // A file where the page's folder should be.
    await writeFile(join(dir, "learn"), "not a folder");
    expect(createPageWriter(dir).write("learn/zakat/index.html", "<p>Zakat</p>")).toBe(false);
  });
});
