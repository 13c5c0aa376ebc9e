import { execFile } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { FileTiming } from "../support/file-timings-reporter.js";
import { PROJECT_ROOT } from "../support/build-fixture.js";

const run = promisify(execFile);
const SCRIPT = join(PROJECT_ROOT, "scripts/slowest-tests.mjs");

function timing(file: string, importMs: number, runMs: number, failed = 0): FileTiming {
  return {
    file,
    prepare: 0,
    environment: 0,
    setup: 0,
    import: importMs,
    run: runMs,
    total: importMs + runMs,
    tests: 4,
    failed,
  };
}

describe("npm run test:slowest", () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), "nzf-slowest-"));
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it("ranks files by all the time they held a worker, a slow import or hook included", async () => {
    const path = join(dir, "timings.json");
    const files = [
      timing("test/a-fast.test.ts", 100, 400),
      // Its tests alone are quick, but its hooks and import held the worker longest.
      timing("test/b-slow-setup.test.ts", 3_000, 9_000, 1),
      timing("test/c-middle.test.ts", 200, 5_000),
    ];
    await writeFile(path, JSON.stringify({ wallMs: 12_000, files }));
    const { stdout } = await run(process.execPath, [SCRIPT, "2", path]);
    const lines = stdout.trim().split("\n");
    expect(lines[0]).toBe(
      "slowest 2 of 3 test files (run took 12.0 s; files' times add up to 17.7 s, of which importing 3.3 s):",
    );
    expect(lines.slice(2)).toEqual([
      "  12.0 s    3.0 s    9.0 s    4 tests (1 failed)  test/b-slow-setup.test.ts",
      "   5.2 s    0.2 s    5.0 s    4 tests  test/c-middle.test.ts",
    ]);
  });

  it("says what to do when no run has left timings", async () => {
    const missing = join(dir, "none.json");
    const failure = await run(process.execPath, [SCRIPT, "10", missing]).catch(
      (error: { code: number; stderr: string }) => error,
    );
    expect(failure).toMatchObject({ code: 1 });
    expect((failure as { stderr: string }).stderr).toContain(
      `[TEST_REPORT_MISSING] No test timings at ${missing} (ENOENT)`,
    );
    expect((failure as { stderr: string }).stderr).toContain("hint: Run the tests first");
  });
});
