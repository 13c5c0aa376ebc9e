/**
 * Runs the compiled `bin/nzf-build` in a new process, as a user does, for the CLI acceptance tests.
 * Each build gets its own project folder (`--root`): symbolic links to the real templates, browser
 * code, assets and sample content, its own work folder .nzf-cache/ (so concurrent builds never share
 * one), and the project's image cache linked in (written atomically, safe to share), so only the
 * first build of a machine pays for sharp; its compiled bundles are linked to the run's too.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { mkdir, mkdtemp, rm, symlink } from "node:fs/promises";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { OPTIONS, type OptionSpec } from "../../src/core/options.js";
import { PROJECT_ROOT } from "../support/build-fixture.js";
import { hangLimit } from "../support/time-limits.js";
import { linkSharedBundles, type OwnBundles } from "../support/shared-bundles.js";
import { sharedImageCache } from "../support/shared-images.js";

export const BIN = join(PROJECT_ROOT, "bin", "nzf-build");
export type Env = Record<string, string>;

export interface Run {
  code: number | null;
  output: string;
}

const temporary: string[] = [];

export async function tempDir(prefix = "nzf-cli-"): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), prefix));
  temporary.push(dir);
  return dir;
}

export async function removeTemporary(): Promise<void> {
  await Promise.all(temporary.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
}

/**
 * A project folder of its own for one CLI process (see the file comment). Its compiled bundles are
 * the run's, shared (test/support/shared-bundles.ts), unless `ownBundles`.
 */
export async function projectRoot({ ownBundles = false }: { ownBundles?: OwnBundles } = {}): Promise<string> {
  const root = await tempDir("nzf-cli-root-");
  for (const entry of ["templates", "src", "assets", "node_modules", "package.json"])
    await symlink(join(PROJECT_ROOT, entry), join(root, entry));
  await mkdir(join(root, "content-cache"));
  await symlink(join(PROJECT_ROOT, "content-cache", "sample"), join(root, "content-cache", "sample"));
  // Content fetched for the repository nzf-test (test/cli/stub-content.ts) finds its images beside
  // its snapshot, as the sample does: the build processes no image it has processed before.
  await mkdir(join(root, "content-cache", "nzf-test"));
  await symlink(
    join(PROJECT_ROOT, "content-cache", "sample", "images"),
    join(root, "content-cache", "nzf-test", "images"),
  );
  // The run's processed images (test/support/shared-images.ts), never the developer's.
  await mkdir(join(root, ".nzf-cache"));
  await symlink(sharedImageCache(), join(root, ".nzf-cache", "images"));
  await linkSharedBundles(join(root, ".nzf-cache"), "linked", ownBundles);
  return root;
}

/** The environment of a user who set only `env`: every declared variable of the parent removed. */
export function childEnv(env: Env): NodeJS.ProcessEnv {
  const clean = { ...process.env };
  for (const spec of OPTIONS as readonly OptionSpec[]) for (const name of spec.env ?? []) delete clean[name];
  delete clean.NODE_OPTIONS;
  // CI makes a build of live content without payment and sign-in settings fail (SETTINGS_MISSING):
  // the tests that are about that set it themselves.
  delete clean.CI;
  // Colour is the terminal's business (test/cli/terminal-output.test.ts): the parent's choice must not leak in.
  delete clean.FORCE_COLOR;
  delete clean.NO_COLOR;
  return { ...clean, ...env };
}

export interface CliProcess {
  child: ChildProcess;
  output(): string;
  exited: Promise<Run>;
  /** Ctrl+C, then SIGKILL if it has not ended after `graceMs`. */
  stop(graceMs?: number): Promise<Run>;
}

/** `wrap`: a command the CLI is started by (`unshare -m sh -c ...`), given `node bin/nzf-build args` as its last arguments. */
export function startCli(args: string[], env: Env = {}, wrap: string[] = []): CliProcess {
  const [command, ...argv] = [...wrap, process.execPath, BIN, ...args];
  const child = spawn(command!, argv, {
    env: childEnv(env),
    cwd: tmpdir(),
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout!.on("data", (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on("data", (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<Run>((resolve) => child.on("close", (code) => resolve({ code, output })));
  return {
    child,
    output: () => output,
    exited,
    async stop(graceMs = 5000) {
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGINT");
      const timer = setTimeout(() => child.kill("SIGKILL"), graceMs);
      const run = await exited;
      clearTimeout(timer);
      return run;
    },
  };
}

/** Runs to the end (killed after `timeoutMs`: a command that should exit must not hang the tests). */
export async function cli(args: string[], env: Env = {}, timeoutMs = 30_000): Promise<Run> {
  const process = startCli(args, env);
  const timer = setTimeout(() => process.child.kill("SIGKILL"), hangLimit(timeoutMs));
  const run = await process.exited;
  clearTimeout(timer);
  return run;
}

/** A port that was free a moment ago, for a server the CLI starts. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/** Polls `url` until it answers (any status), or fails after `timeoutMs` with the process output. */
export async function waitForHttp(url: string, proc: CliProcess, timeoutMs = 30_000): Promise<Response> {
  const until = Date.now() + hangLimit(timeoutMs);
  for (;;) {
    try {
      const response = await fetch(url);
      // Watch mode answers 503 with a "building" page until its first build is published.
      if (response.status !== 503 || Date.now() > until) return response;
      await response.arrayBuffer();
      throw new Error("still building");
    } catch {
      if (proc.child.exitCode !== null)
        throw new Error(`the CLI exited (${proc.child.exitCode}) before ${url} answered:\n${proc.output()}`);
      if (Date.now() > until)
        throw new Error(`${url} did not answer within ${hangLimit(timeoutMs)} ms:\n${proc.output()}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }
}

/** Polls until `check` returns a value, or fails after `timeoutMs`. */
export async function waitUntil<T>(check: () => Promise<T | undefined>, what: string, timeoutMs = 30_000): Promise<T> {
  const until = Date.now() + hangLimit(timeoutMs);
  for (;;) {
    const value = await check().catch(() => undefined);
    if (value !== undefined) return value;
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}
