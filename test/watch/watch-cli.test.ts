/**
 * `nzf-build --watch` as a developer runs it: the compiled CLI in a new process, in a copy of the
 * project (so it can edit templates and nzf-build's own sources, and recompile it). A busy port
 * moves on and says so before building; every atomic save (write a temporary file, rename it over
 * the original) is rebuilt; a change to nzf-build's own code recompiles it and restarts on the same
 * port; one Ctrl+C (SIGINT to the process group) or SIGTERM stops everything within 2 s; dist/ is
 * never written with the development settings.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { spawn, execFile, type ChildProcess } from "node:child_process";
import { cp, mkdir, mkdtemp, readFile, rename, rm, symlink, writeFile, appendFile } from "node:fs/promises";
import { existsSync } from "node:fs";
import { createConnection, createServer, type Server } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { PROJECT_ROOT } from "../support/build-fixture.js";
import { hangLimit } from "../support/time-limits.js";
import { sharedImageCache } from "../support/shared-images.js";

let root: string;
const processes: ChildProcess[] = [];

interface Cli {
  child: ChildProcess;
  output(): string;
  /** Resolves with the first match of `pattern` in the output after `from` characters. */
  waitFor(pattern: RegExp, from?: number, timeoutMs?: number): Promise<RegExpExecArray>;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null; at: number }>;
}

function startCli(args: string[]): Cli {
  const env = { ...process.env };
  for (const key of Object.keys(env)) if (/^(PAYMENTS_|STRIPE_|NZF_WATCH_|NZF_OUT_DIR$)/.test(key)) delete env[key];
  // Its own process group, so a test can send SIGINT to the group as a terminal's Ctrl+C does.
  const child = spawn(process.execPath, [join(root, "bin", "nzf-build"), "--watch", ...args], {
    cwd: root,
    env,
    detached: true,
    stdio: ["ignore", "pipe", "pipe"],
  });
  processes.push(child);
  let text = "";
  const listeners = new Set<() => void>();
  const take = (chunk: Buffer) => {
    text += chunk;
    for (const listener of [...listeners]) listener();
  };
  child.stdout!.on("data", take);
  child.stderr!.on("data", take);
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null; at: number }>((resolve) =>
    child.once("exit", (code, signal) => resolve({ code, signal, at: performance.now() })),
  );
  return {
    child,
    output: () => text,
    exited,
    waitFor(pattern, from = 0, timeoutMs = hangLimit(60_000)) {
      return new Promise((resolve, reject) => {
        const check = () => {
          const match = new RegExp(pattern.source, pattern.flags.replace("g", "")).exec(text.slice(from));
          if (!match) return;
          cleanup();
          resolve(match);
        };
        const timer = setTimeout(
          () => (cleanup(), reject(new Error(`no ${pattern} within ${timeoutMs} ms; output:\n${text}`))),
          timeoutMs,
        );
        const gone = () => (cleanup(), reject(new Error(`exited before ${pattern}; output:\n${text}`)));
        const cleanup = () => {
          clearTimeout(timer);
          listeners.delete(check);
          child.off("exit", gone);
        };
        listeners.add(check);
        child.once("exit", gone);
        check();
      });
    },
  };
}

/** Whether something accepts connections on the port. */
function listening(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = createConnection(port, "127.0.0.1");
    socket.once("connect", () => (socket.destroy(), resolve(true)));
    socket.once("error", () => resolve(false));
  });
}

async function h1(url: string): Promise<string | undefined> {
  const html = await (await fetch(url)).text();
  return /<h1>([^<]*)<\/h1>/.exec(html)?.[1];
}

async function until<T>(read: () => Promise<T>, ok: (value: T) => boolean, timeoutMs = hangLimit(30_000)): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (ok(value) || Date.now() > end) return value;
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** Saves as vim, JetBrains IDEs, `sed -i` and `git checkout` do: a new file renamed over the old one. */
async function atomicSave(file: string, change: (text: string) => string): Promise<void> {
  const text = change(await readFile(file, "utf8"));
  const temp = join(file, "..", `.${Date.now()}.nzf-test-save`);
  await writeFile(temp, text);
  await rename(temp, file);
}

