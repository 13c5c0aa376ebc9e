/**
 * `npm run bench -- watch`: watch mode's latency as a developer feels it, from saving a file to the
 * new HTML being served, on the sample. The compiled CLI runs `--watch` in a new process on a copy
 * of the project (templates, src, assets, the sample), sharing the project's image cache so the
 * first build makes no image. Three edits, each a warm-up then `runs` times: a content field (a
 * partner's summary, shown on its page and /programs/), a page template (the Ramadan calendars'
 * heading) and the shared layout (the footer, on every page). Each run polls the page every 10 ms
 * until its HTML has the edit, then waits for the end of the rebuild (the editor-preview bundle, made
 * after the pages, logs a line with --verbose) and a quiet moment before the next save. Each edit's
 * line is followed by where the time went (the medians of the rebuilds' breakdowns: src/watch/watch.ts).
 * The load average (`uptime`) is printed before and after: the figures follow it.
 * NZF_WATCH_RUNS=<n> sets the number of runs (default 10).
 */
import { spawn, type ChildProcess } from "node:child_process";
import { cp, mkdir, mkdtemp, readFile, rm, symlink, writeFile } from "node:fs/promises";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { readSnapshot, writeSnapshot } from "../src/content/snapshot.js";
import { PREVIEW_LINE } from "../src/watch/watch.js";

