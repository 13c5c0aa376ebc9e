// The launcher's check that lib/ (the compiled CLI) is as new as its sources in src/. A developer
// who edits, say, src/content/page-types.ts and runs `npm run build` would otherwise build with the
// code from before the edit, silently. Plain JavaScript: it runs before anything is compiled.
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { fileURLToPath } from "node:url";

const root = new URL("../", import.meta.url);
const lock = new URL("lib/.compiling", root);

/** The first source newer than the compiled CLI (or gone), or null when lib/ is up to date. */
function staleSource() {
  const compiledAt = statSync(new URL("lib/build-id", root), { throwIfNoEntry: false })?.mtimeMs;
  if (compiledAt === undefined) return "lib/build-id";
  let sources;
  try {
    sources = JSON.parse(readFileSync(new URL("lib/cli-sources.json", root), "utf8"));
  } catch {
    return "lib/cli-sources.json";
  }
  for (const source of sources) {
    const changed = statSync(new URL(source, root), { throwIfNoEntry: false })?.mtimeMs;
    if (changed === undefined || changed > compiledAt) return source;
  }
  return null;
}

function sleep(ms) {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

export function recompileIfStale() {
  // lib/ missing altogether is the launcher's NOT_COMPILED error, with its hint.
  if (!existsSync(new URL("lib/nzf-build.mjs", root)) || !staleSource()) return;
  // Several processes started at once (tests, `npm start` beside a build) compile once: one holds
  // the lock, the others wait for it and find lib/ up to date.
  for (;;) {
    try {
      mkdirSync(lock);
      break;
    } catch (error) {
      if (error.code !== "EEXIST") throw error;
      const age = Date.now() - (statSync(lock, { throwIfNoEntry: false })?.mtimeMs ?? Date.now());
      // A compile takes seconds: a lock a minute old was left by a process that died.
      if (age > 60_000) rmSync(lock, { recursive: true, force: true });
      else sleep(100);
    }
  }
  try {
    const source = staleSource();
    if (!source) return;
    process.stderr.write(`nzf-build: ${source} changed since nzf-build was compiled; compiling it again\n`);
    execFileSync(process.execPath, [fileURLToPath(new URL("scripts/compile-cli.mjs", root))], { stdio: "inherit" });
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
}