beforeAll(async () => {
  // A copy of the checkout, compiled: the launcher there is an installation that can recompile itself.
  root = await mkdtemp(join(tmpdir(), "nzf-watch-cli-"));
  for (const dir of ["bin", "bench", "test/support", "scripts", "src", "templates", "assets", "content-cache/sample"])
    await cp(join(PROJECT_ROOT, dir), join(root, dir), { recursive: true });
  for (const file of ["package.json", "tsconfig.json"])
    if (existsSync(join(PROJECT_ROOT, file))) await cp(join(PROJECT_ROOT, file), join(root, file));
  await symlink(join(PROJECT_ROOT, "node_modules"), join(root, "node_modules"));
  // Processed images are the run's, shared with the other tests (test/support/shared-images.ts).
  await mkdir(join(root, ".nzf-cache"), { recursive: true });
  await symlink(sharedImageCache(), join(root, ".nzf-cache", "images"));
  await promisify(execFile)(process.execPath, [join(root, "scripts", "compile-cli.mjs")], { cwd: root });
  // No .nzf-data/ yet: the first watch starts its local payments API as a developer's first
  // `npm start` in a new clone does, making the folders and migrating the database.
}, hangLimit(120_000));

afterAll(async () => {
  for (const child of processes)
    if (child.exitCode === null && child.signalCode === null) process.kill(-child.pid!, "SIGKILL");
  await rm(root, { recursive: true, force: true });
});

