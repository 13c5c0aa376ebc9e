/**
 * The site's hashes for a deploy (src/deploy/site-hashes.ts): only the files the versions'
 * manifests say changed since the last deploy are read; any doubt reads the file.
 */
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { HASH_SCHEME, objectHash, type RemoteObject } from "../../src/deploy/plan.js";
import { changedSince, siteHashes } from "../../src/deploy/site-hashes.js";
import { writeManifest, type VersionManifest } from "../../src/publish/versions.js";

let dir: string;
let versions: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "nzf-site-hashes-"));
  versions = join(dir, "dist.versions");
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** A version's tree with these files, and its manifest when it has a base. */
async function version(id: string, files: Record<string, string>, manifest?: Omit<VersionManifest, "id">) {
  for (const [file, text] of Object.entries(files)) {
    await mkdir(join(versions, id, file, ".."), { recursive: true });
    await writeFile(join(versions, id, file), text);
  }
  await mkdir(join(versions, id), { recursive: true });
  if (manifest) writeManifest(versions, { id, ...manifest });
  return join(versions, id);
}

const hashOf = (text: string, key: string) => objectHash(Buffer.from(text), key);

describe("changedSince", () => {
  it("gathers the changed and removed files of every version back to the deployed one", async () => {
    const v1 = await version("v1-a", {}, { base: null, changed: [], removed: [] });
    await version("v2-b", {}, { base: "v1-a", changed: ["a.html"], removed: ["gone.html"] });
    const v3 = await version("v3-c", {}, { base: "v2-b", changed: ["b.html"], removed: [] });
    expect([...(changedSince(v3, v1) ?? [])].sort()).toEqual(["a.html", "b.html", "gone.html"]);
  });

  it("is null for the version deployed last: a file edited in it since has no manifest to say so", async () => {
    const v1 = await version("v1-a", {}, { base: null, changed: [], removed: [] });
    expect(changedSince(v1, v1)).toBeNull();
  });

  it("is null when the chain breaks: a manifest missing, or the deployed version in another folder", async () => {
    const v1 = await version("v1-a", {});
    await version("v2-b", {}); // no manifest: a tree nothing vouches for
    const v3 = await version("v3-c", {}, { base: "v2-b", changed: ["b.html"], removed: [] });
    expect(changedSince(v3, v1)).toBeNull();
    expect(changedSince(v3, join(dir, "elsewhere.versions", "v1-a"))).toBeNull();
    // The last deploy's version is not behind this one (removed since, or a newer one).
    expect(changedSince(v3, join(versions, "v9-z"))).toBeNull();
  });
});

describe("siteHashes", () => {
  const keys = ["about/index.html", "index.html", "news/index.html"];
  async function twoVersions() {
    const v1 = await version("v1-a", { "index.html": "home", "about/index.html": "about", "news/index.html": "news" });
    const v2 = await version(
      "v2-b",
      { "index.html": "home", "about/index.html": "about", "news/index.html": "news, edited" },
      { base: "v1-a", changed: ["news/index.html"], removed: [] },
    );
    const objects: Record<string, RemoteObject> = Object.fromEntries(
      ["index.html", "about/index.html", "news/index.html"].map((key) => [
        key,
        { hash: hashOf(key === "index.html" ? "home" : key === "news/index.html" ? "news" : "about", key) },
      ]),
    );
    return { v1, v2, objects };
  }

  it("reads only the files changed since the last deploy; the others keep its hashes", async () => {
    const { v1, v2, objects } = await twoVersions();
    // A byte changed behind the build's back is not seen: proof that the file was not read.
    await writeFile(join(v2, "about/index.html"), "about, not read");
    const result = await siteHashes(v2, keys, HASH_SCHEME, { site: { dir: v1, scheme: HASH_SCHEME }, objects });
    expect(result.read).toBe(1);
    expect(result.files).toEqual([
      { key: "about/index.html", hash: hashOf("about", "about/index.html") },
      { key: "index.html", hash: hashOf("home", "index.html") },
      { key: "news/index.html", hash: hashOf("news, edited", "news/index.html") },
    ]);
  });

  it("reads every file without a record, with another scheme, or past a broken chain", async () => {
    const { v1, v2, objects } = await twoVersions();
    const all = {
      files: [
        { key: "about/index.html", hash: hashOf("about", "about/index.html") },
        { key: "index.html", hash: hashOf("home", "index.html") },
        { key: "news/index.html", hash: hashOf("news, edited", "news/index.html") },
      ],
      read: 3,
    };
    expect(await siteHashes(v2, keys, HASH_SCHEME, null)).toEqual(all);
    expect(await siteHashes(v2, keys, HASH_SCHEME, { objects })).toEqual(all);
    expect(await siteHashes(v2, keys, HASH_SCHEME, { site: { dir: v1, scheme: "other-rules" }, objects })).toEqual(all);
    await rm(join(versions, "v2-b.json"));
    expect(await siteHashes(v2, keys, HASH_SCHEME, { site: { dir: v1, scheme: HASH_SCHEME }, objects })).toEqual(all);
  });

  it("reads a file the record lacks, marks retired or holds without a hash", async () => {
    const { v1, v2, objects } = await twoVersions();
    const { "index.html": _home, ...withoutHome } = objects;
    const record = (changes: Record<string, RemoteObject>) => ({
      site: { dir: v1, scheme: HASH_SCHEME },
      objects: { ...withoutHome, ...changes },
    });
    expect((await siteHashes(v2, keys, HASH_SCHEME, record({}))).read).toBe(2);
    const retired = { hash: hashOf("home", "index.html"), retiredAt: 1 };
    expect((await siteHashes(v2, keys, HASH_SCHEME, record({ "index.html": retired }))).read).toBe(2);
    expect((await siteHashes(v2, keys, HASH_SCHEME, record({ "index.html": { hash: null } }))).read).toBe(2);
  });
});
