#!/usr/bin/env node
// `npm test`: compile the CLI (the tests run it as users do), then run the typecheck and the linter
// beside the test files instead of before them. They were 30 s of a run that left the second core
// idle; the test files wait on browsers, servers and child processes often enough to make room.
// Each check's report is printed as soon as it ends and named again in the closing summary; the
// exit status is the first failure's. Arguments go to vitest: `npm test -- test/browser`.
import { spawn } from "node:child_process";
import { performance } from "node:perf_hooks";

const bin = (name) => new URL(`../node_modules/.bin/${name}`, import.meta.url).pathname;

/** Runs a command; its output is kept, or passed straight through when `live`. */
function run(label, command, args, live = false) {
  const started = performance.now();
  return new Promise((resolve) => {
    const child = spawn(command, args, { stdio: live ? "inherit" : ["ignore", "pipe", "pipe"] });
    let output = "";
    child.stdout?.on("data", (chunk) => {
      output += chunk;
    });
    child.stderr?.on("data", (chunk) => {
      output += chunk;
    });
    child.on("error", (error) => resolve({ label, status: 1, output: `${error.message}\n`, started }));
    child.on("close", (code, signal) => {
      const seconds = ((performance.now() - started) / 1000).toFixed(1);
      const status = code ?? (signal ? 1 : 0);
      if (!live) {
        const verdict = status === 0 ? "passed" : `FAILED (exit ${code ?? signal})`;
        process.stdout.write(`\nnpm test: ${label} ${verdict} in ${seconds} s\n${status === 0 ? "" : output}`);
      }
      resolve({ label, status, seconds });
    });
  });
}

const compiled = await run("compile the CLI", process.execPath, ["scripts/compile-cli.mjs"]);
if (compiled.status !== 0) process.exit(compiled.status);

// The typecheck keeps what it learnt in .nzf-cache, so a second run reads only what changed.
const checks = [
  run("typecheck (tsc)", bin("tsc"), ["--noEmit", "--incremental", "--tsBuildInfoFile", ".nzf-cache/tsc.tsbuildinfo"]),
  run("lint (biome)", bin("biome"), ["check", "--diagnostic-level=error", "."]),
];
const tests = await run("tests (vitest)", bin("vitest"), ["run", ...process.argv.slice(2)], true);
const results = [...(await Promise.all(checks)), tests];
const failed = results.filter((result) => result.status !== 0);
console.log(
  failed.length === 0
    ? "npm test: typecheck, lint and tests passed"
    : `npm test: failed: ${failed.map((result) => result.label).join(", ")} (reports above)`,
);
process.exit(failed[0]?.status ?? 0);
