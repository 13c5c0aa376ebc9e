/**
 * A fix saved while the failing rebuild runs, after that rebuild compiled the broken file: watch
 * mode builds once more, from what is on disk then, and serves it (src/watch/watch.ts starts one
 * more build for a change seen during a build). The change is seen even when it lands within 50 ms
 * of the one being built, which chokidar alone does not report (src/watch/source-watcher.ts).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cp, mkdtemp, readFile, rm, symlink, writeFile } from "node:fs/promises";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { tmpdir } from "node:os";
import { PROJECT_ROOT } from "../support/build-fixture.js";
import { resolveConfig } from "../../src/core/config.js";
import { createMemoryLogger } from "../../src/core/logger.js";
import type { WatchSession } from "../../src/watch/watch.js";
import { type BuildEnd, type BuildOutcome, startListenedWatch } from "../support/watch-session.js";
import { sharedImageCache } from "../support/shared-images.js";

const FILE = "templates/pages/static-pages.tsx";
let root: string;
let workDir: string | undefined;
let session: WatchSession;
const logger = createMemoryLogger();

/** Each rebuild as it ends; `onEnded` runs as the session logs the end, while the build still counts as running. */
const ended: BuildEnd[] = [];
let onEnded: ((number: number, outcome: BuildOutcome) => void) | null = null;
let lastChangeAt = 0;

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), "nzf-watch-save-"));
  for (const dir of ["templates", "src", "assets", "content-cache/sample"])
    await cp(join(PROJECT_ROOT, dir), join(root, dir), { recursive: true });
  await cp(join(PROJECT_ROOT, "package-lock.json"), join(root, "package-lock.json"));
  await symlink(join(PROJECT_ROOT, "node_modules"), join(root, "node_modules"));
  workDir = await mkdtemp(join(PROJECT_ROOT, ".nzf-cache", "test-watch-save-"));
  const config = resolveConfig(
    { root, out: join(root, "dist"), workDir, imageCacheDir: sharedImageCache(), sample: true },
    {},
  );
  // The quiet before a rebuild (DEBOUNCE_MS): the window the lost save fell into.
  session = await startListenedWatch(
    config,
    { logger, port: 0 },
    {
      saw() {
        lastChangeAt = performance.now();
      },
      ended(end) {
        ended.push(end);
        onEnded?.(end.number, end.outcome);
      },
    },
  );
}, 180_000);

afterAll(async () => {
  await session?.stop();
  await rm(root, { recursive: true, force: true });
  if (workDir) await rm(workDir, { recursive: true, force: true });
});

/** The first rebuild after `number` that ended with no change left unbuilt; an Error if none came within `ms`. */
async function buildAfter(number: number, ms: number): Promise<BuildOutcome> {
  const deadline = performance.now() + ms;
  for (;;) {
    const done = ended.find((e) => e.number > number && !e.more);
    if (done) return done.outcome;
    if (performance.now() > deadline) return new Error(`no rebuild after build ${number} within ${ms} ms`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe("a save made while a rebuild runs", { timeout: 120_000 }, () => {
  it("is built next, even when it lands right after the save being built (the developer's fix is never lost)", async () => {
    const path = join(root, FILE);
    const text = await readFile(path, "utf8");
    const brokenText = text.replace("<h1>Ramadan calendars</h1>", "<h1>Ramadan calendars 1451</h2>");
    const fixedText = text.replace("<h1>Ramadan calendars</h1>", "<h1>Ramadan calendars 1452</h1>");
    expect(brokenText).not.toBe(text);

    // The broken save's rebuild fails; as it ends (still running), the fix is saved.
    let fixedDuring = -1;
    let savedAfterChangeMs = -1;
    onEnded = (number, outcome) => {
      if (!(outcome instanceof Error) || fixedDuring >= 0) return;
      writeFileSync(path, fixedText);
      fixedDuring = number;
      savedAfterChangeMs = performance.now() - lastChangeAt;
    };
    await writeFile(path, brokenText);
    for (let waited = 0; fixedDuring < 0 && waited < 60_000; waited += 20) await new Promise((r) => setTimeout(r, 20));
    expect(fixedDuring, "a rebuild of the broken save failed").toBeGreaterThan(0);

    // One more rebuild follows, from the fixed file, and the site serves it.
    const fixed = await buildAfter(fixedDuring, 30_000);
    expect(
      fixed instanceof Error
        ? `${fixed.message} (fix saved ${Math.round(savedAfterChangeMs)} ms after the change)`
        : "built",
    ).toBe("built");
    expect(await (await fetch(`${session.url}/ramadan-calendars/`)).text()).toContain("Ramadan calendars 1452");
  });
});
