#!/usr/bin/env node
// The slowest test files of the last run, from the timings test/support/file-timings-reporter.ts
// leaves in .nzf-cache/test-timings.json. Usage: npm run test:slowest [-- <count> [timings file]]
// A file's time is all it held its worker: importing it, its hooks (a browser launch, a build, a
// service start) and its tests. Files that ran side by side overlap, so the files' times add up to
// about the run's wall time × its workers when the workers were never idle.
import { readFileSync } from "node:fs";

const count = Number(process.argv[2] ?? 10);
const timingsPath = process.argv[3] ?? ".nzf-cache/test-timings.json";
let timings;
try {
  timings = JSON.parse(readFileSync(timingsPath, "utf8"));
} catch (error) {
  console.error(
    `[TEST_REPORT_MISSING] No test timings at ${timingsPath} (${error.code ?? error.message}).\n` +
      "  hint: Run the tests first (npm test, or npx vitest run <files>); each run writes them.",
  );
  process.exit(1);
}
const seconds = (ms) => (ms / 1000).toFixed(1).padStart(6);
const files = [...timings.files].sort((a, b) => b.total - a.total);
const sum = (key) => files.reduce((total, file) => total + file[key], 0);
console.log(
  `slowest ${Math.min(count, files.length)} of ${files.length} test files (run took ${seconds(timings.wallMs).trim()} s; ` +
    `files' times add up to ${seconds(sum("total")).trim()} s, of which importing ${seconds(sum("import")).trim()} s):`,
);
console.log("  total  import  hooks+tests");
for (const file of files.slice(0, count))
  console.log(
    `${seconds(file.total)} s ${seconds(file.import)} s ${seconds(file.run)} s  ` +
      `${String(file.tests).padStart(3)} tests${file.failed ? ` (${file.failed} failed)` : ""}  ${file.file}`,
  );
