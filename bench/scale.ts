/**
 * `npm run bench -- scale` (issue 27): does the build's cost grow linearly with the repository?
 * Builds 2,000 and 20,000 synthetic documents with the compiled CLI in a new process, into memory
 * (/dev/shm, where there is one) and into a folder on disk, and prints for each the wall time, the
 * CPU time and the peak memory of the whole process tree (as the kernel counts it), and the ratio
 * 20,000 / 2,000; and the first build of each new snapshot (CI's case) apart.
 */
import { spawn } from "node:child_process";
import { cp, mkdtemp, readFile, rm, symlink } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { exists } from "../src/core/fs.js";
import { readSnapshot, writeSnapshot } from "../src/content/snapshot.js";
import { syntheticDocuments } from "./synthetic.js";
import { treePeakCounter } from "./max-rss.js";

interface Run {
  wallMs: number;
  cpuMs: number;
  peakMb: number;
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const TICKS_PER_SECOND = 100; // USER_HZ on Linux

/** CPU time of this process's waited-for children (and theirs), from /proc/self/stat, in ms. */
async function childrenCpuMs(): Promise<number> {
  const stat = await readFile("/proc/self/stat", "utf8");
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  // Fields 16 and 17 of the whole line (cutime, cstime) are 13 and 14 after the command name.
  return ((Number(fields[13]) + Number(fields[14])) * 1000) / TICKS_PER_SECOND;
}

async function runCli(cli: string, args: string[], peaks: TreePeaks): Promise<Run> {
  const cpuBefore = await childrenCpuMs();
  const started = performance.now();
  const child = spawn(process.execPath, [cli, ...args], {
    stdio: ["ignore", "ignore", "pipe"],
    env: peaks.env(process.env),
  });
  let stderr = "";
  child.stderr.on("data", (chunk) => (stderr += chunk));
  const code = await new Promise<number | null>((resolve) => child.on("close", resolve));
  const wallMs = performance.now() - started;
  if (code !== 0) throw new Error(`nzf-build ${args.join(" ")} exited with ${code}:\n${stderr}`);
  return { wallMs, cpuMs: (await childrenCpuMs()) - cpuBefore, peakMb: await peaks.peakMb() };
}

type TreePeaks = Awaited<ReturnType<typeof treePeakCounter>>;

export async function benchScale(options: {
  root: string;
  runs?: number;
  /** Repository sizes to build (a quick look at one size: [20000]). */
  counts?: number[];
  print?: (line: string) => void;
}) {
  const print = options.print ?? ((l: string) => console.log(l));
  const runs = options.runs ?? 3;
  const cli = join(options.root, "bin/nzf-build");
  // A private copy of the sources, so the project's own work folder and build record are untouched.
  const root = await mkdtemp(join(tmpdir(), "nzf-bench-scale-"));
  for (const dir of ["templates", "src", "assets"])
    await cp(join(options.root, dir), join(root, dir), { recursive: true });
  await cp(join(options.root, "package-lock.json"), join(root, "package-lock.json"));
  await symlink(join(options.root, "node_modules"), join(root, "node_modules"));
  // Each process of a run's tree reports its ru_maxrss (bench/max-rss.ts).
  const preload = await treePeakCounter(root);
  const memory = (await exists("/dev/shm")) ? "/dev/shm" : null;
  const made: string[] = [root];
  try {
    const sample = await readSnapshot(join(options.root, "content-cache/sample/snapshot.json"));
    const figures: Record<string, Run> = {};
    for (const count of options.counts ?? [2000, 20000]) {
      const repository = `nzf-scale-${count}`;
      const contentDir = join(root, "content-cache");
      const snapshot = await writeSnapshot(join(contentDir, repository, "snapshot.json"), {
        ...sample,
        documents: syntheticDocuments(sample.documents, count),
      });
      const bytes = (await readFile(join(contentDir, repository, "snapshot.json"))).length;
      print(
        `scale   ${count.toLocaleString("en-AU")} documents: snapshot ${(bytes / 1024 / 1024).toFixed(1)} MB, ${runs} runs each, medians`,
      );
      const args = ["--root", root, "--content-dir", contentDir, "--repository", repository];
      // The first build of a new snapshot (CI's case: after a fetch, no index, plan or facts of it
      // kept yet); the first of all also compiles the templates, islands and render worker.
      const warm = await mkdtemp(join(tmpdir(), "nzf-scale-warm-"));
      made.push(warm);
      const first = await runCli(cli, [...args, "--out", warm], preload);
      print(
        `scale   ${count.toLocaleString("en-AU")} documents, first build of the snapshot (onto disk): wall ${(first.wallMs / 1000).toFixed(2)} s, CPU ${(first.cpuMs / 1000).toFixed(2)} s, peak memory ${Math.round(first.peakMb)} MB`,
      );
      figures[`${count} first`] = first;
      for (const [where, base] of [
        ["memory", memory],
        ["disk", tmpdir()],
      ] as const) {
        if (!base) continue;
        const results: Run[] = [];
        for (let i = 0; i < runs; i++) {
          const out = await mkdtemp(join(base, "nzf-scale-"));
          made.push(out);
          results.push(await runCli(cli, [...args, "--out", out], preload));
          // Removed at once: 20,000 pages in /dev/shm are 20,000 files of memory.
          for (const dir of [out, `${out}.versions`]) await rm(dir, { recursive: true, force: true });
        }
        const run: Run = {
          wallMs: median(results.map((r) => r.wallMs)),
          cpuMs: median(results.map((r) => r.cpuMs)),
          // The highest of the runs': the target is a ceiling.
          peakMb: Math.max(...results.map((r) => r.peakMb)),
        };
        figures[`${count} ${where}`] = run;
        const each = results.map((r) => `${(r.wallMs / 1000).toFixed(2)}`).join(", ");
        print(
          `scale   ${count.toLocaleString("en-AU")} documents into ${where === "memory" ? `memory (${base})` : "a folder on disk"}: ` +
            `wall ${(run.wallMs / 1000).toFixed(2)} s (runs ${each}), CPU ${(run.cpuMs / 1000).toFixed(2)} s, ` +
            `peak memory ${Math.round(run.peakMb)} MB (the kernel's peak resident set of the process tree, highest run; runs ${results.map((r) => Math.round(r.peakMb)).join(", ")}); ${snapshot.documents.length} documents`,
        );
      }
    }
    for (const where of ["memory", "disk"]) {
      const small = figures[`2000 ${where}`];
      const large = figures[`20000 ${where}`];
      if (!small || !large) continue;
      print(
        `scale   20,000 / 2,000 into ${where}: wall ×${(large.wallMs / small.wallMs).toFixed(1)} (target ≤ ×10), ` +
          `CPU ×${(large.cpuMs / small.cpuMs).toFixed(1)}, peak memory ${Math.round(large.peakMb)} MB (target ≤ 600 MB)`,
      );
    }
    const cold = figures["20000 first"];
    if (cold)
      print(
        `scale   20,000 documents, first build of the snapshot: peak memory ${Math.round(cold.peakMb)} MB (target ≤ 600 MB)`,
      );
  } finally {
    for (const dir of made) await rm(dir, { recursive: true, force: true });
  }
}
