/**
 * Publish benchmark: what an editor waits for. The webhook server (in this process, as
 * `nzf-build webhook` runs it: the build queue with its quiet window, the Builder kept between
 * builds, the in-process deploy) over the 2,000-document synthetic repository served by the local
 * Prismic stub, deploying to a real S3 API on loopback (s3rver, in a thread of its own) and the
 * local CloudFront API. Each run publishes one changed document in the stub, POSTs the webhook
 * naming it, and stops the clock when CloudFront has recorded the invalidation, which the deploy
 * sends after the last object is in the bucket. p50 of 10 (goal on this machine: under 1.5 s).
 */
import { cp, mkdtemp, rm, symlink } from "node:fs/promises";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { readSnapshot } from "../src/content/snapshot.js";
import { resolveConfig } from "../src/core/config.js";
import { silentLogger } from "../src/core/logger.js";
import { build } from "../src/pipeline/build.js";
import { createBuilder } from "../src/pipeline/builder.js";
import type { DeploySettings } from "../src/deploy/settings.js";
import { deployRecordPath } from "../src/deploy/last-deploy.js";
import { createWebhookDeploy } from "../src/deploy/webhook-deploy.js";
import { startWebhookService } from "../src/server/webhook-server.js";
import { LOCAL_AWS_ENV, startLocalCloudFront } from "../test/support/aws-local.js";
import { startS3InThread } from "./s3-thread.js";
import { startPrismicStub } from "../test/support/prismic-stub.js";
import { syntheticDocuments } from "./synthetic.js";

const SECRET = "bench-publish-secret-0123456789";
const percentile = (values: number[], p: number) =>
  [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(values.length * p))]!;
const s = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
const median = (values: number[]) => (values.length ? percentile(values, 0.5) : 0);

/** When each step of one publish happened (performance.now()), and how long the build's and the deploy's own stages took. */
interface Trace {
  buildStart?: number;
  buildEnd?: number;
  buildStages?: Record<string, number>;
  deployStart?: number;
  deployEnd?: number;
  deployStages?: Record<string, number>;
  /** Files of the site the deploy read and hashed. */
  filesRead?: number;
}

/** The median of each stage over the runs, slowest first (stages of a run that skipped one count as 0). */
function medianStages(all: Record<string, number>[], top = Infinity): string {
  const names = [...new Set(all.flatMap((stages) => Object.keys(stages)))];
  return names
    .map((name) => [name, median(all.map((stages) => stages[name] ?? 0))] as const)
    .sort((a, b) => b[1] - a[1])
    .slice(0, top)
    .map(([name, ms]) => `${name} ${Math.round(ms)}`)
    .join(", ");
}

