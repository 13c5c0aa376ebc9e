/**
 * The image cache's index of source hashes (sources.json) keeps only the sources the last build
 * looked up: it used to keep every file ever built from, and test fixtures in temporary folders had
 * grown it to 6,000 entries that every build read.
 */
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ImageCache, sha256 } from "../../src/images/cache.js";
import { readCacheJson } from "../support/cache-entry.js";

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "nzf-image-index-"));
  await writeFile(join(dir, "a.jpg"), "first image");
  await writeFile(join(dir, "b.jpg"), "second image");
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const indexed = async () =>
  Object.keys(await readCacheJson(join(dir, "cache", "sources.json"))).map((path) => path.slice(dir.length + 1));

describe("ImageCache's source index", () => {
  it("hashes each source once, and keeps only the sources the last build used", async () => {
    const first = new ImageCache(join(dir, "cache"));
    await first.open();
    expect((await first.sourceHash(join(dir, "a.jpg"))).hash).toBe(sha256("first image"));
    await first.sourceHash(join(dir, "b.jpg"));
    await first.close();
    expect(await indexed()).toEqual(["a.jpg", "b.jpg"]);

    const second = new ImageCache(join(dir, "cache"));
    await second.open();
    // From the index: no bytes read.
    expect(await second.sourceHash(join(dir, "a.jpg"))).toEqual({ hash: sha256("first image") });
    await second.close();
    expect(await indexed()).toEqual(["a.jpg"]);
  });
});