describe("nzf-build --watch in a new process", { timeout: hangLimit(120_000) }, () => {
  let cli: Cli;
  let busy: Server;
  let port: number;
  let url: string;

  it("checks the port before building: a busy one moves to the next free port and says so", async () => {
    busy = createServer();
    const taken = await new Promise<number>((resolve) =>
      busy.listen(0, "127.0.0.1", () => resolve((busy.address() as { port: number }).port)),
    );
    cli = startCli(["--port", String(taken)]);
    const moved = await cli.waitFor(new RegExp(`port ${taken} is in use, using (\\d+)`));
    port = Number(moved[1]);
    expect(port).toBeGreaterThan(taken);
    const serving = await cli.waitFor(/serving (\S+) at (http:\/\/127\.0\.0\.1:\d+)\//);
    url = serving[2]!;
    expect(url).toBe(`http://127.0.0.1:${port}`);
    expect(serving[1]).toBe(".nzf-cache/watch/site");
    // Said before the first build, not after it.
    const builtAt = cli.output().search(/Built \d+ pages/);
    expect(builtAt).toBeGreaterThan(-1);
    expect(cli.output().indexOf("is in use")).toBeLessThan(builtAt);
    expect(await h1(`${url}/ramadan-calendars/`)).toBe("Ramadan calendars");
    busy.close();
  });

  it("rebuilds after every atomic save of the same template", async () => {
    const file = join(root, "templates/pages/static-pages.tsx");
    for (const n of [1, 2, 3]) {
      await atomicSave(file, (t) => t.replace(/<h1>Ramadan calendars[^<]*<\/h1>/, `<h1>Ramadan calendars ${n}</h1>`));
      expect(
        await until(
          () => h1(`${url}/ramadan-calendars/`),
          (h) => h === `Ramadan calendars ${n}`,
        ),
      ).toBe(`Ramadan calendars ${n}`);
    }
  });

  it("rebuilds nothing for the files editors write beside a source: sed's, vim's, backups", async () => {
    const dir = join(root, "templates/pages");
    const from = cli.output().length;
    // GNU sed -i's temporary, vim's write test and swap, a backup, an emacs auto-save: made and removed.
    const names = ["sedAb12Cd", "4913", ".static-pages.tsx.swp", "static-pages.tsx~", "#static-pages.tsx#"];
    for (const name of names) await writeFile(join(dir, name), "export const broken = ;\n");
    for (const name of names) await rm(join(dir, name));
    // Then a real save: the first rebuild after them is its own, naming it alone. The save may land
    // while the last test's save is still being published (watch publishes the editor-preview bundle
    // in one more build after the pages), and then the line also says changes came during a build.
    const file = join(dir, "static-pages.tsx");
    await atomicSave(file, (t) => t.replace(/<h1>Ramadan calendars[^<]*<\/h1>/, "<h1>Ramadan calendars 4</h1>"));
    const rebuilt = await cli.waitFor(/watch\s+(.*) → rebuilt in/, from);
    const named = rebuilt[1]!.split(", ").filter((name) => name !== "(changes during the last build)");
    expect(named).toEqual(["templates/pages/static-pages.tsx"]);
    expect(cli.output().slice(from)).not.toMatch(/sedAb12Cd|4913|\.swp|tsx~|#static/);
    expect(await h1(`${url}/ramadan-calendars/`)).toBe("Ramadan calendars 4");
    // As the tests after this one expect it.
    await atomicSave(file, (t) => t.replace("<h1>Ramadan calendars 4</h1>", "<h1>Ramadan calendars 3</h1>"));
    expect(
      await until(
        () => h1(`${url}/ramadan-calendars/`),
        (h) => h === "Ramadan calendars 3",
      ),
    ).toBe("Ramadan calendars 3");
  });

  it("reports a compile error in its own code and keeps serving; recompiles and restarts on the same port when fixed", async () => {
    const file = join(root, "src/images/sizes.ts");
    const original = await readFile(file, "utf8");
    let from = cli.output().length;
    await appendFile(file, "\nexport const broken: = 1;\n");
    await cli.waitFor(/src\/images\/sizes\.ts is part of nzf-build itself: recompiling/, from);
    await cli.waitFor(/\[CLI_COMPILE_FAILED\] nzf-build could not be recompiled:[\s\S]*sizes\.ts/, from);
    expect(await h1(`${url}/ramadan-calendars/`)).toBe("Ramadan calendars 3");

    from = cli.output().length;
    await atomicSave(file, () => original + "\n// a comment\n");
    await cli.waitFor(/restarting with the recompiled nzf-build/, from);
    const again = await cli.waitFor(/serving \S+ at (http:\/\/127\.0\.0\.1:\d+)\//, from);
    expect(again[1]).toBe(url);
    expect(await h1(`${url}/ramadan-calendars/`)).toBe("Ramadan calendars 3");
  });

  it("prints a template's compile error once, with its source line and a caret, however often it is saved", async () => {
    const file = join(root, "templates/pages/static-pages.tsx");
    const original = await readFile(file, "utf8");
    const from = cli.output().length;
    const broken = original.replace(/<h1>Ramadan calendars[^<]*<\/h1>/, "<h1>Ramadan calendars {(}</h1>");
    expect(broken).not.toBe(original);
    // Written in place twice (truncated, then written, as many editors save): the same error each time.
    await writeFile(file, broken);
    await cli.waitFor(/\[TEMPLATE_BUNDLE_FAILED\]/, from);
    await new Promise((r) => setTimeout(r, 300));
    await writeFile(file, broken);
    await new Promise((r) => setTimeout(r, 1500));
    await atomicSave(file, () => original);
    await until(
      () => h1(`${url}/ramadan-calendars/`),
      (h) => h === "Ramadan calendars 3",
    );
    await cli.waitFor(/→ rebuilt in/, from);
    const printed = cli.output().slice(from);
    expect(printed.match(/\[TEMPLATE_BUNDLE_FAILED\]/g), printed).toHaveLength(1);
    expect(printed).toMatch(
      /templates\/pages\/static-pages\.tsx:\d+:\d+\n\s+(\d+ \|.*\n\s+)*> \d+ \| .*\{\(\}.*\n\s+\| +\^/,
    );
  });

  it("stops everything on one Ctrl+C within 2 s, and dist/ has no development settings", async () => {
    const payments = Number(
      /payments: local payments API at http:\/\/127\.0\.0\.1:(\d+)/.exec(
        cli.output().slice(cli.output().lastIndexOf("restarting")),
      )![1],
    );
    expect(await listening(payments)).toBe(true);
    const sent = performance.now();
    process.kill(-cli.child.pid!, "SIGINT");
    const exit = await cli.exited;
    expect(exit.code).toBe(0);
    // Within 2 s at rest: the process keeps that promise with its own deadlines (run-watch.ts ends a
    // held stop at 1.5 s, supervisor.ts kills a child at 1.8 s, which would not exit 0); the test's
    // bound is a hang limit, scaled for a loaded machine, that catches a stop that ignores them.
    expect(exit.at - sent).toBeLessThan(hangLimit(2000));
    expect(await listening(port)).toBe(false);
    expect(await listening(payments)).toBe(false);
    // No process of this copy is left (the restarted child, render workers are threads of it).
    const { stdout } = await promisify(execFile)("ps", ["-eo", "args"]);
    expect(stdout.split("\n").filter((line) => line.includes(root))).toEqual([]);

    // The watch build has the development payments URL; dist/ was never written.
    expect(await readFile(join(root, ".nzf-cache/watch/site/_headers"), "utf8")).toContain(
      `http://127.0.0.1:${payments}`,
    );
    expect(existsSync(join(root, "dist"))).toBe(false);
  });

  it("stops on SIGTERM sent to it alone within 2 s", async () => {
    const term = startCli(["--port", "0"]);
    const serving = await term.waitFor(/serving \S+ at http:\/\/127\.0\.0\.1:(\d+)\//);
    const sent = performance.now();
    term.child.kill("SIGTERM");
    const exit = await term.exited;
    expect(exit.code).toBe(0);
    expect(exit.at - sent).toBeLessThan(hangLimit(2000));
    expect(await listening(Number(serving[1]))).toBe(false);
  });
});
