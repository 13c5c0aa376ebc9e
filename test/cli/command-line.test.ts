/**
 * Mistakes on the command line, through the compiled CLI in a new process: every one is refused
 * in the house style (`[CONFIG_INVALID] message (subject)`, a hint), once, with exit code 1 and
 * nothing built, and names the command or flag that was probably meant.
 */
import { existsSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { cli, projectRoot, removeTemporary } from "./cli-process.js";

afterAll(removeTemporary);

/** Runs `args` in a fresh project folder; the refusal must come before anything is built. */
async function refused(args: string[]): Promise<string> {
  const root = await projectRoot();
  const run = await cli(["--root", root, ...args]);
  expect(run.code, run.output).toBe(1);
  expect(existsSync(join(root, "dist")), "nothing is built").toBe(false);
  // One error, in the house style, and nothing of commander's own.
  expect(run.output.match(/^\[[A-Z_]+\] /gm), run.output).toHaveLength(1);
  expect(run.output).toMatch(/^ {2}hint: /m);
  expect(run.output).not.toMatch(/^error: |\(Did you mean/m);
  return run.output;
}

describe.concurrent("the command line", () => {
  it("-v suggests -V", async () => {
    expect(await refused(["-v"])).toContain(
      "[CONFIG_INVALID] -v is not an option of nzf-build: did you mean -V (--version)? (-v)",
    );
  });

  it("an unknown long flag suggests the nearest, the typed command's own first", async () => {
    expect(await refused(["--outt", "x"])).toContain("--outt is not an option of nzf-build: did you mean --out?");
    expect(await refused(["preview", "--prot", "4000"])).toContain(
      "--prot is not an option of nzf-build preview: did you mean --port?",
    );
    expect(await refused(["fetch", "--ednpoint", "http://127.0.0.1:9/api/v2"])).toContain(
      "--ednpoint is not an option of nzf-build fetch: did you mean --endpoint?",
    );
  });

  it("an unknown flag with nothing near is named without a guess", async () => {
    const output = await refused(["fetch", "--bogus"]);
    expect(output).toContain("[CONFIG_INVALID] --bogus is not an option of nzf-build fetch. (--bogus)");
    expect(output).toContain("nzf-build --help lists the commands and options");
  });

  it("a flag without its value says which value it needs", async () => {
    expect(await refused(["build", "--out"])).toContain(
      "[CONFIG_INVALID] --out needs a value (--out <dir>), and none was given. (--out)",
    );
  });

  it("stray words after a command are refused, not ignored", async () => {
    expect(await refused(["build", "extra"])).toContain(
      '[CONFIG_INVALID] nzf-build build takes options only, and was given the word "extra". (extra)',
    );
    expect(await refused(["build", "fetch"])).toContain("commands are not combined; did you mean nzf-build fetch?");
    expect(await refused(["deploy", "dry-run"])).toContain(
      'nzf-build deploy takes options only, and was given the word "dry-run": did you mean --dry-run?',
    );
  });

  it("help and the version still end with 0", async () => {
    const [help, version, topic] = await Promise.all([cli(["--help"]), cli(["-V"]), cli(["help", "preview"])]);
    expect(help.code).toBe(0);
    expect(help.output).toContain("preview");
    expect(version.code).toBe(0);
    expect(topic.code).toBe(0);
    expect(topic.output).toContain("Usage: nzf-build preview [options]");
  });

  it("watch mode's help says what it does: pages updated in place, never reloaded, editors' files ignored", async () => {
    const runs = await Promise.all([cli(["--watch", "--help"]), cli(["help", "watch"]), cli(["--watch", "-h"])]);
    for (const run of runs) {
      expect(run.code).toBe(0);
      const text = run.output.replace(/\s+/g, " ");
      expect(text).toContain("Usage: nzf-build --watch [options]");
      expect(text).toContain("Open pages take each rebuild in place, without a reload");
      expect(text).toContain("sed's sedXXXXXX, vim's swap files and 4913, ~ backups) rebuild nothing");
      expect(text).toMatch(/--port <port> +port for --watch \(default: 4321\)/);
      // Not a word of the old help, nor options of other commands.
      expect(text).not.toContain("reload open pages");
      expect(text).not.toContain("--bucket");
    }
    const general = await cli(["--help"]);
    expect(general.output.replace(/\s+/g, " ")).toContain("update open pages in place, without a reload");
  });
});
