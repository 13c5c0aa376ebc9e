/**
 * Peak memory as the kernel counts it (getrusage's ru_maxrss, which process.resourceUsage().maxRSS
 * reads, in KiB; a process's threads included), for a process and for every Node process of a
 * child's tree. Sampling /proc or process.memoryUsage() every 20 ms missed peaks: it gave 583 MB
 * for a 20,000-document build that the kernel counted at 690-697 MB.
 */
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { readFile, rm } from "node:fs/promises";

/**
 * Loaded with --import into every Node process of a child's tree (through NODE_OPTIONS): as each
 * exits, it appends its pid and its ru_maxrss to the file NZF_BENCH_MAXRSS names.
 */
const MAX_RSS_REPORT = `import { appendFileSync } from "node:fs";
const file = process.env.NZF_BENCH_MAXRSS;
if (file) process.on("exit", () => appendFileSync(file, process.pid + " " + process.resourceUsage().maxRSS + "\\n"));
`;

/** The process tree's peak: each process's own peak (a thread's report of its process counts once), summed. */
export function treePeakBytes(report: string): number {
  const byPid = new Map<string, number>();
  for (const line of report.split("\n")) {
    const [pid, kib] = line.split(" ");
    if (pid && kib) byPid.set(pid, Math.max(byPid.get(pid) ?? 0, Number(kib)));
  }
  return [...byPid.values()].reduce((sum, kib) => sum + kib * 1024, 0);
}

/** This process's peak so far, threads included, in MB. */
export function ownPeakMb(): number {
  return process.resourceUsage().maxRSS / 1024;
}

/**
 * Counts a child tree's peak: `env(base)` is the environment to start the child with, and `peakMb()`
 * reads (and removes) what its processes reported once it has exited.
 */
export async function treePeakCounter(dir: string): Promise<{
  env: (base: NodeJS.ProcessEnv) => NodeJS.ProcessEnv;
  peakMb: () => Promise<number>;
}> {
  const preload = join(dir, "max-rss-report.mjs");
  await writeFile(preload, MAX_RSS_REPORT);
  let report = "";
  return {
    env(base) {
      report = `${preload}.${process.hrtime.bigint()}.txt`;
      return {
        ...base,
        NODE_OPTIONS: `${base.NODE_OPTIONS ?? ""} --import=${pathToFileURL(preload).href}`.trim(),
        NZF_BENCH_MAXRSS: report,
      };
    },
    async peakMb() {
      const peak = treePeakBytes(await readFile(report, "utf8").catch(() => ""));
      await rm(report, { force: true });
      return peak / 1024 / 1024;
    },
  };
}
