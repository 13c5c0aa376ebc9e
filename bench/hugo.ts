/**
 * `npm run bench -- hugo` (issue 27, point 3): the 2,000-document CLI build beside Hugo, the Go
 * generator most people call the fastest, on the same machine, both writing into memory.
 *
 * The recipe: Hugo (Debian's package: `apt-get install hugo`) builds 2,000 Markdown pages, each the
 * synthetic article's eight paragraphs, a heading and a list, through a base template with a header
 * of eight links and a footer, with taxonomies, RSS and the sitemap off (nzf-build writes a sitemap;
 * Hugo's would only add work on its side). nzf-build builds the synthetic 2,000-document repository
 * (bench/synthetic.ts) with the compiled CLI in a new process, after one build that compiles its
 * bundles. Each side runs five times into a new folder in /dev/shm; the medians are compared.
 * Without `hugo` on the PATH the section says how to get it and stops.
 */
import { execFile, spawnSync } from "node:child_process";
import { cp, mkdir, mkdtemp, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { readSnapshot, writeSnapshot } from "../src/content/snapshot.js";
import { exists } from "../src/core/fs.js";
import { syntheticDocuments } from "./synthetic.js";

const execFileAsync = promisify(execFile);
const RUNS = 5;
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const seconds = (ms: number) => `${(ms / 1000).toFixed(2)} s`;

const BASE_TEMPLATE = `<!doctype html><html lang="en-AU"><head><meta charset="utf-8"><title>{{ .Title }}</title>
<meta name="viewport" content="width=device-width, initial-scale=1"><link rel="stylesheet" href="/site.css"></head>
<body><a href="#main">Skip to content</a><header><a href="/">NZF</a><nav>
{{ range $i, $name := slice "About" "Zakat" "Calculate" "Pay" "Apply" "Programs" "News" "Contact" }}<a href="/{{ lower $name }}/">{{ $name }}</a>{{ end }}
</nav></header><main id="main">{{ block "main" . }}{{ end }}</main><footer><p>National Zakat Foundation Australia</p></footer></body></html>`;

async function hugoSite(dir: string, articles: { uid: string; title: string; body: string }[]): Promise<void> {
  await mkdir(join(dir, "layouts/_default"), { recursive: true });
  await mkdir(join(dir, "content/article"), { recursive: true });
  await writeFile(
    join(dir, "config.toml"),
    'baseURL = "https://nzf.org.au/"\ntitle = "NZF"\ndisableKinds = ["taxonomy", "term", "RSS", "sitemap"]\n',
  );
  await writeFile(join(dir, "layouts/_default/baseof.html"), BASE_TEMPLATE);
  const main = '{{ define "main" }}<h1>{{ .Title }}</h1>{{ .Content }}{{ end }}';
  await writeFile(join(dir, "layouts/_default/single.html"), main);
  await writeFile(join(dir, "layouts/_default/list.html"), main);
  await writeFile(join(dir, "layouts/index.html"), main);
  for (const a of articles)
    await writeFile(join(dir, "content/article", `${a.uid}.md`), `---\ntitle: "${a.title}"\n---\n\n${a.body}\n`);
}

/** The synthetic article's rich text as Markdown: paragraphs, a heading and a list. */
function markdownOf(data: Record<string, unknown>): string {
  const blocks = (data.body ?? []) as { type: string; text: string }[];
  return blocks
    .map((b) => (b.type === "heading2" ? `## ${b.text}` : b.type === "list-item" ? `- ${b.text}` : b.text))
    .join("\n\n");
}

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
    const articles = documents
      .filter((d) => d.type === "blog_article" || d.type === "case")
      .map((d) => ({
        uid: d.uid!,
        title: ((d.data as { title?: { text: string }[] }).title?.[0]?.text ?? d.uid!).replace(/"/g, "'"),
        body: markdownOf(d.data as Record<string, unknown>),
      }));
    const site = join(work, "hugo");
    await hugoSite(site, articles);
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
    let hugoPages = 0;
    for (let i = 0; i < RUNS; i++) {
      const hugoOut = await mkdtemp(join(memory, "nzf-hugo-"));
      hugo.push(await timed("hugo", ["--quiet", "-s", site, "-d", hugoOut]));
      hugoPages = Number(
        spawnSync("sh", ["-c", `find ${hugoOut} -name index.html | wc -l`], { encoding: "utf8" }).stdout.trim(),
      );
      await rm(hugoOut, { recursive: true, force: true });
      const nzfOut = await mkdtemp(join(memory, "nzf-cli-"));
      nzf.push(await timed(process.execPath, [...cli, "--out", nzfOut]));
      for (const dir of [nzfOut, `${nzfOut}.versions`]) await rm(dir, { recursive: true, force: true });
    }
    print(
      `hugo    ${version.stdout.trim().split(" ").slice(0, 2).join(" ")}; ${articles.length} Markdown pages (${hugoPages} pages written), ${RUNS} interleaved runs each into ${memory}`,
    );
    print(`hugo    Hugo: ${seconds(median(hugo))} (runs ${hugo.map(seconds).join(", ")})`);
    print(
      `hugo    nzf-build, 2,000 documents, a new process: ${seconds(median(nzf))} (runs ${nzf.map(seconds).join(", ")})`,
    );
    print(`hugo    nzf-build / Hugo: ×${(median(nzf) / median(hugo)).toFixed(2)} (target ≤ ×1.00)`);
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}
