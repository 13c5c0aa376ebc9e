/**
 * Rendering in worker threads (src/render/render-service.ts): the same pages byte for byte as rendering
 * in the build's thread, and the same failure reports, naming each document and output path.
 * The sample site has under 60 pages, under the pool's usual threshold, so the tests lower it.
 */
import { afterAll, describe, expect, it } from "vitest";
import { mkdir, readdir, readFile, symlink, writeFile } from "node:fs/promises";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { createFixture, PROJECT_ROOT, siteFileHashes, type Fixture } from "../support/build-fixture.js";
import { readSnapshot, writeSnapshot } from "../../src/content/snapshot.js";
import { NzfAggregateError, type NzfError } from "../../src/core/errors.js";
import type { BuildResult } from "../../src/pipeline/build.js";
import { readCacheJson, writeCacheJson } from "../support/cache-entry.js";
import { hashBytes } from "../../src/cache/entry.js";

const fixtures: Fixture[] = [];

afterAll(async () => {
  await Promise.all(fixtures.map((f) => f.cleanup()));
});

/** Render policies: the 57-page sample renders in worker threads only with the threshold lowered. */
const IN_WORKERS = { render: { workersFromPages: 1 } };
const IN_WORKERS_EARLY = { render: { workersFromPages: 1, earlyWorkersFromBytes: 0 } };
const IN_THIS_THREAD = { render: { workersFromPages: Number.POSITIVE_INFINITY } };

/** `ownRenderWorker`: the test rewrites the compiled worker's record, so the run's shared one stays out of it. */
async function fixture(
  input: Parameters<typeof createFixture>[0],
  builder: Parameters<typeof createFixture>[2] = IN_WORKERS,
  ownRenderWorker = false,
): Promise<Fixture> {
  const f = await createFixture(input, {}, builder, { ownBundles: ownRenderWorker ? ["render-worker"] : false });
  fixtures.push(f);
  return f;
}

/**
 * Builds of the sample that tests only read (their output, work folder, result and builder), made
 * once for the file: a cold build in a fresh work folder compiles every bundle, the slowest part of
 * these tests. A test that builds again, or changes a work folder, makes a fixture of its own.
 */
const shared = new Map<string, Promise<{ f: Fixture; result: BuildResult }>>();
function sharedBuild(name: string, builder: Parameters<typeof createFixture>[2], ownRenderWorker = false) {
  let made = shared.get(name);
  if (!made) {
    made = fixture({ sample: true }, builder, ownRenderWorker).then(async (f) => ({ f, result: await f.run() }));
    shared.set(name, made);
  }
  return made;
}
/**
 * The sample rendered and written in the build's thread: the pages every pooled build must equal.
 * Its render-worker folder is its own, so a test can see that it compiled no worker.
 */
const inThisThread = () => sharedBuild("in this thread", IN_THIS_THREAD, true);
/** The sample rendered in worker threads by a builder that keeps page bodies (watch mode, the webhook server). */
const inWorkersKept = () => sharedBuild("in workers, bodies kept", IN_WORKERS);

/** A fixture that builds the fetched snapshot of `repository`, from a content folder of its own. */
async function fetchedFixture(
  repository: string,
  builder: Parameters<typeof createFixture>[2] = IN_WORKERS,
): Promise<{ f: Fixture; contentDir: string }> {
  const f = await fixture({ repository }, builder);
  const contentDir = join(f.dir, "content-cache");
  f.config.contentDir = contentDir;
  f.config.content = "fetched";
  await mkdir(join(contentDir, repository), { recursive: true });
  return { f, contentDir };
}

/** A fetched repository holding the sample content (and its images), built in worker threads. */
async function sampleFetchedFixture(repository: string, builder: Parameters<typeof createFixture>[2] = IN_WORKERS) {
  const { f, contentDir } = await fetchedFixture(repository, builder);
  await symlink(join(PROJECT_ROOT, "content-cache/sample/images"), join(contentDir, repository, "images"));
  const sample = await readSnapshot(join(PROJECT_ROOT, "content-cache/sample/snapshot.json"));
  const snapshotFile = join(contentDir, repository, "snapshot.json");
  await writeSnapshot(snapshotFile, sample);
  return { f, sample, snapshotFile };
}

