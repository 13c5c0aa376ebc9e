/**
 * `npm run bench -- pages`: is every page still byte for byte what it was? Builds the sample and
 * the 2,000-document synthetic repository with the compiled CLI in a new process, hashes every
 * file written, and compares with the list the last run saved (in .nzf-cache/bench/), naming the
 * files that differ. A refactor that must not change behaviour (issue 26) or a faster pipeline
 * that must write the same site (issue 27) runs it before and after.
 */
import { execFile } from "node:child_process";
import { createHash } from "node:crypto";
import { mkdir, mkdtemp, readFile, readdir, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { promisify } from "node:util";
import { readSnapshot, writeSnapshot } from "../src/content/snapshot.js";
import { syntheticDocuments } from "./synthetic.js";

const execFileAsync = promisify(execFile);
type Digests = Record<string, string>;

async function digestFolder(folder: string): Promise<Digests> {
  const digests: Digests = {};
  const walk = async (dir: string): Promise<void> => {
    for (const entry of await readdir(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) await walk(path);
      else
        digests[relative(folder, path)] = createHash("sha256")
          .update(await readFile(path))
          .digest("hex")
          .slice(0, 16);
    }
  };
  await walk(folder);
  return Object.fromEntries(Object.entries(digests).sort(([a], [b]) => (a < b ? -1 : 1)));
}

function compare(name: string, now: Digests, before: Digests | undefined, print: (line: string) => void): void {
  const total = createHash("sha256").update(JSON.stringify(now)).digest("hex").slice(0, 16);
  const files = Object.keys(now).length;
  if (!before) {
    print(`pages   ${name}: ${files} files, digest ${total} (no earlier run to compare with)`);
    return;
  }
  const changed = Object.keys(now).filter((f) => f in before && before[f] !== now[f]);
  const added = Object.keys(now).filter((f) => !(f in before));
  const removed = Object.keys(before).filter((f) => !(f in now));
  if (!changed.length && !added.length && !removed.length) {
    print(`pages   ${name}: ${files} files, digest ${total}, every file identical to the last run`);
    return;
  }
  print(
    `pages   ${name}: ${files} files, digest ${total}; against the last run ${changed.length} changed, ${added.length} added, ${removed.length} removed`,
  );
  for (const [label, list] of [
    ["changed", changed],
    ["added", added],
    ["removed", removed],
  ] as const)
    if (list.length)
      print(
        `pages     ${label}: ${list.slice(0, 12).join(", ")}${list.length > 12 ? `, … ${list.length - 12} more` : ""}`,
      );
}

export async function benchPages(options: { root: string; print?: (line: string) => void }): Promise<void> {
  const print = options.print ?? ((l: string) => console.log(l));
  const saved = join(options.root, ".nzf-cache/bench/pages-last.json");
  const before: Record<string, Digests> = JSON.parse(await readFile(saved, "utf8").catch(() => "{}"));
  const work = await mkdtemp(join(tmpdir(), "nzf-bench-pages-"));
  const cli = join(options.root, "bin/nzf-build");
  const now: Record<string, Digests> = {};
  try {
    const sample = await readSnapshot(join(options.root, "content-cache/sample/snapshot.json"));
    const synthetic = join(work, "content");
    await writeSnapshot(join(synthetic, "nzf-bench/snapshot.json"), {
      ...sample,
      documents: syntheticDocuments(sample.documents, 2000),
    });
    const builds = {
      sample: ["--root", options.root, "--sample"],
      "synthetic 2,000": ["--root", options.root, "--content-dir", synthetic, "--repository", "nzf-bench"],
    };
    for (const [name, args] of Object.entries(builds)) {
      const out = join(work, name.replace(/\W+/g, "-"));
      await execFileAsync(process.execPath, [cli, ...args, "--out", out], { maxBuffer: 1 << 26 });
      now[name] = await digestFolder(out);
      compare(name, now[name], before[name], print);
    }
    await mkdir(join(options.root, ".nzf-cache/bench"), { recursive: true });
    await writeFile(saved, JSON.stringify(now, null, 1) + "\n");
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}
