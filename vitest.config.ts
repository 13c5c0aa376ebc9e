import { readdirSync, readFileSync } from "node:fs";
import { defineConfig } from "vitest/config";
import { hangLimit } from "./test/support/time-limits.js";

// Every test file, and which of them change what the next file in the same worker would see: module
// mocks, spies, stubbed globals or environment, fake timers, another DOM environment, the working
// folder. Those run isolated (a fresh module registry each); the rest share their worker's loaded
// modules, which saves loading React, the AWS SDK, Playwright and our own code again for each of
// 220 files (on 79 unit files: 93 s of CPU isolated, 53 s shared).
const TEST_FILE = /\.test\.tsx?$/;
const CHANGES_SHARED_STATE =
  /vi\.(mock|doMock|spyOn|stubGlobal|stubEnv|useFakeTimers)\b|@vitest-environment|process\.chdir|process\.env\.\w+ *=[^=]|delete process\.env|globalThis\.\w+ *=[^=]/;
const testFiles = readdirSync("test", { recursive: true, encoding: "utf8" })
  .filter((file) => TEST_FILE.test(file))
  .map((file) => `test/${file}`);
const isolated = testFiles.filter((file) => CHANGES_SHARED_STATE.test(readFileSync(file, "utf8")));
const shared = testFiles.filter((file) => !isolated.includes(file));

// One runner for everything. Browser tests (test/browser) drive real Chromium and take longer;
// island tests opt into happy-dom with a `// @vitest-environment happy-dom` comment.
export default defineConfig({
  // Tests run React in production mode (as the build does), so compile JSX for the production runtime.
  oxc: { jsx: { runtime: "automatic", development: false } },
  test: {
    environment: "node",
    // Finds or unpacks Chromium once, before the workers start (test/support/chromium-path.ts).
    globalSetup: ["test/support/global-setup.ts"],
    // The services' clock, which tests move, and the payments database opener, which answers a test
    // database's name with the PGlite a worker reuses, for every file (test/support/*-setup.ts).
    setupFiles: ["test/support/service-clock-setup.ts", "test/support/api-db-setup.ts"],
    // Limits that catch hangs, scaled for a loaded machine (test/support/time-limits.ts).
    testTimeout: hangLimit(30_000),
    hookTimeout: hangLimit(120_000),
    // Two cores: run files in parallel but not more than the machine has.
    maxWorkers: 2,
    env: { NODE_ENV: "production" },
    // Each run also leaves a JSON report, which `npm run test:slowest` and CI's closing line read.
    reporters: ["default", "json", "./test/support/file-timings-reporter.ts"],
    outputFile: { json: ".nzf-cache/test-results.json" },
    projects: [
      { extends: true, test: { name: "shared", include: shared, isolate: false } },
      { extends: true, test: { name: "isolated", include: isolated } },
    ],
  },
});
