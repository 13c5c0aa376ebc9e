import { defineConfig } from "vitest/config";
import { hangLimit } from "./test/support/time-limits.js";

// One runner for everything. Browser tests (test/browser) drive real Chromium and take longer;
// island tests opt into happy-dom with a `// @vitest-environment happy-dom` comment.
export default defineConfig({
  // Tests run React in production mode (as the build does), so compile JSX for the production runtime.
  oxc: { jsx: { runtime: "automatic", development: false } },
  test: {
    include: ["test/**/*.test.{ts,tsx}"],
    environment: "node",
    // Finds or unpacks Chromium once, before the workers start (test/support/chromium-path.ts).
    globalSetup: ["test/support/global-setup.ts"],
    // Limits that catch hangs, scaled for a loaded machine (test/support/time-limits.ts).
    testTimeout: hangLimit(30_000),
    hookTimeout: hangLimit(120_000),
    // Two cores: run files in parallel but not more than the machine has.
    maxWorkers: 2,
    env: { NODE_ENV: "production" },
    // Each run also leaves a JSON report, which `npm run test:slowest` and CI's closing line read.
    reporters: ["default", "json"],
    outputFile: { json: ".nzf-cache/test-results.json" },
  },
});
