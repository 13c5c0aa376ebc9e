/**
 * One writer per output folder (src/publish/output-lock.ts): a second taker waits, then fails naming
 * the holder; a lock left by a dead process, or by a pid since reused, is taken over.
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { mkdtemp, readFile, rm, writeFile, mkdir } from "node:fs/promises";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { tmpdir, hostname } from "node:os";
import { spawnSync } from "node:child_process";
import { lockFileFor, lockOutput, processStart, type LockHolder } from "../../src/publish/output-lock.js";
import { versionsDirFor } from "../../src/publish/versions.js";
import type { NzfError } from "../../src/core/errors.js";

let root: string;
let outDir: string;
const lines: string[] = [];
const logger = {
  debug() {},
  info: (_: string, m: string) => lines.push(m),
  warn: (_: string, m: string) => lines.push(m),
  error() {},
};

beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), "nzf-lock-"));
  outDir = join(root, "dist");
  lines.length = 0;
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

async function plantLock(holder: Partial<LockHolder>): Promise<void> {
  await mkdir(versionsDirFor(outDir), { recursive: true });
  const full: LockHolder = {
    pid: 1,
    start: null,
    host: hostname(),
    command: "nzf-build --out dist",
    since: "2020-01-01T00:00:00.000Z",
    token: "planted",
    ...holder,
  };
  await writeFile(lockFileFor(outDir), JSON.stringify(full));
}

describe("the output folder's lock", () => {
  it("makes a second taker wait, then fail with OUTPUT_LOCKED naming the holder", async () => {
    const first = await lockOutput(outDir, { command: "nzf-build --out dist (first)" });
    const started = Date.now();
    const error = await lockOutput(outDir, { logger, waitMs: 300, pollMs: 20 }).catch((e: NzfError) => e);
    expect(Date.now() - started).toBeGreaterThanOrEqual(280);
    expect((error as NzfError).code).toBe("OUTPUT_LOCKED");
    expect((error as NzfError).message).toContain(`pid ${process.pid}`);
    expect((error as NzfError).message).toContain("nzf-build --out dist (first)");
    expect(lines.join("\n")).toMatch(/Waiting for another build writing .* pid \d+ .* since \d{4}-/);
    first.release();
    expect(existsSync(lockFileFor(outDir))).toBe(false);
  });

  it("hands the lock to a waiter as soon as it is released", async () => {
    const first = await lockOutput(outDir);
    const second = lockOutput(outDir, { waitMs: 5000, pollMs: 10 });
    setTimeout(() => first.release(), 100);
    const lock = await second;
    expect(JSON.parse(await readFile(lockFileFor(outDir), "utf8")).token).toBe(lock.holder.token);
    lock.release();
  });

  it("takes over a lock whose process is gone", async () => {
    const dead = spawnSync(process.execPath, ["-e", "process.stdout.write(String(process.pid))"]).stdout.toString();
    await plantLock({ pid: Number(dead) });
    const lock = await lockOutput(outDir, { logger, waitMs: 1000 });
    expect(lines.join("\n")).toContain(`from pid ${dead}`);
    lock.release();
  });

  it("takes over a lock whose pid is alive but belongs to a process started since (a reused pid)", async () => {
    const start = processStart(process.pid);
    if (start === null) return; // no /proc here: pid reuse cannot be told apart
    await plantLock({ pid: process.pid, start: String(Number(start) - 1) });
    const lock = await lockOutput(outDir, { waitMs: 1000 });
    expect(lock.holder.start).toBe(start);
    lock.release();
  });

  it("waits for a live holder on this machine rather than taking its lock", async () => {
    await plantLock({ pid: process.pid, start: processStart(process.pid), token: "someone-else" });
    const error = await lockOutput(outDir, { waitMs: 100, pollMs: 20 }).catch((e: NzfError) => e);
    expect((error as NzfError).code).toBe("OUTPUT_LOCKED");
    expect(JSON.parse(await readFile(lockFileFor(outDir), "utf8")).token).toBe("someone-else");
  });
});
