/**
 * The stylesheet: minified by esbuild, named by its content's hash, and kept in the work folder so a
 * new process with unchanged styles does not minify again.
 */
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { encodeEntry } from "../../src/cache/entry.js";

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
  return (await import("../../src/bundle/styles.js")).buildStylesheet;
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
    for (const bad of [
      Buffer.from("\u0000garbage{"),
      good.subarray(0, good.length - 5),
      Buffer.from(good.toString("latin1").replace("#639", "#000"), "latin1"),
    ]) {
      await writeFile(file, bad);
      const again = await (await freshBuild())(root, workDir);
      expect(again).toEqual(first);
      // Made again and kept whole.
      expect(await readFile(file)).toEqual(good);
    }
  });
});

describe("the stylesheet's problems", () => {
  it("prints each esbuild warning with its own file and line, and does not keep the sheet", async () => {
    // b.css starts on line 5 of the joined source: the warning must still name b.css's own lines
    // (esbuild notices at the end of the file, line 4, and notes where the brace was opened, line 2).
    await writeFile(join(root, "templates/styles/b.css"), ".x { margin: 0 }\n.y { color: red;\n.z { margin: 1px }\n");
    const { createMemoryLogger } = await import("../../src/core/logger.js");
    const logger = createMemoryLogger();
    const sheet = await (await freshBuild())(root, workDir, { logger });
    expect(sheet.css).toContain(".x{margin:0}");
    const warnings = logger.lines.filter((l) => l.level === "warn");
    expect(warnings).toHaveLength(1);
    expect(warnings[0]!.label).toBe("styles");
    expect(warnings[0]!.message).toBe(
      '[STYLESHEET_INVALID] templates/styles/b.css:4:1: Expected "}" to go with "{"; The unbalanced "{" is here templates/styles/b.css:2:4',
    );
    // A new process warns again: a sheet with warnings is never taken from the work folder.
    const again = createMemoryLogger();
    await (await freshBuild())(root, workDir, { logger: again });
    expect(again.lines.filter((l) => l.level === "warn")).toHaveLength(1);
  });

  it("stops the build with a coded error naming every problem when strict (CI)", async () => {
    await writeFile(join(root, "templates/styles/a.css"), "body { colr: red }\n");
    await writeFile(join(root, "templates/styles/b.css"), ".x { margin: 0 }}\n");
    const error = await (await freshBuild())(root, workDir, { strict: true }).then(
      () => null,
      (e: unknown) => e as import("../../src/core/errors.js").NzfError,
    );
    expect(error?.code).toBe("STYLESHEET_INVALID");
    expect(error?.message).toContain("templates/styles/a.css:1:8:");
    expect(error?.message).toContain("templates/styles/b.css:1:");
    expect(error?.message).toContain("2 problems");
  });

  it("a clean sheet warns about nothing, strict or not", async () => {
    const { createMemoryLogger } = await import("../../src/core/logger.js");
    const logger = createMemoryLogger();
    await (await freshBuild())(root, workDir, { logger, strict: true });
    expect(logger.lines).toEqual([]);
  });
});
