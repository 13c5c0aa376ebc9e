/**
 * The stylesheet: minified by esbuild, named by its content's hash, and kept in the work folder so a
 * new process with unchanged styles does not minify again.
 */
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { encodeEntry } from "../src/cache/entry.js";

let root: string;
let workDir: string;

beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), "nzf-styles-"));
  workDir = join(root, ".work");
  await mkdir(join(root, "templates/styles"), { recursive: true });
  await writeFile(join(root, "templates/styles/a.css"), "body {\n  color: #663399;\n}\n");
  await writeFile(join(root, "templates/styles/b.css"), ".x  { margin : 0px }\n");
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

/** A fresh copy of the module, with nothing in memory: what a new CLI process has. */
async function freshBuild() {
  vi.resetModules();
  return (await import("../src/render/styles.js")).buildStylesheet;
}

describe("buildStylesheet", () => {
  it("minifies the files in name order under a content-hashed name", async () => {
    const sheet = await (await freshBuild())(root, workDir);
    expect(sheet.css).toBe("body{color:#639}.x{margin:0}\n");
    expect(sheet.url).toMatch(/^\/_assets\/site-[0-9a-f]{10}\.css$/);
    expect(sheet.file).toBe(sheet.url.slice(1));
  });

  it("a new process takes the sheet kept in the work folder, and minifies again when a file changed", async () => {
    const first = await (await freshBuild())(root, workDir);
    const kept = await readdir(join(workDir, "styles"));
    expect(kept).toHaveLength(1);
    // Mark the kept sheet (a well-formed cache entry), to tell it apart from one minified again.
    await writeFile(join(workDir, "styles", kept[0]!), encodeEntry(`${first.css}/*kept*/`));
    const again = await (await freshBuild())(root, workDir);
    expect(again.css).toBe(`${first.css}/*kept*/`);

    await writeFile(join(root, "templates/styles/b.css"), ".x { margin: 1px }\n");
    const changed = await (await freshBuild())(root, workDir);
    expect(changed.css).toBe("body{color:#639}.x{margin:1px}\n");
    expect(await readFile(join(workDir, "styles", kept[0]!), "utf8")).toContain("/*kept*/");
  });

  it("never uses a kept sheet whose bytes are not the ones written: garbage, truncated or edited", async () => {
    const first = await (await freshBuild())(root, workDir);
    const [name] = await readdir(join(workDir, "styles"));
    const file = join(workDir, "styles", name!);
    const good = await readFile(file);
    for (const bad of [Buffer.from("\u0000garbage{"), good.subarray(0, good.length - 5), Buffer.from(good.toString("latin1").replace("#639", "#000"), "latin1")]) {
      await writeFile(file, bad);
      const again = await (await freshBuild())(root, workDir);
      expect(again).toEqual(first);
      // Made again and kept whole.
      expect(await readFile(file)).toEqual(good);
    }
  });
});
