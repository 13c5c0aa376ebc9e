/**
 * generateServiceWorker: workbox-build's injectManifest over a new site that is not a folder yet
 * (staged and published files mixed), so it globs a view of links. Revisions are checked against
 * md5s computed here, not read back from the code under test.
 */
import { createHash } from "node:crypto";
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { generateServiceWorker } from "../../src/site-files/service-worker.js";
import { readCacheJson, writeCacheJson } from "../support/cache-entry.js";

const root = fileURLToPath(new URL("../..", import.meta.url));
let dir: string;
let workDir: string;

/** Writes each file at a path of its own (as staged files are), and returns where each one is. */
async function site(
  files: Record<string, string | Buffer>,
): Promise<{ files: string[]; pathOf(file: string): string }> {
  const where = new Map<string, string>();
  let n = 0;
  for (const [file, body] of Object.entries(files)) {
    const path = join(dir, "staged", String(n++), "content");
    await mkdir(dirname(path), { recursive: true });
    await writeFile(path, body);
    where.set(file, path);
  }
  return { files: [...where.keys()].sort(), pathOf: (file) => where.get(file)! };
}

const md5 = (text: string) => createHash("md5").update(text).digest("hex");
/** The injected list: workbox-build writes it as stable JSON (keys sorted, so "revision" first). */
const manifestOf = (sw: string) =>
  JSON.parse(/\[\{"revision".*?\}\]/.exec(sw)![0]) as { url: string; revision: string | null }[];

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "nzf-sw-"));
  workDir = join(dir, "work");
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe("generateServiceWorker", () => {
  it("precaches the candidates, sorted: md5 revisions for plain names, none for hashed ones, ignored files left out", async () => {
    const offline = "<!doctype html><title>Offline</title>";
    const files = await site({
      "offline.html": offline,
      "404.html": "<!doctype html><title>Not found</title>",
      "_islands/faq-ABC123.js": "console.log(1)",
      "_islands/chunks/amplify-XYZ.js": "console.log(2)",
      "_assets/site-0123456789.css": "body{}",
      "about/index.html": "<!doctype html><title>About</title>",
      "_images/a-200w.webp": "not precached",
    });
    const worker = await generateServiceWorker({ root, workDir, ...files, ignore: ["_islands/chunks/amplify-XYZ.js"] });
    expect(worker.urls).toEqual(["404.html", "_assets/site-0123456789.css", "_islands/faq-ABC123.js", "offline.html"]);
    expect(worker.text).not.toContain("self.__WB_MANIFEST");
    const manifest = manifestOf(worker.text);
    expect(manifest).toContainEqual({ url: "offline.html", revision: md5(offline) });
    expect(manifest).toContainEqual({ url: "_islands/faq-ABC123.js", revision: null });
    expect(manifest.map((entry) => entry.url)).toEqual(worker.urls);
    // The precache view is gone; only the bundled worker source is kept for the next build.
    expect((await readdir(join(workDir, "sw"))).filter((f) => f.startsWith("view-"))).toEqual([]);
  });

  it("gives the same worker for the same files, and a different one when a precached file changes", async () => {
    const first = await generateServiceWorker({
      root,
      workDir,
      ...(await site({ "offline.html": "a", "_assets/site-1.css": "x" })),
    });
    const again = await generateServiceWorker({
      root,
      workDir,
      ...(await site({ "_assets/site-1.css": "x", "offline.html": "a" })),
    });
    const changed = await generateServiceWorker({
      root,
      workDir,
      ...(await site({ "offline.html": "b", "_assets/site-1.css": "x" })),
    });
    expect(again.text).toBe(first.text);
    expect(changed.text).not.toBe(first.text);
  });

  it("reuses the last worker while the very same files are precached, and notices a file written in place", async () => {
    const files = await site({ "offline.html": "first", "_assets/site-1.css": "x" });
    // What a long-running caller keeps between builds (src/pipeline/builder.ts).
    const memory = new Map();
    const first = await generateServiceWorker({ root, workDir, ...files, memory });
    expect(await generateServiceWorker({ root, workDir, ...files, memory })).toBe(first);
    await new Promise((resolve) => setTimeout(resolve, 5));
    await writeFile(files.pathOf("offline.html"), "second");
    const changed = await generateServiceWorker({ root, workDir, ...files, memory });
    expect(changed.text).not.toBe(first.text);
    expect(manifestOf(changed.text)).toContainEqual({ url: "offline.html", revision: md5("second") });
  });

  it("a new process takes the worker kept in the work folder for the same content, and makes a new one when a file changed", async () => {
    const first = await generateServiceWorker({
      root,
      workDir,
      ...(await site({ "offline.html": "a", "_assets/site-1.css": "x" })),
    });
    const kept = (await readdir(join(workDir, "sw"))).filter((name) => /^worker-[0-9a-f]{16}\.json$/.test(name));
    expect(kept).toHaveLength(1);
    // Mark the kept worker, to tell it apart from one made again.
    const keptFile = join(workDir, "sw", kept[0]!);
    const stored = await readCacheJson<{ text: string }>(keptFile);
    expect(stored.text).toBe(first.text);
    await writeCacheJson(keptFile, { ...stored, text: `${stored.text}/*kept*/` });

    // A fresh copy of the module has nothing in memory, like a new CLI process.
    vi.resetModules();
    const fresh = (await import("../../src/site-files/service-worker.js")).generateServiceWorker;
    const same = await fresh({ root, workDir, ...(await site({ "_assets/site-1.css": "x", "offline.html": "a" })) });
    expect(same.text).toBe(`${first.text}/*kept*/`);
    expect(same.urls).toEqual(first.urls);
    const changed = await fresh({ root, workDir, ...(await site({ "offline.html": "b", "_assets/site-1.css": "x" })) });
    expect(changed.text).not.toContain("/*kept*/");
    expect(manifestOf(changed.text)).toContainEqual({ url: "offline.html", revision: md5("b") });
    // A damaged file is made again, not trusted: not JSON, or an edit its hash does not cover.
    for (const damaged of ["{", (await readFile(keptFile, "latin1")).replace("/*kept*/", "/*edit*/")]) {
      await writeFile(keptFile, damaged, "latin1");
      vi.resetModules();
      const again = await (await import("../../src/site-files/service-worker.js")).generateServiceWorker({
        root,
        workDir,
        ...(await site({ "offline.html": "a", "_assets/site-1.css": "x" })),
      });
      expect(again.text).toBe(first.text);
      await writeCacheJson(keptFile, { ...stored, text: `${stored.text}/*kept*/` });
    }
  });

  it("stops the build, naming the file, when a precached file is over the 5 MB limit", async () => {
    const files = await site({ "offline.html": "a", "_assets/site-big.css": Buffer.alloc(5 * 1024 * 1024 + 1, 32) });
    await expect(generateServiceWorker({ root, workDir, ...files })).rejects.toThrow(/site-big\.css/);
  });
});
