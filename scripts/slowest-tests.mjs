#!/usr/bin/env node
// The slowest test files of the last run, from the JSON report vitest leaves in
// .nzf-cache/test-results.json (vitest.config.ts). Usage: npm run test:slowest [-- <count> [report]]
// A file's time is its wall time in its worker, so files that ran side by side overlap.
import { readFileSync } from "node:fs";
import { relative } from "node:path";

const count = Number(process.argv[2] ?? 10);
const reportPath = process.argv[3] ?? ".nzf-cache/test-results.json";
let report;
try {
  report = JSON.parse(readFileSync(reportPath, "utf8"));
} catch (error) {
  console.error(
    `[TEST_REPORT_MISSING] No test report at ${reportPath} (${error.code ?? error.message}).\n` +
      "  hint: Run the tests first (npm test, or npx vitest run <files>); each run writes it.",
  );
  process.exit(1);
}
const files = report.testResults
  .map((file) => ({
    name: relative(process.cwd(), file.name),
    seconds: (file.endTime - file.startTime) / 1000,
    tests: file.assertionResults.length,
    failed: file.assertionResults.filter((t) => t.status === "failed").length,
  }))
  .sort((a, b) => b.seconds - a.seconds);
const total = files.reduce((sum, file) => sum + file.seconds, 0);
const wall = (Math.max(...report.testResults.map((f) => f.endTime)) - report.startTime) / 1000;
console.log(
  `slowest ${Math.min(count, files.length)} of ${files.length} test files (run took ${wall.toFixed(0)} s; files' times add up to ${total.toFixed(0)} s):`,
);
for (const file of files.slice(0, count))
  console.log(
    `${file.seconds.toFixed(1).padStart(7)} s  ${String(file.tests).padStart(3)} tests${file.failed ? ` (${file.failed} failed)` : ""}  ${file.name}`,
  );