describe("rendering in worker threads", () => {
  it("gives byte-identical pages and the same dependency records as rendering in the build's thread", async () => {
    const { f: pooled, result: a } = await inWorkersKept();
    const { f: single, result: b } = await inThisThread();
    expect(a.pages).toBe(b.pages);
    expect(a.renderedInWorkers).toBe(a.pages);
    expect(b.renderedInWorkers).toBe(0);
    // Only the pooled build compiled the worker: the pool really ran.
    expect(existsSync(join(pooled.config.workDir, "render-worker", "record.json"))).toBe(true);
    expect(existsSync(join(single.config.workDir, "render-worker"))).toBe(false);
    const hashesA = await siteFileHashes(pooled.config.outDir);
    const hashesB = await siteFileHashes(single.config.outDir);
    expect(Object.keys(hashesA).length).toBeGreaterThan(80);
    expect(hashesA).toEqual(hashesB);
    const recordA = await readCacheJson(join(pooled.config.workDir, "last-build.json"));
    const recordB = await readCacheJson(join(single.config.workDir, "last-build.json"));
    expect(recordA.pages).toEqual(recordB.pages);
    expect(
      Object.values(recordA.pages as Record<string, { deps: string[] }>).some((p) =>
        p.deps.some((d) => d.startsWith("id:")),
      ),
    ).toBe(true);
  });

  it("has the workers write a first build's pages themselves, byte-identical to pages written by the build's thread", async () => {
    // A builder for one build (the CLI's): no page bodies are kept, so a worker may write what it renders.
    const pooled = await fixture({ sample: true }, { ...IN_WORKERS, forOneBuild: true });
    const a = await pooled.run();
    // Its workers end once the pages are rendered, so their teardown overlaps the last stages.
    expect(pooled.builder.renderer.threads).toBe(0);
    expect(a.writtenInWorkers).toBe(a.pages);
    // The sample as the build's thread writes it (a builder for one build writes there the same way).
    const { f: single, result: b } = await inThisThread();
    expect(b.writtenInWorkers).toBe(0);
    const hashesA = await siteFileHashes(pooled.config.outDir);
    expect(Object.keys(hashesA).length).toBeGreaterThan(80);
    expect(hashesA).toEqual(await siteFileHashes(single.config.outDir));
    // A second build of the folder compares pages with the published ones: the build's thread writes what changed.
    const again = await pooled.run();
    expect(again.writtenInWorkers).toBe(0);
    // Kept bodies (watch mode, the webhook server) need the HTML in the build's thread.
    const { f: keeping, result: kept } = await inWorkersKept();
    expect(kept.renderedInWorkers).toBe(kept.pages);
    expect(kept.writtenInWorkers).toBe(0);
    // Their workers stay warm for the next build.
    expect(keeping.builder.renderer.threads).toBeGreaterThan(0);
  });

  it("lets a worker plan the build from the snapshot it reads, with the same site and record as planning in the build's thread", async () => {
    // Workers start before the snapshot is read (a first build of this folder) whatever its size.
    const byWorker = await fixture({ sample: true }, IN_WORKERS_EARLY);
    // A long-running process (watch mode keeps bundler contexts) plans in its own thread, so that its
    // next build has the snapshot in memory.
    const here = await fixture({ sample: true }, { ...IN_WORKERS_EARLY, keepBundlers: true });
    const a = await byWorker.run();
    const b = await here.run();
    expect(a.plannedInWorker).toBe(true);
    expect(b.plannedInWorker).toBe(false);
    expect(a.renderedInWorkers).toBe(a.pages);
    expect(a.snapshot).toEqual(b.snapshot);
    const hashesA = await siteFileHashes(byWorker.config.outDir);
    expect(Object.keys(hashesA).length).toBeGreaterThan(80);
    expect(hashesA).toEqual(await siteFileHashes(here.config.outDir));
    const recordA = await readCacheJson(join(byWorker.config.workDir, "last-build.json"));
    const recordB = await readCacheJson(join(here.config.workDir, "last-build.json"));
    // (Their keys differ: each fixture's bundles live in its own work folder.)
    for (const field of ["documents", "types", "lists", "pages", "files"])
      expect(recordA[field], field).toEqual(recordB[field]);
    // The worker kept the document hashes for the next process, as the build's thread does.
    const kept = await readCacheJson(join(byWorker.config.workDir, "document-hashes.json"));
    expect(kept.hashes).toEqual(recordA.documents);
    // A second build of the folder has a record: it plans in its own thread and finds nothing changed.
    const again = await byWorker.run();
    expect(again.plannedInWorker).toBe(false);
    expect(again.published).toBe(false);
  });

  it("has a later process's workers read the snapshot through the index and plan a first build kept, with the same pages", async () => {
    // The CLI's builder: its workers end with each build, so each build's workers read the snapshot anew.
    const { f, sample } = await sampleFetchedFixture("nzf-indexed", { ...IN_WORKERS_EARLY, forOneBuild: true });
    expect((await f.run()).plannedInWorker).toBe(true);
    const expected = await siteFileHashes(f.config.outDir);
    const indexFile = join(f.config.workDir, "snapshot-index.json");
    const factsFile = join(f.config.workDir, "snapshot-facts.json");
    const index = await readCacheJson(indexFile);
    expect(index.documents).toHaveLength(sample.documents.length);
    // Another folder, so a full render again: the same pages through the index.
    f.config.outDir = join(f.dir, "second");
    expect((await f.run()).plannedInWorker).toBe(true);
    expect(await siteFileHashes(f.config.outDir)).toEqual(expected);

    // Read through the index, the kept facts and the kept plan indeed: what only they say shows in the third build.
    const at = index.documents.findIndex((d: { type: string }) => d.type === "case");
    index.documents[at].data.title = [{ type: "heading1", text: "A title only the index has", spans: [] }];
    await writeCacheJson(indexFile, index);
    const facts = await readCacheJson(factsFile);
    const { id, type } = index.documents[at];
    facts.value.problems.push({
      code: "UNSAFE_URL",
      documentId: id,
      type,
      field: "body[0]",
      message: "A kept problem",
    });
    await writeCacheJson(factsFile, facts);
    const planFile = join(f.config.workDir, "snapshot-plan.json");
    const plan = await readCacheJson(planFile);
    const dropped = plan.value.pages.findIndex((p: { template: string }) => p.template === "blog-article");
    const [droppedPage] = plan.value.pages.splice(dropped, 1);
    await writeCacheJson(planFile, plan);
    f.config.outDir = join(f.dir, "third");
    await f.run();
    expect(existsSync(join(f.config.outDir, droppedPage.file))).toBe(false);
    expect(existsSync(join(f.config.outDir, plan.value.pages[dropped].file))).toBe(true);
    const pages = await readdir(f.config.outDir, { recursive: true });
    const html = await Promise.all(
      pages.filter((p) => p.endsWith(".html")).map((p) => readFile(join(f.config.outDir, p), "utf8")),
    );
    expect(html.some((page) => page.includes("A title only the index has"))).toBe(true);
    expect(f.logger.lines.some((l) => l.level === "warn" && l.message.includes("A kept problem"))).toBe(true);
  });

  it("never runs the worker the last build compiled once its sources have changed", async () => {
    const f = await fixture({ sample: true }, IN_WORKERS_EARLY, true);
    const first = await f.run();
    const expected = await siteFileHashes(f.config.outDir);
    // As if render-worker.ts changed since: its record names an older compiled worker, which fails
    // whatever it is asked, so a plan or a page it was given would come from the build's thread.
    const dir = join(f.config.workDir, "render-worker");
    const stale = join(dir, "render-worker-stale.mjs");
    await writeFile(
      stale,
      `import { parentPort } from "node:worker_threads";
parentPort.on("message", (m) => parentPort.postMessage(m.type === "plan" ? { type: "plan-failed", code: "RENDER_WORKER_FAILED", message: "stale" } : { type: "fatal", code: "RENDER_WORKER_FAILED", message: "stale" }));`,
    );
    const record = await readCacheJson(join(dir, "record.json"));
    record.result.file = stale;
    record.outputs = { [stale]: hashBytes(await readFile(stale)) };
    record.inputs["src/render/worker/render-worker.ts"] = "0".repeat(40);
    await writeCacheJson(join(dir, "record.json"), record);
    // A new output folder: every page renders, and the threads start while the sources are checked.
    f.config.outDir = join(f.dir, "dist-after-change");
    const after = await f.run();
    // The worker compiled from the changed sources planned and rendered every page.
    expect(after.plannedInWorker).toBe(true);
    expect(after.renderedInWorkers).toBe(first.pages);
    expect((await readCacheJson(join(dir, "record.json"))).result.file).not.toBe(stale);
    expect(await siteFileHashes(f.config.outDir)).toEqual(expected);
  });

  it("renders in the build's thread the pages no worker could, the same pages, and says why", async () => {
    // The build plans in its own thread (as watch mode does), so only the render meets the worker.
    const f = await fixture({ sample: true }, { render: { workersFromPages: 1, planInWorker: false } }, true);
    await f.run();
    const expected = await siteFileHashes(f.config.outDir);
    // The compiled worker's record now names a worker that cannot prepare, its sources unchanged.
    const dir = join(f.config.workDir, "render-worker");
    const broken = join(dir, "render-worker-broken.mjs");
    await writeFile(
      broken,
      `import { parentPort } from "node:worker_threads";
parentPort.on("message", () => parentPort.postMessage({ type: "fatal", code: "RENDER_WORKER_FAILED", message: "no templates here" }));`,
    );
    const record = await readCacheJson(join(dir, "record.json"));
    record.result.file = broken;
    record.outputs = { [broken]: hashBytes(await readFile(broken)) };
    await writeCacheJson(join(dir, "record.json"), record);
    f.config.outDir = join(f.dir, "dist-without-workers");
    const result = await f.run();
    expect(result.renderedInWorkers).toBe(0);
    expect(await siteFileHashes(f.config.outDir)).toEqual(expected);
    const said = f.logger.lines.filter((l) => l.level === "warn" && l.label === "render").map((l) => l.message);
    // The fallback, then its code's hint.
    expect(said).toHaveLength(2);
    expect(said[0]).toContain(
      `[RENDER_WORKER_FAILED] ${result.pages} of ${result.pages} pages are rendered in the build's thread`,
    );
    expect(said[0]).toContain("[RENDER_WORKER_FAILED] A render worker could not prepare: no templates here");
  });

  it("says with a code why a worker that crashed left pages to the build's thread, with the crash's own message", async () => {
    const f = await fixture({ sample: true }, { render: { workersFromPages: 1, planInWorker: false } }, true);
    await f.run();
    const expected = await siteFileHashes(f.config.outDir);
    const dir = join(f.config.workDir, "render-worker");
    // One worker throws while it prepares, the next while it renders: an uncaught error ends each thread.
    const crashing = join(dir, "render-worker-crashing.mjs");
    await writeFile(
      crashing,
      `import { parentPort, threadId } from "node:worker_threads";
parentPort.on("message", (m) => {
  if (m.type === "prepare" && threadId % 2) throw new Error("crashed preparing");
  if (m.type === "prepare") parentPort.postMessage({ type: "ready" });
  if (m.type === "render") throw new Error("crashed rendering");
});`,
    );
    const record = await readCacheJson(join(dir, "record.json"));
    record.result.file = crashing;
    record.outputs = { [crashing]: hashBytes(await readFile(crashing)) };
    await writeCacheJson(join(dir, "record.json"), record);
    f.config.outDir = join(f.dir, "dist-after-crash");
    const result = await f.run();
    expect(result.renderedInWorkers).toBe(0);
    expect(await siteFileHashes(f.config.outDir)).toEqual(expected);
    const said = f.logger.lines.filter((l) => l.level === "warn" && l.label === "render").map((l) => l.message);
    expect(said[0]).toMatch(/^\[RENDER_WORKER_FAILED\] (\d+) of \1 pages are rendered in the build's thread/);
    // Each crash is named by its own message, as a coded error: not "exit code 1" alone, nor nothing.
    const crashes = said[0]!.match(/\[RENDER_WORKER_FAILED\] The render worker stopped[^;]*/g) ?? [];
    expect(crashes.some((c) => c.includes("crashed preparing"))).toBe(true);
    expect(crashes.some((c) => c.includes("crashed rendering"))).toBe(true);
    expect(said[0]).not.toContain("no worker was free");
    // The code's hint follows once.
    expect(said.filter((l) => l.startsWith("  hint (RENDER_WORKER_FAILED)"))).toHaveLength(1);
  });

  it("plans in the build's thread when a worker's plan fails, the same site, and says why with the code", async () => {
    // The CLI's builder: its threads end with each build, so the second build starts the broken worker.
    const f = await fixture({ sample: true }, { ...IN_WORKERS_EARLY, forOneBuild: true }, true);
    expect((await f.run()).plannedInWorker).toBe(true);
    const expected = await siteFileHashes(f.config.outDir);
    const dir = join(f.config.workDir, "render-worker");
    const broken = join(dir, "render-worker-unplanned.mjs");
    // Fails every plan (asked with the warm-up or alone) and every render, as a worker with a bug would.
    await writeFile(
      broken,
      `import { parentPort } from "node:worker_threads";
const failed = (type) => ({ type, code: "RENDER_WORKER_FAILED", message: "out of sorts" });
parentPort.on("message", (m) => {
  if (m.type === "warm" && m.first) parentPort.postMessage(failed("plan-failed"));
  else if (m.type === "plan" || m.type === "facts") parentPort.postMessage(failed("plan-failed"));
  else if (m.type === "prepare") parentPort.postMessage(failed("fatal"));
});`,
    );
    const record = await readCacheJson(join(dir, "record.json"));
    record.result.file = broken;
    record.outputs = { [broken]: hashBytes(await readFile(broken)) };
    await writeCacheJson(join(dir, "record.json"), record);
    f.config.outDir = join(f.dir, "dist-unplanned");
    const result = await f.run();
    expect(result.plannedInWorker).toBe(false);
    expect(result.renderedInWorkers).toBe(0);
    expect(await siteFileHashes(f.config.outDir)).toEqual(expected);
    const said = f.logger.lines.filter((l) => l.level === "warn" && l.label === "content").map((l) => l.message);
    expect(said).toHaveLength(1);
    expect(said[0]).toContain("a render thread did not plan the build ([RENDER_WORKER_FAILED] out of sorts)");
    expect(said[0]).toContain("planning in this thread instead");
  });

  it("reports a snapshot a worker could not plan from as the build's thread does", async () => {
    const { f, contentDir } = await fetchedFixture("nzf-corrupt", IN_WORKERS_EARLY);
    await writeFile(join(contentDir, "nzf-corrupt", "snapshot.json"), '{"format": 1, "documents": [');
    const error = await f.run().then(
      () => null,
      (e: unknown) => e as NzfError,
    );
    expect(error?.code).toBe("SNAPSHOT_CORRUPT");
    expect(error?.subject).toBe(join(contentDir, "nzf-corrupt", "snapshot.json"));
    expect(existsSync(join(f.config.outDir, "index.html"))).toBe(false);
  });

  it("collects the documents' problems and images in a second worker while the first plans, as the build's thread would", async () => {
    const sample = await readSnapshot(join(PROJECT_ROOT, "content-cache/sample/snapshot.json"));
    const untitled = sample.documents.find((d) => d.type === "case")!;
    const documents = sample.documents.map((d) => (d === untitled ? { ...d, data: { ...d.data, title: [] } } : d));
    const builds = [];
    // Planned by workers (the first build of a folder), then in the build's own thread (watch mode's way).
    for (const builder of [IN_WORKERS_EARLY, { ...IN_WORKERS_EARLY, keepBundlers: true }]) {
      const { f, contentDir } = await fetchedFixture("nzf-untitled", builder);
      await symlink(join(PROJECT_ROOT, "content-cache/sample/images"), join(contentDir, "nzf-untitled", "images"));
      await writeSnapshot(join(contentDir, "nzf-untitled", "snapshot.json"), { ...sample, documents });
      builds.push({ f, result: await f.run() });
    }
    const [byWorkers, here] = builds;
    expect(byWorkers!.result.plannedInWorker).toBe(true);
    expect(here!.result.plannedInWorker).toBe(false);
    const warnings = (f: Fixture) => f.logger.lines.filter((l) => l.level === "warn").map((l) => l.message);
    expect(warnings(byWorkers!.f).some((w) => w.includes(untitled.id))).toBe(true);
    expect(warnings(byWorkers!.f)).toEqual(warnings(here!.f));
    expect(byWorkers!.result.images).toBe(here!.result.images);
    expect(await siteFileHashes(byWorkers!.f.config.outDir)).toEqual(await siteFileHashes(here!.f.config.outDir));
  });

  it("reports a snapshot no worker can read as the build's thread would, with no stray rejection", async () => {
    const { f, contentDir } = await fetchedFixture("nzf-corrupt", IN_WORKERS_EARLY);
    await writeFile(join(contentDir, "nzf-corrupt", "snapshot.json"), '{"format":1,"documents":[\n{"id":');
    const stray: unknown[] = [];
    const onStray = (reason: unknown) => stray.push(reason);
    process.on("unhandledRejection", onStray);
    try {
      // Both workers are asked (the plan and the documents' facts) and both fail.
      const error = await f.run().then(
        () => null,
        (e: unknown) => e as NzfError,
      );
      expect(error?.code).toBe("SNAPSHOT_CORRUPT");
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(stray).toEqual([]);
    } finally {
      process.off("unhandledRejection", onStray);
    }
  });

  it("refuses a donation page whose price cannot be charged when workers plan the build", async () => {
    const { f, contentDir } = await fetchedFixture("nzf-price", IN_WORKERS_EARLY);
    const sample = await readSnapshot(join(PROJECT_ROOT, "content-cache/sample/snapshot.json"));
    const fitr = sample.documents.find((d) => d.type === "fitr")!;
    const documents = sample.documents.map((d) => (d === fitr ? { ...d, data: { ...d.data, unit_amount: -12 } } : d));
    await writeSnapshot(join(contentDir, "nzf-price", "snapshot.json"), { ...sample, documents });
    const error = await f.run().then(
      () => null,
      (e: unknown) => e as NzfError,
    );
    expect(error?.code).toBe("CONTENT_PRICE_INVALID");
    expect(error?.message).toContain(`Document ${fitr.id} (fitr, en-au), field unit_amount`);
    expect(existsSync(join(f.config.outDir, "index.html"))).toBe(false);
  });

  it("gives byte-identical pages from a snapshot read on demand (a very large one's path)", async () => {
    const sample = await readSnapshot(join(PROJECT_ROOT, "content-cache/sample/snapshot.json"));
    const built: Record<string, string>[] = [];
    // One repository name for both: the preview bundle carries it.
    const repository = "nzf-on-demand";
    for (const [onDemand, render] of [
      [true, { workersFromPages: 1, earlyWorkersFromBytes: 0, onDemandFromBytes: 0, oneWorkerFromBytes: 0 }],
      [false, { workersFromPages: Number.POSITIVE_INFINITY }],
    ] as const) {
      const { f, contentDir } = await fetchedFixture(repository, { render });
      await symlink(join(PROJECT_ROOT, "content-cache/sample/images"), join(contentDir, repository, "images"));
      await writeSnapshot(join(contentDir, repository, "snapshot.json"), sample);
      const result = await f.run();
      if (onDemand) {
        expect(result.plannedInWorker).toBe(true);
        expect(result.renderedInWorkers).toBe(result.pages);
      } else expect(result.renderedInWorkers).toBe(0);
      built.push(await siteFileHashes(f.config.outDir));
    }
    expect(Object.keys(built[0]!).length).toBeGreaterThan(50);
    expect(built[0]).toEqual(built[1]);
  });

  it("reports every page that fails in a worker with its document id and output path, and publishes nothing", async () => {
    const { f, sample, snapshotFile } = await sampleFetchedFixture("nzf-broken");
    expect((await f.run()).renderedInWorkers).toBeGreaterThan(50);
    const before = await siteFileHashes(f.config.outDir);

    // A null paragraph in every case's body makes the case template throw.
    const cases = sample.documents.filter((d) => d.type === "case");
    expect(cases.length).toBeGreaterThan(1);
    const broken = sample.documents.map((d) => (d.type === "case" ? { ...d, data: { ...d.data, body: [null] } } : d));
    await writeSnapshot(snapshotFile, { ...sample, ref: `${sample.ref}-broken`, documents: broken });
    const error = await f.run().then(
      () => null,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(NzfAggregateError);
    const failures = (error as NzfAggregateError).errors as NzfError[];
    for (const doc of cases) {
      const failure = failures.find((e) => e.message.includes(`document ${doc.id} (case)`));
      expect(failure, `a failure naming case ${doc.id}`).toBeDefined();
      expect(failure!.code).toBe("RENDER_FAILED");
      expect(failure!.subject).toBe(`case/${doc.uid}/index.html`);
    }
    expect(await siteFileHashes(f.config.outDir)).toEqual(before);
  });

  it("finds a secret key in a page a worker rendered, names the page, and publishes nothing", async () => {
    const { f, sample, snapshotFile } = await sampleFetchedFixture("nzf-leak");
    await f.run();
    const before = await siteFileHashes(f.config.outDir);

    // An editor pastes a live Stripe key into one case, split by bold text.
    const leaking = sample.documents.find((d) => d.type === "case")!;
    const paragraph = {
      type: "paragraph",
      text: "Key: sk_live_51HabcdEFGH12345678",
      spans: [{ start: 13, end: 21, type: "strong" }],
    };
    const documents = sample.documents.map((d) =>
      d === leaking ? { ...d, data: { ...d.data, body: [...((d.data.body as unknown[]) ?? []), paragraph] } } : d,
    );
    await writeSnapshot(snapshotFile, { ...sample, ref: `${sample.ref}-leak`, documents });
    const error = await f.run().then(
      () => null,
      (e: unknown) => e as NzfError,
    );
    expect(error?.message).toContain(`case/${leaking.uid}/index.html: sk_live_51Ha… (split by markup or encoded)`);
    expect(error?.message).not.toContain("EFGH12345678");
    expect(await siteFileHashes(f.config.outDir)).toEqual(before);
  });

  it("finds a secret key in a page a worker wrote itself, in a first build, and publishes nothing", async () => {
    const repository = "nzf-leak-first";
    const { f, contentDir } = await fetchedFixture(repository, { ...IN_WORKERS, forOneBuild: true });
    await symlink(join(PROJECT_ROOT, "content-cache/sample/images"), join(contentDir, repository, "images"));
    const sample = await readSnapshot(join(PROJECT_ROOT, "content-cache/sample/snapshot.json"));
    const leaking = sample.documents.find((d) => d.type === "case")!;
    const paragraph = { type: "paragraph", text: "Key: sk_live_51HabcdEFGH12345678", spans: [] };
    const documents = sample.documents.map((d) =>
      d === leaking ? { ...d, data: { ...d.data, body: [...((d.data.body as unknown[]) ?? []), paragraph] } } : d,
    );
    await writeSnapshot(join(contentDir, repository, "snapshot.json"), { ...sample, documents });
    const error = await f.run().then(
      () => null,
      (e: unknown) => e as NzfError,
    );
    expect(error?.message).toContain(`case/${leaking.uid}/index.html: sk_live_51Ha`);
    // Nothing was published: no site at the output folder, and the tree the workers wrote into is gone.
    expect(existsSync(f.config.outDir)).toBe(false);
    expect(existsSync(`${f.config.outDir}.versions`) ? await readdir(`${f.config.outDir}.versions`) : []).toEqual([]);
  });
});