export interface WatchBenchOptions {
  root: string;
  runs?: number;
  print?: (line: string) => void;
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const load = () =>
  loadavg()
    .map((l) => l.toFixed(2))
    .join(", ");
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

interface Edit {
  name: string;
  goalMs: number;
  page: string;
  /** Saves the file with a change carrying `mark`, which the page then shows. */
  save(mark: string): Promise<void>;
}

/**
 * The last rebuild's breakdown in these terminal lines (src/watch/watch.ts, breakdownOf), with the
 * bench's own parts: `event` from the save to the watcher seeing it, `served` from the build's end
 * to the bench's fetch having the new HTML (the live-reload message and the poll's 10 ms).
 */
function lastBreakdown(lines: string, savedAt: number, totalMs: number): Record<string, number> | null {
  const found = [...lines.matchAll(/breakdown ((?:\w+=\d+ ?)+)/g)].at(-1);
  if (!found) return null;
  const parts = Object.fromEntries(
    found[1]!
      .trim()
      .split(" ")
      .map((part) => part.split("=") as [string, string])
      .map(([name, value]) => [name, Number(value)]),
  );
  const { seen = savedAt, quiet = 0, build = 0, ...rest } = parts;
  const event = Math.max(0, seen - savedAt);
  return { event, quiet, ...rest, build, served: Math.max(0, Math.round(totalMs - event - quiet - build)) };
}

/** Parts of the breakdown that count pages, not milliseconds. */
const COUNTS = new Set(["rendered", "bodiesReused", "written"]);

/** The median of each part over the runs, in the order the parts came: the times, then the page counts. */
function describe(breakdowns: Record<string, number>[]): string {
  const names = [...new Set(breakdowns.flatMap((b) => Object.keys(b)))];
  const medianOf = (name: string) => Math.round(median(breakdowns.map((b) => b[name] ?? 0)));
  const times = names.filter((n) => !COUNTS.has(n)).map((n) => `${n} ${medianOf(n)}`);
  const counts = names.filter((n) => COUNTS.has(n)).map((n) => `${n} ${medianOf(n)}`);
  return `${times.join(", ")}; pages: ${counts.join(", ")}`;
}

export async function benchWatch(options: WatchBenchOptions): Promise<void> {
  const print = options.print ?? ((l: string) => console.log(l));
  const runs = options.runs ?? (Number(process.env.NZF_WATCH_RUNS) || 10);
  const root = await mkdtemp(join(tmpdir(), "nzf-bench-watch-"));
  let child: ChildProcess | undefined;
  try {
    for (const dir of ["templates", "src", "assets", "content-cache/sample"])
      await cp(join(options.root, dir), join(root, dir), { recursive: true });
    for (const file of ["package.json", "package-lock.json", "tsconfig.json"])
      await cp(join(options.root, file), join(root, file));
    await symlink(join(options.root, "node_modules"), join(root, "node_modules"), "dir");
    await mkdir(join(options.root, ".nzf-cache", "images"), { recursive: true });
    await mkdir(join(root, ".nzf-cache"), { recursive: true });
    await symlink(join(options.root, ".nzf-cache", "images"), join(root, ".nzf-cache", "images"), "dir");

    const started = performance.now();
    child = spawn(
      process.execPath,
      // --verbose: each rebuild logs where its time went (src/watch/watch.ts, breakdownOf).
      [join(options.root, "bin", "nzf-build"), "--watch", "--sample", "--verbose", "--root", root, "--port", "0"],
      { cwd: root, stdio: ["ignore", "pipe", "pipe"], env: { ...process.env, NO_COLOR: "1" } },
    );
    let output = "";
    let rebuilds = 0;
    // The terminal's lines, whichever stream the logger writes them to. A rebuild has ended once the
    // editor-preview bundle, made after the pages are served, has been dealt with.
    const onOutput = (chunk: Buffer) => {
      output += chunk;
      rebuilds = output.split(PREVIEW_LINE).length - 1;
    };
    child.stdout!.on("data", onOutput);
    child.stderr!.on("data", onOutput);
    const url = await new Promise<string>((resolve, reject) => {
      const timer = setInterval(() => {
        const found = /serving .* at (http:\/\/127\.0\.0\.1:\d+)\//.exec(output);
        if (found) {
          clearInterval(timer);
          resolve(found[1]!);
        } else if (child!.exitCode !== null || performance.now() - started > 180_000) {
          clearInterval(timer);
          reject(new Error(`watch mode did not start:\n${output}`));
        }
      }, 50);
    });
    print(`watch   first build served at ${url} after ${((performance.now() - started) / 1000).toFixed(1)} s`);

    const snapshotFile = join(root, "content-cache/sample/snapshot.json");
    const partner = (await readSnapshot(snapshotFile)).documents.find(
      (d) => d.type === "partner" && d.lang === "en-au" && d.uid === "safe-harbour-housing",
    );
    if (!partner) throw new Error("the sample has no English partner safe-harbour-housing");
    const replaceIn = async (file: string, pattern: RegExp, replacement: string) => {
      const path = join(root, file);
      const text = await readFile(path, "utf8");
      if (!pattern.test(text)) throw new Error(`${file} has no ${pattern}`);
      await writeFile(path, text.replace(pattern, replacement));
    };
    const edits: Edit[] = [
      {
        name: "content",
        goalMs: 100,
        page: `/partner/${partner.uid}/`,
        async save(mark) {
          const snapshot = await readSnapshot(snapshotFile);
          const doc = snapshot.documents.find((d) => d.id === partner.id)!;
          (doc.data as { summary: string }).summary = `Summary ${mark}`;
          await writeSnapshot(snapshotFile, snapshot);
        },
      },
      {
        name: "page template",
        goalMs: 200,
        page: "/ramadan-calendars/",
        save: (mark) =>
          replaceIn(
            "templates/pages/static-pages.tsx",
            /<h1>Ramadan calendars[^<]*<\/h1>/,
            `<h1>Ramadan calendars ${mark}</h1>`,
          ),
      },
      {
        name: "shared layout",
        goalMs: 300,
        page: "/ramadan-calendars/",
        save: (mark) =>
          replaceIn(
            "templates/components/layout.tsx",
            /<h2 id="footer-contact"[^>]*>/,
            `<h2 id="footer-contact" data-bench="${mark}">`,
          ),
      },
    ];
    print(`watch   load average before: ${load()}`);
    let n = 0;
    for (const edit of edits) {
      const times: number[] = [];
      const breakdowns: Record<string, number>[] = [];
      for (let run = 0; run <= runs; run++) {
        const mark = `bench${++n}`;
        const before = rebuilds;
        const from = output.length;
        const savedAt = Date.now();
        const t0 = performance.now();
        await edit.save(mark);
        for (;;) {
          // A kept-alive connection the server closed as it was reused is tried again.
          const html = await fetch(url + edit.page)
            .then((r) => r.text())
            .catch((error: Error) => {
              if (child!.exitCode !== null)
                throw new Error(`watch mode ended:\n${output.slice(-2000)}`, { cause: error });
              return "";
            });
          if (html.includes(mark)) break;
          if (performance.now() - t0 > 60_000)
            throw new Error(`${edit.name}: no new HTML after 60 s:\n${output.slice(-2000)}`);
          await sleep(10);
        }
        const ms = performance.now() - t0;
        if (run > 0) times.push(ms); // the first is a warm-up
        // The rebuild's end in the terminal (or, should it not come, 3 s), then a quiet moment before the next save.
        for (const waitUntil = performance.now() + 3000; rebuilds === before && performance.now() < waitUntil; )
          await sleep(20);
        await sleep(200);
        const breakdown = lastBreakdown(output.slice(from), savedAt, ms);
        if (run > 0 && breakdown) breakdowns.push(breakdown);
      }
      print(
        `watch   ${edit.name.padEnd(13)} save → new HTML served: median ${Math.round(median(times))} ms (goal ≤ ${edit.goalMs} ms; runs ${times.map(Math.round).join(", ")})`,
      );
      if (breakdowns.length) print(`watch   ${"".padEnd(13)} where it went (medians, ms): ${describe(breakdowns)}`);
    }
    print(`watch   load average after: ${load()}`);
  } finally {
    if (child && child.exitCode === null) {
      const exited = new Promise((r) => child!.once("exit", r));
      child.kill("SIGTERM");
      await exited;
    }
    await rm(root, { recursive: true, force: true });
  }
}
