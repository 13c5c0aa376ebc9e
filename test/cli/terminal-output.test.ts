/**
 * What the compiled CLI writes to a terminal, run in a pseudo-terminal by util-linux `script`
 * (no native module needed): colour on a terminal, none with NO_COLOR, in a pipe unless
 * FORCE_COLOR asks, never with FORCE_COLOR=0; a progress line redrawn in place during a build on a
 * terminal, and none in a pipe, where every line is a plain line.
 */
import { spawn, spawnSync } from "node:child_process";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { BIN, childEnv, cli, projectRoot, removeTemporary, tempDir, type Env, type Run } from "./cli-process.js";

afterAll(removeTemporary);

const hasScript = spawnSync("script", ["--version"]).status === 0;
const quote = (word: string) => `'${word.replace(/'/g, "'\\''")}'`;

/** Runs the CLI with a pseudo-terminal as its stdin, stdout and stderr (what `script` relays is the terminal's output). */
function inTerminal(args: string[], env: Env = {}, timeoutMs = 120_000): Promise<Run> {
  const command = [process.execPath, BIN, ...args].map(quote).join(" ");
  // -e: script's exit code is the command's; the typescript file is thrown away.
  const child = spawn("script", ["-q", "-e", "-c", command, "/dev/null"], {
    env: { ...childEnv(env), TERM: "xterm-256color", COLUMNS: "120" },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout.on("data", (c: Buffer) => (output += c.toString()));
  child.stderr.on("data", (c: Buffer) => (output += c.toString()));
  const timer = setTimeout(() => child.kill("SIGKILL"), timeoutMs);
  return new Promise((resolve) =>
    child.on("close", (code) => {
      clearTimeout(timer);
      resolve({ code, output });
    }),
  );
}

const ESC = "\u001b[";
const RED_BOLD_CODE = `${ESC}31m${ESC}1m[CONFIG_INVALID]`;

describe.skipIf(!hasScript)("on a terminal", () => {
  it.concurrent("errors are coloured on a terminal, or with FORCE_COLOR in a pipe", async () => {
    const [tty, piped, forced] = await Promise.all([
      inTerminal(["-v"]),
      cli(["-v"]),
      cli(["-v"], { FORCE_COLOR: "1" }),
    ]);
    expect(tty.code).toBe(1);
    expect(tty.output).toContain(RED_BOLD_CODE);
    expect(tty.output).toContain(`${ESC}36mhint:`);
    expect(piped.output).not.toContain(ESC);
    expect(piped.output).toMatch(/^\[CONFIG_INVALID\] -v is not an option/);
    expect(forced.output).toContain(RED_BOLD_CODE);
  });

  it.concurrent("NO_COLOR and FORCE_COLOR=0 turn colour off on a terminal", async () => {
    const [noColor, forceOff] = await Promise.all([
      inTerminal(["-v"], { NO_COLOR: "1" }),
      inTerminal(["-v"], { FORCE_COLOR: "0" }),
    ]);
    for (const run of [noColor, forceOff]) {
      expect(run.code).toBe(1);
      expect(run.output).toContain("[CONFIG_INVALID] -v is not an option of nzf-build");
      expect(run.output).not.toMatch(/\u001b\[\d+m/);
    }
  });

  it("a build shows a progress line redrawn in place on a terminal, and plain lines in a pipe", async () => {
    const [root, piped] = [await projectRoot(), await projectRoot()];
    const [tty, pipe] = await Promise.all([
      inTerminal(["--root", root, "--out", join(await tempDir(), "site")]),
      cli(["--root", piped, "--out", join(await tempDir(), "site")], {}, 120_000),
    ]);
    expect(tty.code, tty.output).toBe(0);
    // Each redraw goes back to the line's start and clears it, then names the stages running and the time.
    const frames = tty.output.split(`\r${ESC}2K`).slice(1);
    expect(frames.length, tty.output).toBeGreaterThan(1);
    expect(
      frames.some((f) => /build {3}.*(images|render|published|assets).*… \d/.test(f.replace(/\u001b\[\d+m/g, ""))),
      tty.output,
    ).toBe(true);
    // The line is cleared before the summary, which is coloured and stays.
    expect(tty.output).toMatch(/\r\u001b\[2K\u001b\[36mbuild {2}\u001b\[39m Built \d+ pages/);
    expect(pipe.code, pipe.output).toBe(0);
    expect(pipe.output).not.toContain("\r");
    expect(pipe.output).not.toContain(ESC);
    expect(pipe.output).toMatch(/^build {3}Built \d+ pages/m);
  }, 240_000);
});
