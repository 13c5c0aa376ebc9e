/**
 * `npm run bench -- hugo` (issue 27, point 3): the 2,000-document CLI build beside Hugo, the Go
 * generator most people call the fastest, on the same machine, both writing into memory.
 *
 * The recipe: Hugo (Debian's package: `apt-get install hugo`) builds the synthetic repository's
 * articles and cases from Markdown through templates that write the same pages as nzf-build's
 * (bench/hugo-site.ts says what matches and what does not); nzf-build builds the synthetic
 * 2,000-document repository (bench/synthetic.ts) with the compiled CLI in a new process, after one
 * build that compiles its bundles. Each side runs five times, interleaved, into a new folder in
 * /dev/shm; the medians are compared, and each side's pages and bytes are printed.
 * Without `hugo` on the PATH the section says how to get it and stops.
 */
import { execFile, spawnSync } from "node:child_process";
import { cp, mkdtemp, rm, symlink } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { readSnapshot, writeSnapshot } from "../src/content/snapshot.js";
import { exists } from "../src/core/fs.js";
import { syntheticDocuments } from "./synthetic.js";
import { writeHugoSite } from "./hugo-site.js";

const execFileAsync = promisify(execFile);
const RUNS = 5;
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const seconds = (ms: number) => `${(ms / 1000).toFixed(2)} s`;

/** How many HTML pages a site has and their bytes, to check the two sides write comparable pages. */
function htmlPages(dir: string): { pages: number; bytes: number } {
  const out = spawnSync("sh", ["-c", `find -L ${dir} -name index.html -printf '%s\\n'`], { encoding: "utf8" }).stdout;
  const sizes = out.split("\n").filter(Boolean).map(Number);
  return { pages: sizes.length, bytes: sizes.reduce((a, b) => a + b, 0) };
}
const described = (s: { pages: number; bytes: number }) =>
  `${s.pages} pages, ${(s.bytes / 1e6).toFixed(1)} MB of HTML (${(s.bytes / s.pages / 1000).toFixed(1)} kB each)`;

async function timed(command: string, args: string[]): Promise<number> {
  const started = performance.now();
  await execFileAsync(command, args, { maxBuffer: 1 << 26 });
  return performance.now() - started;
}

export async function benchHugo(options: { root: string; print?: (line: string) => void }): Promise<void> {
  const print = options.print ?? ((l: string) => console.log(l));
  const version = spawnSync("hugo", ["version"], { encoding: "utf8" });
  if (version.status !== 0) {
    print("hugo    hugo is not on the PATH: install it (Debian: apt-get install hugo) to compare; skipped");
    return;
  }
  const memory = (await exists("/dev/shm")) ? "/dev/shm" : tmpdir();
  const work = await mkdtemp(join(tmpdir(), "nzf-bench-hugo-"));
  try {
    const sample = await readSnapshot(join(options.root, "content-cache/sample/snapshot.json"));
    const documents = syntheticDocuments(sample.documents, 2000);
    const site = join(work, "hugo");
    const articles = await writeHugoSite(site, documents);
    // nzf-build from a private copy of the sources, as the site section does.
    const root = join(work, "nzf");
    for (const dir of ["templates", "src", "assets"])
      await cp(join(options.root, dir), join(root, dir), { recursive: true });
    await cp(join(options.root, "package-lock.json"), join(root, "package-lock.json"));
    await symlink(join(options.root, "node_modules"), join(root, "node_modules"));
    await writeSnapshot(join(root, "content-cache/nzf-bench/snapshot.json"), { ...sample, documents });
    const cli = [join(options.root, "bin/nzf-build"), "--root", root, "--repository", "nzf-bench"];
    await execFileAsync(process.execPath, [...cli, "--out", join(work, "warm")]);

    const hugo: number[] = [];
    const nzf: number[] = [];
    let hugoPages = { pages: 0, bytes: 0 };
    let nzfPages = hugoPages;
    for (let i = 0; i < RUNS; i++) {
      const hugoOut = await mkdtemp(join(memory, "nzf-hugo-"));
      hugo.push(await timed("hugo", ["--quiet", "-s", site, "-d", hugoOut]));
      hugoPages = htmlPages(hugoOut);
      await rm(hugoOut, { recursive: true, force: true });
      const nzfOut = await mkdtemp(join(memory, "nzf-cli-"));
      nzf.push(await timed(process.execPath, [...cli, "--out", nzfOut]));
      nzfPages = htmlPages(nzfOut);
      for (const dir of [nzfOut, `${nzfOut}.versions`]) await rm(dir, { recursive: true, force: true });
    }
    print(
      `hugo    ${version.stdout.trim().split(" ").slice(0, 2).join(" ")}; ${RUNS} interleaved runs each into ${memory}`,
    );
    print(`hugo    Hugo: ${articles} articles and cases from Markdown; wrote ${described(hugoPages)}`);
    print(`hugo    nzf-build: 2,000 documents; wrote ${described(nzfPages)}`);
    print(`hugo    Hugo: ${seconds(median(hugo))} (runs ${hugo.map(seconds).join(", ")})`);
    print(
      `hugo    nzf-build, 2,000 documents, a new process: ${seconds(median(nzf))} (runs ${nzf.map(seconds).join(", ")})`,
    );
    print(`hugo    nzf-build / Hugo: ×${(median(nzf) / median(hugo)).toFixed(2)} (target ≤ ×1.00)`);
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}
