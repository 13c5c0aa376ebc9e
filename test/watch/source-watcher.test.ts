/**
 * Watch mode's file watcher reports every save a rebuild may have missed, also one chokidar leaves
 * out: a second save of a file within 50 ms of the last change chokidar reported
 * (src/watch/source-watcher.ts). Before it, such a save landing after a rebuild had read the file
 * made no rebuild at all. Here each report is taken at once, as by a rebuild that reads it then.
 */
import { afterEach, describe, expect, it } from "vitest";
import { mkdtemp, rm, truncate, writeFile } from "node:fs/promises";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { tmpdir } from "node:os";
import { watchSources, type SourceWatcher } from "../../src/watch/source-watcher.js";

let dir: string | undefined;
let watcher: SourceWatcher | undefined;

afterEach(async () => {
  await watcher?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

/** Watches a folder with one file; each report is kept with what the file held when it came. */
async function watchOneFile() {
  dir = await mkdtemp(join(tmpdir(), "nzf-source-watcher-"));
  const file = join(dir, "page.tsx");
  await writeFile(file, "<h1>start</h1>\n");
  const seen: string[] = [];
  let reported = () => {};
  watcher = watchSources([dir], {
    ignored: () => false,
    onChange: (path) => {
      if (path !== file) return;
      seen.push(readFileSync(path, "utf8"));
      watcher?.taking([path]);
      reported();
    },
    onError: (error) => {
      throw error;
    },
  });
  await watcher.ready;
  /** Resolves at the next report, or with false when none came within `ms` (a bound, not a speed check). */
  const nextReport = (ms: number) =>
    new Promise<boolean>((resolve) => {
      const timer = setTimeout(() => resolve(false), ms);
      reported = () => {
        clearTimeout(timer);
        resolve(true);
      };
    });
  return { file, seen, nextReport };
}

describe("watch mode's source watcher", () => {
  it("reports a save made 20 ms after the last reported change of the same file", async () => {
    const { file, seen, nextReport } = await watchOneFile();
    const first = nextReport(30_000);
    await writeFile(file, "<h1>broken</h2>\n");
    expect(await first).toBe(true);
    // Within chokidar's 50 ms of its report, after the rebuild took the file: chokidar alone never reports it.
    await new Promise((r) => setTimeout(r, 20));
    await writeFile(file, "<h1>fixed!</h1>\n");
    // A report that saw the fix, however late the machine runs (30 s is a bound, not a speed check).
    for (let i = 0; i < 10 && !seen.includes("<h1>fixed!</h1>\n"); i++) if (!(await nextReport(3_000))) break;
    expect(seen).toContain("<h1>fixed!</h1>\n");
  });

  it("reports the last of many quick saves", async () => {
    // Each sooner than chokidar reports again: the last one may fall in its window.
    const { file, seen, nextReport } = await watchOneFile();
    for (let i = 0; i < 8; i++) {
      await writeFile(file, `<h1>save ${i}</h1>\n`);
      await new Promise((r) => setTimeout(r, 7));
    }
    const last = "<h1>save 7</h1>\n";
    for (let i = 0; i < 10 && seen[seen.length - 1] !== last; i++) if (!(await nextReport(3_000))) break;
    expect(seen[seen.length - 1]).toBe(last);
  });

  it("reports a save in place once its content is written, not the empty file between truncate and write", async () => {
    const { file, seen, nextReport } = await watchOneFile();
    const report = nextReport(30_000);
    // As an editor saving in place does, with the machine pausing between the two.
    await truncate(file);
    await new Promise((r) => setTimeout(r, 30));
    await writeFile(file, "<h1>saved</h1>\n");
    expect(await report).toBe(true);
    expect(seen[0]).toBe("<h1>saved</h1>\n");
    expect(seen).not.toContain("");
  });

  it("reports a file emptied on purpose", async () => {
    const { file, seen, nextReport } = await watchOneFile();
    const report = nextReport(30_000);
    await truncate(file);
    expect(await report).toBe(true);
    expect(seen).toEqual([""]);
  });
});
