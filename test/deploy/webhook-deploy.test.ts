/**
 * The webhook server's deploy (src/deploy/webhook-deploy.ts) against a real S3 API on loopback: the
 * bucket's listing read while the build runs is the one the deploy plans with, and a listing that
 * is too old, failed, or no longer matches the bucket is read again, never trusted.
 */
import { mkdir, mkdtemp, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { GetObjectCommand, S3Client } from "@aws-sdk/client-s3";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { createMemoryLogger } from "../../src/core/logger.js";
import { deploySite } from "../../src/deploy/deploy.js";
import { deployRecordPath } from "../../src/deploy/last-deploy.js";
import type { DeploySettings } from "../../src/deploy/settings.js";
import { createWebhookDeploy, EARLY_LISTING_MAX_AGE_MS } from "../../src/deploy/webhook-deploy.js";
import { LOCAL_AWS_ENV, startLocalS3, type LocalS3 } from "../support/aws-local.js";

const BUCKET = "nzf-webhook-deploy";
let s3: LocalS3;
let client: S3Client;
let dir: string;
let outDir: string;
let settings: DeploySettings;
let seq = 0;

/** Publishes a version with these pages (as a build does: a new tree, the link swapped). */
async function publish(pages: Record<string, string>): Promise<void> {
  const id = `v${++seq}-test`;
  const tree = join(`${outDir}.versions`, id);
  for (const [file, text] of Object.entries(pages)) {
    await mkdir(join(tree, file, ".."), { recursive: true });
    await writeFile(join(tree, file), text);
  }
  await rm(`${outDir}.link`, { force: true });
  await symlink(tree, `${outDir}.link`);
  const { rename } = await import("node:fs/promises");
  await rename(`${outDir}.link`, outDir);
}

/** ListObjectsV2 requests since `from` (the bucket's path, with or without its slash; GetObject has a key). */
const lists = (from: number) =>
  s3.requests.slice(from).filter((r) => r === `GET /${BUCKET}` || r === `GET /${BUCKET}/`).length;
const text = async (key: string) =>
  (await client.send(new GetObjectCommand({ Bucket: BUCKET, Key: key }))).Body!.transformToString();

beforeAll(async () => {
  s3 = await startLocalS3();
  await s3.createBucket(BUCKET);
  Object.assign(process.env, LOCAL_AWS_ENV);
  client = new S3Client({
    endpoint: s3.endpoint,
    region: "ap-southeast-2",
    forcePathStyle: true,
    credentials: { accessKeyId: "S3RVER", secretAccessKey: "S3RVER" },
  });
  dir = await mkdtemp(join(tmpdir(), "nzf-webhook-deploy-"));
  outDir = join(dir, "dist");
  settings = { bucket: BUCKET, region: "ap-southeast-2", s3Endpoint: s3.endpoint, dryRun: false };
  await publish({ "index.html": "home 1", "about/index.html": "about 1" });
  await deploySite(outDir, settings, { logger: createMemoryLogger() });
}, 60_000);

afterAll(async () => {
  client?.destroy();
  await s3?.stop();
  await rm(dir, { recursive: true, force: true });
});

describe.sequential("the webhook server's deploy", () => {
  it("plans with the listing read while the build ran, and lists nothing more", async () => {
    const deploy = createWebhookDeploy(outDir, settings, {
      logger: createMemoryLogger(),
      recordFile: deployRecordPath(dir),
    });
    const from = s3.requests.length;
    deploy.prepare();
    // The build: a page changes while the listing is read.
    await publish({ "index.html": "home 2", "about/index.html": "about 1" });
    await expect.poll(() => lists(from)).toBe(1);
    const before = s3.requests.length;
    const said = await deploy.run(new AbortController().signal);
    expect(said).toMatch(/uploaded 1 files/);
    expect(lists(before)).toBe(0);
    expect(await text("index.html")).toBe("home 2");
  });

  it("reads the bucket again when the listing is older than EARLY_LISTING_MAX_AGE_MS", async () => {
    const logger = createMemoryLogger();
    const deploy = createWebhookDeploy(outDir, settings, { logger });
    const from = s3.requests.length;
    deploy.prepare();
    await expect.poll(() => lists(from)).toBe(1);
    await publish({ "index.html": "home 3", "about/index.html": "about 1" });
    // A long build: the deploy starts just past the listing's age limit (the clock moved on; the
    // local S3 does not mind requests signed 30 s ahead, and AWS allows 15 minutes).
    const realNow = Date.now.bind(Date);
    vi.spyOn(Date, "now").mockImplementation(() => realNow() + EARLY_LISTING_MAX_AGE_MS + 1);
    const said = await deploy.run(new AbortController().signal).finally(() => vi.restoreAllMocks());
    expect(said).toMatch(/uploaded 1 files/);
    expect(lists(from)).toBe(2);
    expect(logger.lines.map((l) => l.message).join("\n")).toMatch(/listing read .* ago is too old/);
    expect(await text("index.html")).toBe("home 3");
  });

  it("lists the bucket itself when the early listing failed", async () => {
    await publish({ "index.html": "home 4", "about/index.html": "about 1" });
    const from = s3.requests.length;
    const objects = Promise.reject(new Error("connection reset"));
    objects.catch(() => undefined); // as webhook-deploy.ts does: awaited only by the deploy
    const report = await deploySite(outDir, settings, {
      logger: createMemoryLogger(),
      listing: { startedAt: Date.now(), objects },
    });
    expect(report.uploaded).toBe(1);
    expect(lists(from)).toBe(1);
    expect(await text("index.html")).toBe("home 4");
  });

  it("reads the bucket again when the early listing no longer matches it (an object deleted since)", async () => {
    await publish({ "index.html": "home 5", "news/index.html": "news 1" });
    const from = s3.requests.length;
    // Listed, then deleted by another deploy: reading it fails, so the listing is read anew.
    const objects = Promise.resolve([
      { key: "index.html", version: undefined },
      { key: "gone/index.html", version: '"0123"' },
    ]);
    const report = await deploySite(outDir, settings, {
      logger: createMemoryLogger(),
      listing: { startedAt: Date.now(), objects },
    });
    expect(lists(from)).toBe(1);
    expect(report.plan.uploads.map((u) => u.key).sort()).toEqual(["index.html", "news/index.html"]);
    // about/index.html, which the stale listing lacked, is found and deleted: the bucket matches the site.
    expect(report.plan.deletions).toEqual(["about/index.html"]);
    expect(await text("news/index.html")).toBe("news 1");
  });
});
