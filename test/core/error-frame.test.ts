/**
 * Errors that know their file and line show the source there with a caret under the column, as
 * Vite and Astro do: from the file, or from the line esbuild quoted when the file is not there.
 */
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { build } from "esbuild";
import { afterAll, describe, expect, it } from "vitest";
import { compileError } from "../../src/bundle/compile-errors.js";
import { codeFrame, formatError, NzfError } from "../../src/core/errors.js";

let dir: string | undefined;
afterAll(async () => dir && rm(dir, { recursive: true, force: true }));

describe("code frames", () => {
  it("shows the lines around the one at fault with a caret under the column", async () => {
    dir = await mkdtemp(join(tmpdir(), "nzf-frame-"));
    await writeFile(join(dir, "page.tsx"), ["a", "b", "const x = props.items.map(f);", "d", "e"].join("\n"));
    const error = new NzfError("RENDER_FAILED", "templates threw", {
      location: { file: "page.tsx", line: 3, column: 17 },
    });
    expect(formatError(error, false, undefined, dir).split("\n")).toEqual([
      "[RENDER_FAILED] templates threw",
      "  page.tsx:3:17",
      "    1 | a",
      "    2 | b",
      "  > 3 | const x = props.items.map(f);",
      "      |                 ^",
      "    4 | d",
      `  hint: ${error.hint}`,
    ]);
  });

  it("falls back to the line the tool quoted, and shows nothing without one", () => {
    const quoted = codeFrame({ file: "gone.tsx", line: 12, column: 2, lineText: "\tx(" }, "/nonexistent");
    expect(quoted).toEqual(["gone.tsx:12:2", "> 12 |   x(", "     |   ^"]);
    expect(codeFrame({ file: "gone.tsx", line: 12, column: 3 }, "/nonexistent")).toEqual([]);
  });

  it("an esbuild syntax error gets its frame, once", async () => {
    dir ??= await mkdtemp(join(tmpdir(), "nzf-frame-"));
    await writeFile(join(dir, "broken.tsx"), "export const a = 1;\nexport const b = (;\n");
    const failure = await build({
      entryPoints: ["broken.tsx"],
      absWorkingDir: dir,
      write: false,
      logLevel: "silent",
    }).catch((e: unknown) => e);
    const text = formatError(compileError(failure, "The templates", "TEMPLATE_BUNDLE_FAILED"), false, undefined, dir);
    expect(text).toContain(
      '[TEMPLATE_BUNDLE_FAILED] The templates did not compile:\n  broken.tsx:2:19: Unexpected ";"',
    );
    expect(text).toContain("> 2 | export const b = (;\n      |                   ^");
    expect(text.match(/\^/g)).toHaveLength(1);
  });
});
