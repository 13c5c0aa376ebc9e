/**
 * Kept esbuild contexts (src/bundle/bundler-contexts.ts): a rebuild sees edits made since the last
 * one, and changed options make a new context.
 */
import { afterAll, describe, expect, it } from "vitest";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { tmpdir } from "node:os";
import { BundlerContexts } from "../../src/bundle/bundler-contexts.js";

const dirs: string[] = [];
afterAll(async () => {
  await Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true })));
});

describe("BundlerContexts", () => {
  it("rebuilds with the files as they are now, and with new options when they change", async () => {
    const dir = await mkdtemp(join(tmpdir(), "nzf-contexts-"));
    dirs.push(dir);
    await writeFile(join(dir, "part.js"), `export const word = "first";\n`);
    await writeFile(join(dir, "entry.js"), `import { word } from "./part.js";\nconsole.log(word);\n`);
    const contexts = new BundlerContexts();
    const options = {
      absWorkingDir: dir,
      entryPoints: ["entry.js"],
      bundle: true,
      write: false,
      format: "esm" as const,
      logLevel: "silent" as const,
    };
    try {
      const text = async (define: Record<string, string> = {}) =>
        (await contexts.build("test", { ...options, define })).outputFiles![0]!.text;
      expect(await text()).toContain('"first"');
      // An imported file edited between two builds of the same context.
      await writeFile(join(dir, "part.js"), `export const word = "second";\n`);
      const second = await text();
      expect(second).toContain('"second"');
      expect(second).not.toContain('"first"');
      // Other options: a new context, with the new define applied.
      await writeFile(join(dir, "entry.js"), `import { word } from "./part.js";\nconsole.log(word, FLAG);\n`);
      expect(await text({ FLAG: '"on"' })).toContain('"on"');
    } finally {
      await contexts.dispose();
    }
  });
});
