/**
 * One writer per output folder (src/publish/output-lock.ts): a second taker waits, then fails naming
 * the holder; a lock left by a dead process, or by a pid since reused, is taken over. The waits run
 * on vitest's fake clock, so the ten minutes the lock waits in production pass at once here.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { mkdtemp, readFile, rm, writeFile, mkdir } from "node:fs/promises";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { tmpdir, hostname } from "node:os";
import { spawnSync } from "node:child_process";
import { lockFileFor, lockOutput, processStart, WAIT_MS, type LockHolder } from "../../src/publish/output-lock.js";
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
  vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "Date"] });
});
afterEach(async () => {
  vi.useRealTimers();
  await rm(root, { recursive: true, force: true });
});

/** A lock being taken, and how it has ended so far ("waiting" while it has not). */
function taking(outcome: Promise<unknown>) {
  const state: { now: "waiting" | "taken" | "refused"; value?: unknown } = { now: "waiting" };
  outcome.then(
    (value) => Object.assign(state, { now: "taken", value }),
    (value) => Object.assign(state, { now: "refused", value }),
  );
  return state;
}

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
    const first = await lockOutput(outDir);
    const second = taking(lockOutput(outDir, logger));
    await vi.advanceTimersByTimeAsync(WAIT_MS - 1000);
    expect(second.now).toBe("waiting");
    await vi.advanceTimersByTimeAsync(1000);
    expect(second.now).toBe("refused");
    const error = second.value as NzfError;
    expect(error.code).toBe("OUTPUT_LOCKED");
    expect(error.message).toContain(`pid ${process.pid}`);
    expect(first.holder.command).toMatch(/^nzf-build/);
    expect(error.message).toContain(`("${first.holder.command}")`);
    expect(error.message).toContain(`waited ${WAIT_MS / 1000} s`);
    expect(lines.join("\n")).toMatch(/Waiting for another build writing .* pid \d+ .* since \d{4}-/);
    first.release();
    expect(existsSync(lockFileFor(outDir))).toBe(false);
  });

  it("hands the lock to a waiter as soon as it is released", async () => {
    const first = await lockOutput(outDir);
    const second = taking(lockOutput(outDir));
    await vi.advanceTimersByTimeAsync(60_000);
    expect(second.now).toBe("waiting");
    first.release();
    await vi.advanceTimersByTimeAsync(100);
    expect(second.now).toBe("taken");
    const lock = second.value as Awaited<ReturnType<typeof lockOutput>>;
    expect(JSON.parse(await readFile(lockFileFor(outDir), "utf8")).token).toBe(lock.holder.token);
    lock.release();
  });

  it("takes over a lock whose process is gone", async () => {
    const dead = spawnSync(process.execPath, ["-e", "process.stdout.write(String(process.pid))"]).stdout.toString();
    await plantLock({ pid: Number(dead) });
    const attempt = taking(lockOutput(outDir, logger));
    await vi.advanceTimersByTimeAsync(0);
    expect(attempt.now).toBe("taken");
    expect(lines.join("\n")).toContain(`from pid ${dead}`);
    (attempt.value as Awaited<ReturnType<typeof lockOutput>>).release();
  });

  it("takes over a lock whose pid is alive but belongs to a process started since (a reused pid)", async () => {
    const start = processStart(process.pid);
    if (start === null) return; // no /proc here: pid reuse cannot be told apart
    await plantLock({ pid: process.pid, start: String(Number(start) - 1) });
    const attempt = taking(lockOutput(outDir));
    await vi.advanceTimersByTimeAsync(0);
    expect(attempt.now).toBe("taken");
    const lock = attempt.value as Awaited<ReturnType<typeof lockOutput>>;
    expect(lock.holder.start).toBe(start);
    lock.release();
  });

  it("waits for a live holder on this machine rather than taking its lock", async () => {
    await plantLock({ pid: process.pid, start: processStart(process.pid), token: "someone-else" });
    const attempt = taking(lockOutput(outDir));
    await vi.advanceTimersByTimeAsync(WAIT_MS);
    expect(attempt.now).toBe("refused");
    expect((attempt.value as NzfError).code).toBe("OUTPUT_LOCKED");
    expect(JSON.parse(await readFile(lockFileFor(outDir), "utf8")).token).toBe("someone-else");
  });
});
