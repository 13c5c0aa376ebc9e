/**
 * Build benchmark (issues 2 and 8) on the synthetic 2,000-document repository served by the local
 * Prismic stub: a full build with fetch, a build from the cached snapshot (in this process and by
 * the CLI in a new one), a no-change rebuild, a one-document change, a shared-component change,
 * and a webhook-to-published round trip.
 * Each figure is the median of `runs` runs.
 */
import { execFile } from "node:child_process";
import { cp, mkdtemp, readFile, rm, symlink, writeFile } from "node:fs/promises";
import { promisify } from "node:util";
import { join } from "node:path";
import { tmpdir } from "node:os";
import { build, type BuildResult } from "../src/pipeline/build.js";
import { createBuilder } from "../src/pipeline/builder.js";
import { resolveConfig, type BuildConfig } from "../src/core/config.js";
import { silentLogger } from "../src/core/logger.js";
import { readSnapshot, writeSnapshot } from "../src/content/snapshot.js";
import { startPrismicStub } from "../test/support/prismic-stub.js";
import { syntheticDocuments } from "./synthetic.js";
import { exists } from "../src/core/fs.js";
import { ownPeakMb, treePeakCounter } from "./max-rss.js";

export interface SiteBenchOptions {
  root: string;
  runs?: number;
  print?: (line: string) => void;
}

const execFileAsync = promisify(execFile);
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const s = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
/** The median, with every run after it: this machine's load varies, so the spread matters. */
const spread = (values: number[], unit = s) => `${unit(median(values))} (runs ${values.map(unit).join(", ")})`;

function stageLine(result: BuildResult): string {
  return Object.entries(result.stages)
    .map(([name, ms]) => `${name} ${Math.round(ms)}`)
    .join(", ");
}

/** As in watch mode: what the bench's builds keep between them, esbuild contexts included (closed at the end). */
const builder = createBuilder({ keepBundlers: true });

async function timedBuild(
  config: BuildConfig,
  sleep?: (ms: number) => Promise<void>,
): Promise<{ ms: number; result: BuildResult }> {
  const start = performance.now();
  const result = await build(config, { logger: silentLogger, sleep, builder });
  return { ms: performance.now() - start, result };
}

/** How fast this machine's disk creates small files, to read the figures above against. */
async function benchDisk(print: (line: string) => void): Promise<void> {
  const { mkdir, writeFile } = await import("node:fs/promises");
  const html = "x".repeat(10_000);
  for (const base of [tmpdir(), "/dev/shm"]) {
    const dir = await mkdtemp(join(base, "nzf-disk-")).catch(() => null);
    if (!dir) continue;
    const start = performance.now();
    await Promise.all(
      Array.from({ length: 2000 }, async (_, i) => {
        await mkdir(join(dir, `p${i}`));
        await writeFile(join(dir, `p${i}`, "index.html"), html);
      }),
    );
    print(`disk    2,000 folders with a 10 KB index.html each in ${base}: ${Math.round(performance.now() - start)} ms`);
    await rm(dir, { recursive: true, force: true });
  }
}

