/**
 * Deploy benchmark: `nzf-build deploy` of the sample site against a real S3 API on loopback
 * (s3rver) and the local CloudFront API (test/support/aws-local.ts). Prints the first deploy,
 * a deploy with nothing changed (every object's metadata is read), and the figure an editor feels:
 * the deploy after one changed document (median of 5).
 */
import { cp, mkdtemp, rm } from "node:fs/promises";
import { join } from "node:path";
import { readSnapshot, writeSnapshot } from "../src/content/snapshot.js";
import { resolveConfig } from "../src/core/config.js";
import { silentLogger } from "../src/core/logger.js";
import { build } from "../src/pipeline/build.js";
import { deploySite, type DeployReport } from "../src/deploy/deploy.js";
import type { DeploySettings } from "../src/deploy/settings.js";
import { LOCAL_AWS_ENV, startLocalCloudFront, startLocalS3 } from "../test/support/aws-local.js";

const s = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

export async function benchDeploy(options: {
  root: string;
  runs?: number;
  print?: (line: string) => void;
}): Promise<void> {
  const print = options.print ?? ((line: string) => console.log(line));
  const runs = options.runs ?? 5;
  const dir = await mkdtemp(join(options.root, ".nzf-cache", "bench-deploy-"));
  const [s3, cloudFront] = await Promise.all([startLocalS3(), startLocalCloudFront()]);
  Object.assign(process.env, LOCAL_AWS_ENV, cloudFront.env);
  try {
    await cp(join(options.root, "content-cache", "sample"), join(dir, "content", "sample"), { recursive: true });
    const config = resolveConfig(
      {
        root: options.root,
        out: join(dir, "dist"),
        workDir: join(dir, "work"),
        imageCacheDir: join(options.root, ".nzf-cache", "images"),
        contentDir: join(dir, "content"),
        sample: true,
      },
      {},
    );
    await build(config, { logger: silentLogger });
    await s3.createBucket("nzf-bench");
    const settings: DeploySettings = {
      bucket: "nzf-bench",
      distribution: "E2BENCHDEPLOY",
      region: "ap-southeast-2",
      s3Endpoint: s3.endpoint,
      dryRun: false,
    };
    const deploy = () => deploySite(config.outDir, settings, { logger: silentLogger });
    const line = (r: DeployReport) =>
      `${r.uploaded} uploaded (${(r.uploadedBytes / 1024).toFixed(0)} KB), ${r.plan.kept} kept, ${r.plan.invalidations.length} paths invalidated`;

    const first = await deploy();
    print(`deploy  first deploy of the sample site to a local S3 (s3rver): ${s(first.durationMs)} — ${line(first)}`);
    const same = await deploy();
    print(`deploy  nothing changed: ${s(same.durationMs)} — ${line(same)}`);

    const snapshotFile = join(dir, "content", "sample", "snapshot.json");
    const times: number[] = [];
    let last: DeployReport | null = null;
    for (let i = 0; i < runs; i++) {
      const snapshot = await readSnapshot(snapshotFile);
      const doc = snapshot.documents.find((d) => d.type === "blog_article")!;
      (doc.data as { excerpt: string }).excerpt = `An excerpt edited by the deploy benchmark, run ${i}.`;
      await writeSnapshot(snapshotFile, { ...snapshot, ref: `${snapshot.ref}b${i}` });
      await build(config, { logger: silentLogger });
      last = await deploy();
      times.push(last.durationMs);
    }
    print(
      `deploy  one changed document (a blog article's excerpt), build not counted: ${s(median(times))} median of ${runs} — ${line(last!)}`,
    );
  } finally {
    await Promise.all([s3.stop(), cloudFront.stop()]);
    await rm(dir, { recursive: true, force: true });
  }
}