export async function benchPublish(options: { root: string; runs?: number; print?: (line: string) => void }) {
  const print = options.print ?? ((line: string) => console.log(line));
  const runs = options.runs ?? 10;
  const sample = (await readSnapshot(join(options.root, "content-cache/sample/snapshot.json"))).documents;
  let documents = syntheticDocuments(sample, 2000);
  const stub = await startPrismicStub({ documents, repository: "nzf-bench" });
  // S3 in a thread of its own, as it is elsewhere (./s3-thread.ts); CloudFront only records invalidations.
  const [s3, cloudFront] = await Promise.all([startS3InThread(options.root), startLocalCloudFront()]);
  Object.assign(process.env, LOCAL_AWS_ENV, cloudFront.env);
  const root = await mkdtemp(join(tmpdir(), "nzf-bench-publish-"));
  for (const dir of ["templates", "src", "assets"])
    await cp(join(options.root, dir), join(root, dir), { recursive: true });
  await cp(join(options.root, "package-lock.json"), join(root, "package-lock.json"));
  await symlink(join(options.root, "node_modules"), join(root, "node_modules"));
  const config = resolveConfig(
    {
      root,
      out: join(root, "dist"),
      workDir: join(root, ".nzf-cache"),
      imageCacheDir: join(options.root, ".nzf-cache", "images"),
      contentDir: join(root, "content-cache"),
      fetch: true,
      repository: "nzf-bench",
      endpoint: stub.endpoint,
    },
    {},
  );
  const settings: DeploySettings = {
    bucket: "nzf-bench-publish",
    distribution: "E2BENCHPUBLISH",
    region: "ap-southeast-2",
    s3Endpoint: s3.endpoint,
    dryRun: false,
  };
  const builder = createBuilder();
  let trace: Trace = {};
  const webhookDeploy = createWebhookDeploy(config.outDir, settings, {
    logger: silentLogger,
    recordFile: deployRecordPath(config.workDir),
    onReport: (report) => {
      trace.deployEnd = performance.now();
      trace.deployStages = report.stages;
      trace.filesRead = report.filesRead;
    },
  });
  await s3.createBucket(settings.bucket);
  const service = await startWebhookService(
    {
      port: 0,
      host: "127.0.0.1",
      secret: SECRET,
      repository: "nzf-bench",
      deployTimeoutMs: 600_000,
      deployPassEnv: [],
    },
    {
      logger: silentLogger,
      runBuild: async (triggers) => {
        trace.buildStart = performance.now();
        const ids = triggers.every((t) => t.documentIds?.length) ? triggers.flatMap((t) => t.documentIds!) : undefined;
        const result = await build(config, { logger: silentLogger, changedDocumentIds: ids, builder });
        trace.buildEnd = performance.now();
        trace.buildStages = result.stages;
        return { ok: true, pagesRebuilt: result.pagesRebuilt, pagesTotal: result.pages, durationMs: result.ms };
      },
      // As nzf-build webhook deploys (src/cli/main.ts): with the last deploy's record, listing the bucket while the build runs.
      deploy: {
        ...webhookDeploy,
        run: (signal) => {
          trace.deployStart = performance.now();
          return webhookDeploy.run(signal);
        },
      },
    },
  );
  try {
    // The start-up build and first deploy (every object) are not counted, nor is one warm-up edit.
    await service.queue.idle();
    const first = service.queue.status().deploy.last;
    print(`publish start-up: ${documents.length} documents built and deployed — ${first?.outputTail ?? first?.error}`);
    // The machine is shared: the figures below move with its load, printed beside them.
    const loadBefore = loadavg()[0]!;
    const times: number[] = [];
    const built: number[] = [];
    const deployErrors = new Set<string>();
    const traces: (Trace & { started: number; done: number })[] = [];
    for (let i = -1; i < runs; i++) {
      const index = documents.findIndex((d) => d.type === "blog_article") + ((i + 1) % 50);
      const edited = structuredClone(documents[index]!);
      (edited.data as Record<string, unknown>).excerpt = `Edited by the publish benchmark, run ${i}.`;
      edited.last_publication_date = new Date()
        .toISOString()
        .replace(/\.\d+Z$/, "+0000") as typeof edited.last_publication_date;
      documents = documents.map((d, j) => (j === index ? edited : d));
      const ref = stub.setDocuments(documents);
      const invalidations = cloudFront.invalidations.length;
      const buildsBefore = service.queue.status().builds.length;
      trace = {};
      const started = performance.now();
      const answer = await fetch(`${service.url}/webhook`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({
          type: "api-update",
          secret: SECRET,
          domain: "nzf-bench",
          masterRef: ref,
          documents: [edited.id],
        }),
      });
      if (answer.status !== 200) throw new Error(`the webhook answered ${answer.status}`);
      let builtAt = 0;
      for (;;) {
        const status = service.queue.status();
        const last = status.builds[0];
        if (!builtAt && status.builds.length > buildsBefore) {
          if (!last!.ok) throw new Error(`the build failed: ${last!.error}`);
          builtAt = performance.now();
        }
        if (cloudFront.invalidations.length > invalidations) break;
        if (builtAt && status.state === "idle") break; // deployed nothing: reported below
        await new Promise((r) => setTimeout(r, 2));
      }
      const done = performance.now();
      await service.queue.idle();
      const deploy = service.queue.status().deploy.last;
      if (deploy && !deploy.ok) deployErrors.add(deploy.error ?? "failed");
      if (i < 0) continue;
      built.push(builtAt - started);
      traces.push({ ...trace, started, done });
      if (cloudFront.invalidations.length > invalidations) times.push(done - started);
    }
    print(
      `publish one changed document, webhook to the build published (the quiet window included): p50 ${s(percentile(built, 0.5))}, min ${s(Math.min(...built))}, max ${s(Math.max(...built))} of ${runs}`,
    );
    if (times.length)
      print(
        `publish one changed document, webhook to the invalidation recorded (after the last object): p50 ${s(percentile(times, 0.5))}, min ${s(Math.min(...times))}, max ${s(Math.max(...times))} of ${times.length} (goal under 1.5 s) — last deploy: ${service.queue.status().deploy.last?.outputTail}`,
      );
    print(`publish   load average (1 min) ${loadBefore.toFixed(1)} before the runs, ${loadavg()[0]!.toFixed(1)} after`);
    printBreakdown(print, traces);
    for (const error of deployErrors) print(`publish a deploy failed: ${error}`);
  } finally {
    await service.stop();
    await builder.close();
    await Promise.all([s3.stop(), cloudFront.stop(), stub.stop()]);
    await rm(root, { recursive: true, force: true });
  }
}

/** Where the time of a publish goes: the medians of each step, in ms, over the measured runs. */
function printBreakdown(print: (line: string) => void, traces: (Trace & { started: number; done: number })[]): void {
  const complete = traces.filter((t) => t.buildStart && t.buildEnd && t.deployStart && t.deployEnd);
  if (!complete.length) return;
  const step = (from: (t: Trace & { started: number; done: number }) => number, to: typeof from) =>
    Math.round(median(complete.map((t) => to(t) - from(t))));
  print(
    `publish where the time goes (medians of ${complete.length}, ms): webhook → build start ${step(
      (t) => t.started,
      (t) => t.buildStart!,
    )}, build ${step(
      (t) => t.buildStart!,
      (t) => t.buildEnd!,
    )}, build → deploy start ${step(
      (t) => t.buildEnd!,
      (t) => t.deployStart!,
    )}, deploy start → invalidation seen ${step(
      (t) => t.deployStart!,
      (t) => t.done,
    )} (the deploy returns ${step(
      (t) => t.done,
      (t) => t.deployEnd!,
    )} later, its record written)`,
  );
  print(
    `publish   build stages (slowest 8, ms): ${medianStages(
      complete.map((t) => t.buildStages ?? {}),
      8,
    )}`,
  );
  print(
    `publish   deploy stages (ms): ${medianStages(complete.map((t) => t.deployStages ?? {}))}; files of the site read and hashed: ${median(complete.map((t) => t.filesRead ?? 0))}`,
  );
}
