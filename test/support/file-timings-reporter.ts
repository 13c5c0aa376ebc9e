/**
 * A vitest reporter that records each test file's whole time in its worker: importing it (and what it
 * imports), its hooks and its tests. vitest's JSON report starts a file's clock after the import, so a
 * browser file whose imports and first hooks took 8 s showed only its tests' time, and the two workers
 * looked idle for 200 s of a run in which they never were. scripts/slowest-tests.mjs reads this file.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, relative } from "node:path";
import type { Reporter, TestModule } from "vitest/node";

export interface FileTiming {
  file: string;
  /** Milliseconds: vitest's harness, the environment, the setup files, the import, then hooks and tests. */
  prepare: number;
  environment: number;
  setup: number;
  import: number;
  run: number;
  total: number;
  tests: number;
  failed: number;
}

export const FILE_TIMINGS = ".nzf-cache/test-timings.json";

export default class FileTimingsReporter implements Reporter {
  private readonly timings: FileTiming[] = [];
  private started = Date.now();

  onTestRunStart(): void {
    this.started = Date.now();
    this.timings.length = 0;
  }

  onTestModuleEnd(module: TestModule): void {
    const diagnostic = module.diagnostic();
    const tests = [...module.children.allTests()];
    const parts = {
      prepare: diagnostic.prepareDuration,
      environment: diagnostic.environmentSetupDuration,
      setup: diagnostic.setupDuration,
      import: diagnostic.collectDuration,
      run: diagnostic.duration,
    };
    this.timings.push({
      file: relative(process.cwd(), module.moduleId),
      ...parts,
      total: Object.values(parts).reduce((sum, part) => sum + part, 0),
      tests: tests.length,
      failed: tests.filter((test) => test.result().state === "failed").length,
    });
  }

  onTestRunEnd(): void {
    mkdirSync(dirname(FILE_TIMINGS), { recursive: true });
    const report = { wallMs: Date.now() - this.started, files: this.timings };
    writeFileSync(FILE_TIMINGS, `${JSON.stringify(report, null, 1)}\n`);
  }
}