export async function benchSite(options: SiteBenchOptions): Promise<void> {
  const print = options.print ?? ((l: string) => console.log(l));
  const runs = options.runs ?? 3;
  const sample = (await readSnapshot(join(options.root, "content-cache/sample/snapshot.json"))).documents;
  const documents = syntheticDocuments(sample, 2000);
  const stub = await startPrismicStub({ documents, repository: "nzf-bench" });
  // A private copy of the sources, so a template can be edited without touching the project.
  const root = await mkdtemp(join(tmpdir(), "nzf-bench-"));
  for (const dir of ["templates", "src", "assets"])
    await cp(join(options.root, dir), join(root, dir), { recursive: true });
  await cp(join(options.root, "package-lock.json"), join(root, "package-lock.json"));
  await symlink(join(options.root, "node_modules"), join(root, "node_modules"));
  const workDir = await mkdtemp(join(options.root, ".nzf-cache", "bench-site-"));
  const config = resolveConfig(
    {
      root,
      out: join(root, "dist"),
      workDir,
      contentDir: join(root, "content-cache"),
      fetch: true,
      repository: "nzf-bench",
      endpoint: stub.endpoint,
    },
    {},
  );
  const fromCache: BuildConfig = { ...config, fetch: false, content: "fetched" };
  // A full render: no build record and no page bodies kept in this process.
  const forget = () => (builder.bodies.clear(), rm(join(workDir, "last-build.json"), { force: true }));
  try {
    print(
      `site    synthetic repository: ${documents.length} documents (blog articles and cases with rich text, no images), ${runs} runs each, medians`,
    );
    // Peak memory as the kernel counts it (bench/max-rss.ts): this process's own for the builds
    // in it, and each CLI run's process tree.
    const peakBefore = ownPeakMb();
    const cliPeaks = await treePeakCounter(workDir);
    const cliPeakMb: number[] = [];

    const cold = await timedBuild(config);
    print(
      `site    full build with fetch (cold bundles, 500 ms between pages): ${s(cold.ms)} — ${cold.result.pages} pages; stages ms: ${stageLine(cold.result)}`,
    );

    const cached: number[] = [];
    let last!: BuildResult;
    for (let i = 0; i < runs; i++) {
      await forget();
      const run = await timedBuild(fromCache);
      cached.push(run.ms);
      last = run.result;
    }
    const renderMs = last.stages.render!;
    const cpuMs = last.stages.renderOnly!;
    print(
      `site    build from cache (full render): ${spread(cached)} — render+write ${Math.round(renderMs)} ms = ${Math.round(last.pages / (renderMs / 1000))} pages/s ` +
        `(rendering alone ${Math.round(cpuMs)} ms = ${Math.round(last.pages / (cpuMs / 1000))} pages/s, ${last.renderedInWorkers} pages in worker threads; the rest is the disk, see "disk" below); stages ms: ${stageLine(last)}`,
    );

    // The CLI as CI runs it with a restored content cache: a new `nzf-build` process (start-up,
    // module loading, worker threads warming up), into an empty folder (every folder created) and
    // into the published site with no build record (every page rendered and replaced). The first
    // run compiles the templates and islands into the CLI's own work folder and is not counted.
    const cliArgs = ["--root", root, "--content-dir", config.contentDir, "--repository", "nzf-bench"];
    const cli = async (out: string) => {
      const start = performance.now();
      await execFileAsync(process.execPath, [join(options.root, "bin/nzf-build"), ...cliArgs, "--out", out], {
        env: cliPeaks.env(process.env),
      });
      const ms = performance.now() - start;
      cliPeakMb.push(await cliPeaks.peakMb());
      return ms;
    };
    const cliOut = join(root, "dist-cli");
    await cli(cliOut);
    // The same into memory (/dev/shm, where there is one): this machine's disk takes anywhere from
    // 0.3 to 3 s to create 2,000 folders with a file each (see "disk" below), which no code can help.
    const memory = (await exists("/dev/shm")) ? "/dev/shm" : null;
    const intoEmpty: number[] = [];
    const intoEmptyMemory: number[] = [];
    const intoPublished: number[] = [];
    const emptied: string[] = [];
    for (let i = 0; i < runs; i++) {
      const out = await mkdtemp(join(tmpdir(), "nzf-bench-cli-"));
      intoEmpty.push(await cli(out));
      if (memory) {
        const inMemory = await mkdtemp(join(memory, "nzf-bench-cli-"));
        intoEmptyMemory.push(await cli(inMemory));
        emptied.push(inMemory);
      }
      await rm(join(root, ".nzf-cache", "last-build.json"), { force: true });
      intoPublished.push(await cli(cliOut));
      // Removed after the runs: deleting 2,000 files makes the disk slow for a while after.
      emptied.push(out);
    }
    // The output folder is a link to a version beside it (src/publish/versions.ts): both go.
    for (const out of emptied)
      for (const dir of [out, `${out}.versions`]) await rm(dir, { recursive: true, force: true });
    const inMemoryNote = memory ? `; into an empty folder in memory (${memory}): ${spread(intoEmptyMemory)}` : "";
    print(
      `site    build from cache by the CLI (a new process), into an empty folder: ${spread(intoEmpty)}${inMemoryNote}; into the published site, every page rendered again: ${spread(intoPublished)}`,
    );

    const unchanged: number[] = [];
    for (let i = 0; i < runs; i++) unchanged.push((await timedBuild(fromCache)).ms);
    print(`site    no-change rebuild: ${s(median(unchanged))}`);

    const file = join(config.contentDir, "nzf-bench", "snapshot.json");
    const oneDoc: number[] = [];
    let oneResult!: BuildResult;
    for (let i = 0; i < runs; i++) {
      const snap = await readSnapshot(file);
      const doc = snap.documents.find((d) => d.type === "blog_article")!;
      (doc.data as { excerpt: string }).excerpt = `Edited ${i}`;
      await writeSnapshot(file, { ...snap, ref: `${snap.ref}-${i}` });
      const run = await timedBuild(fromCache);
      oneDoc.push(run.ms);
      oneResult = run.result;
    }
    print(
      `site    one document edited in the snapshot file (the whole file parsed again): ${s(median(oneDoc))} — ${oneResult.pagesRebuilt} pages rewritten; stages ms: ${stageLine(oneResult)}`,
    );

    const shared: number[] = [];
    let sharedResult!: BuildResult;
    const layout = join(root, "templates/components/layout.tsx");
    const original = await readFile(layout, "utf8");
    for (let i = 0; i < runs; i++) {
      // An attribute every page's skip link carries: each run changes what frames every page.
      const edited = original.replace(
        '<a className="skip-link" href="#main">',
        `<a className="skip-link" href="#main" data-edit="${i}">`,
      );
      if (edited === original)
        throw new Error("bench: the layout has no skip link to edit (templates/components/layout.tsx)");
      await writeFile(layout, edited);
      const run = await timedBuild(fromCache);
      shared.push(run.ms);
      sharedResult = run.result;
    }

    print(
      `site    shared component (layout) saved → rebuilt: ${spread(shared)} — ${sharedResult.pagesRebuilt} pages rewritten, ${sharedResult.bodiesReused} of them framed around bodies kept from the last build; stages ms: ${stageLine(sharedResult)}`,
    );

    const webhook: number[] = [];
    const afterFetch: number[] = [];
    let webhookResult!: BuildResult;
    for (let i = 0; i < runs; i++) {
      const snap = await readSnapshot(file);
      const doc = snap.documents.find((d) => d.type === "case")!;
      (doc.data as { summary: string }).summary = `Webhook edit ${i}`;
      stub.setDocuments(snap.documents);
      // As the webhook server does: the webhook names the changed document, so only it is fetched.
      const start = performance.now();
      const result = await build(config, {
        logger: silentLogger,
        sleep: async () => {},
        changedDocumentIds: [doc.id],
        builder,
      });
      const ms = performance.now() - start;
      webhook.push(ms);
      // The content stage is the fetch (the master ref, the changed document, the snapshot written).
      afterFetch.push(ms - result.stages.content!);
      webhookResult = result;
    }
    print(
      `site    webhook for one changed document → published (fetch of that document + build + publish): ${s(median(webhook))}`,
    );
    print(
      `site    the same, after the fetch (render and publish; target under 300 ms): ${spread(afterFetch, (ms) => `${Math.round(ms)} ms`)} — ${webhookResult.pagesRebuilt} pages rewritten; stages ms: ${stageLine(webhookResult)}`,
    );
    await benchDisk(print);
    const mb = (value: number) => `${Math.round(value)} MB`;
    print(
      `site    peak memory as the kernel counts it (ru_maxrss): this process, every in-process build above: ${mb(ownPeakMb())} ` +
        `(${mb(peakBefore)} before the first build; sections run before this one count too); ` +
        `each CLI build's process tree: highest ${mb(Math.max(...cliPeakMb))} (runs ${cliPeakMb.map(mb).join(", ")})`,
    );
  } finally {
    await builder.close();
    await stub.stop();
    await rm(root, { recursive: true, force: true });
    await rm(workDir, { recursive: true, force: true });
  }
}
