/**
 * `npm run bench -- scale` (issue 27): does the build's cost grow linearly with the repository?
 * Builds 2,000 and 20,000 synthetic documents with the compiled CLI in a new process, into memory
 * (/dev/shm, where there is one) and into a folder on disk, and prints for each the wall time, the
 * CPU time and the peak memory of the whole process tree, and the ratio 20,000 / 2,000.
 */
import { spawn } from "node:child_process";
import { cp, mkdtemp, readFile, readdir, rm, symlink } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { exists } from "../src/core/fs.js";
import { readSnapshot, writeSnapshot } from "../src/content/snapshot.js";
import { syntheticDocuments } from "./synthetic.js";

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

/** Resident memory of a process and all its descendants, in bytes (0 once it has gone). */
async function treeRss(pid: number): Promise<number> {
  let total = 0;
  try {
    const status = await readFile(`/proc/${pid}/status`, "utf8");
    total += Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) * 1024;
    for (const task of await readdir(`/proc/${pid}/task`)) {
      const children = (await readFile(`/proc/${pid}/task/${task}/children`, "utf8").catch(() => "")).trim();
      for (const child of children ? children.split(" ") : []) total += await treeRss(Number(child));
    }
  } catch {
    // The process ended between two reads.
  }
  return total;
}

async function runCli(cli: string, args: string[]): Promise<Run> {
  const cpuBefore = await childrenCpuMs();
  const started = performance.now();
  const child = spawn(process.execPath, [cli, ...args], { stdio: ["ignore", "ignore", "pipe"] });
  let stderr = "";
  child.stderr.on("data", (chunk) => (stderr += chunk));
  let peak = 0;
  let sampling = true;
  const sampler = (async () => {
    while (sampling) {
      peak = Math.max(peak, await treeRss(child.pid!));
      await new Promise((r) => setTimeout(r, 20));
    }
  })();
  const code = await new Promise<number | null>((resolve) => child.on("close", resolve));
  const wallMs = performance.now() - started;
  sampling = false;
  await sampler;
  if (code !== 0) throw new Error(`nzf-build ${args.join(" ")} exited with ${code}:\n${stderr}`);
  return { wallMs, cpuMs: (await childrenCpuMs()) - cpuBefore, peakMb: peak / 1024 / 1024 };
}

export async function benchScale(options: { root: string; runs?: number; print?: (line: string) => void }) {
  const print = options.print ?? ((l: string) => console.log(l));
  const runs = options.runs ?? 3;
  const cli = join(options.root, "bin/nzf-build");
  // A private copy of the sources, so the project's own work folder and build record are untouched.
  const root = await mkdtemp(join(tmpdir(), "nzf-bench-scale-"));
  for (const dir of ["templates", "src", "assets"])
    await cp(join(options.root, dir), join(root, dir), { recursive: true });
  await cp(join(options.root, "package-lock.json"), join(root, "package-lock.json"));
  await symlink(join(options.root, "node_modules"), join(root, "node_modules"));
  const memory = (await exists("/dev/shm")) ? "/dev/shm" : null;
  const made: string[] = [root];
  try {
    const sample = await readSnapshot(join(options.root, "content-cache/sample/snapshot.json"));
    const figures: Record<string, Run> = {};
    for (const count of [2000, 20000]) {
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
      // The first build compiles the templates, islands and render worker into the work folder.
      const warm = await mkdtemp(join(tmpdir(), "nzf-scale-warm-"));
      made.push(warm);
      await runCli(cli, [...args, "--out", warm]);
      for (const [where, base] of [
        ["memory", memory],
        ["disk", tmpdir()],
      ] as const) {
        if (!base) continue;
        const results: Run[] = [];
        for (let i = 0; i < runs; i++) {
          const out = await mkdtemp(join(base, "nzf-scale-"));
          made.push(out);
          results.push(await runCli(cli, [...args, "--out", out]));
          // Removed at once: 20,000 pages in /dev/shm are 20,000 files of memory.
          for (const dir of [out, `${out}.versions`]) await rm(dir, { recursive: true, force: true });
        }
        const run: Run = {
          wallMs: median(results.map((r) => r.wallMs)),
          cpuMs: median(results.map((r) => r.cpuMs)),
          // The highest of the runs': the target is a ceiling (the first run, which makes the caches, may peak higher).
          peakMb: Math.max(...results.map((r) => r.peakMb)),
        };
        figures[`${count} ${where}`] = run;
        const each = results.map((r) => `${(r.wallMs / 1000).toFixed(2)}`).join(", ");
        print(
          `scale   ${count.toLocaleString("en-AU")} documents into ${where === "memory" ? `memory (${base})` : "a folder on disk"}: ` +
            `wall ${(run.wallMs / 1000).toFixed(2)} s (runs ${each}), CPU ${(run.cpuMs / 1000).toFixed(2)} s, ` +
            `peak memory ${Math.round(run.peakMb)} MB (the process tree's resident set, highest run; runs ${results.map((r) => Math.round(r.peakMb)).join(", ")}); ${snapshot.documents.length} documents`,
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
  } finally {
    for (const dir of made) await rm(dir, { recursive: true, force: true });
  }
}
