/**
 * `nzf-build deploy` against a real S3 API on loopback (s3rver) and a local CloudFront API that
 * records invalidations: the first deploy, a deploy with no change (the compiled CLI in a new
 * process for both), one edited document, a removed page, and an upload that fails.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cp, readFile } from "node:fs/promises";
import { join } from "node:path";
import {
  GetObjectCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
} from "@aws-sdk/client-s3";
import type { PrismicDocument } from "@prismicio/client";
import { createFixture, PROJECT_ROOT, siteFileHashes, type Fixture } from "../support/build-fixture.js";
import {
  LOCAL_AWS_ENV,
  startLocalCloudFront,
  startLocalS3,
  type LocalCloudFront,
  type LocalS3,
} from "../support/aws-local.js";
import { cli } from "../cli/cli-process.js";
import { readSnapshot, writeSnapshot } from "../../src/content/snapshot.js";
import { createMemoryLogger } from "../../src/core/logger.js";
import { NzfError } from "../../src/core/errors.js";
import { deploySite } from "../../src/deploy/deploy.js";
import { objectHash, pathsOf } from "../../src/deploy/plan.js";
import type { DeploySettings } from "../../src/deploy/settings.js";
import { EDGE_FILES } from "../../src/deploy/edge-files.js";
import { deployRecordPath } from "../../src/deploy/last-deploy.js";
import { edgeFunctionCode } from "../../src/deploy/edge-function.js";
import { parseHeadersFile } from "../../src/site-files/headers.js";

const BUCKET = "nzf-deploy-test";
const DISTRIBUTION = "E2TESTDISTRIB1";
let fixture: Fixture;
let s3: LocalS3;
let cloudFront: LocalCloudFront;
let client: S3Client;
let snapshotFile: string;
let settings: DeploySettings;

async function edit(change: (docs: PrismicDocument[]) => PrismicDocument[]): Promise<void> {
  const current = await readSnapshot(snapshotFile);
  await writeSnapshot(snapshotFile, {
    ...current,
    ref: `${current.ref}x`,
    documents: change(structuredClone(current.documents)),
  });
}

async function bucketKeys(): Promise<string[]> {
  const list = await client.send(new ListObjectsV2Command({ Bucket: BUCKET }));
  return (list.Contents ?? []).map((o) => o.Key!).sort();
}

async function objectText(key: string): Promise<string> {
  const answer = await client.send(new GetObjectCommand({ Bucket: BUCKET, Key: key }));
  return answer.Body!.transformToString();
}

/** The site's files that differ between two snapshots of it (changed, added or removed). */
function differing(before: Record<string, string>, after: Record<string, string>): string[] {
  const keys = new Set([...Object.keys(before), ...Object.keys(after)]);
  return [...keys].filter((k) => before[k] !== after[k] && k !== "_headers" && k !== "_redirects").sort();
}

const putKeys = (from: number) =>
  s3.requests
    .slice(from)
    .filter((r) => r.startsWith("PUT "))
    .map((r) => r.slice(`PUT /${BUCKET}/`.length));

beforeAll(async () => {
  fixture = await createFixture({ sample: true });
  fixture.config.contentDir = join(fixture.dir, "content-cache");
  await cp(join(PROJECT_ROOT, "content-cache/sample"), join(fixture.config.contentDir, "sample"), { recursive: true });
  snapshotFile = join(fixture.config.contentDir, "sample/snapshot.json");
  [s3, cloudFront] = await Promise.all([startLocalS3(), startLocalCloudFront(), fixture.run()]);
  await s3.createBucket(BUCKET);
  Object.assign(process.env, LOCAL_AWS_ENV);
  client = new S3Client({
    endpoint: s3.endpoint,
    region: "ap-southeast-2",
    forcePathStyle: true,
    credentials: { accessKeyId: "S3RVER", secretAccessKey: "S3RVER" },
  });
  settings = {
    bucket: BUCKET,
    distribution: DISTRIBUTION,
    region: "ap-southeast-2",
    s3Endpoint: s3.endpoint,
    dryRun: false,
  };
  // This process's deploys invalidate through the local CloudFront too.
  Object.assign(process.env, cloudFront.env);
}, 120_000);

afterAll(async () => {
  client?.destroy();
  await Promise.all([s3?.stop(), cloudFront?.stop()]);
  await fixture?.cleanup();
});

const cliArgs = () => [
  "deploy",
  "--out",
  fixture.config.outDir,
  "--bucket",
  BUCKET,
  "--distribution",
  DISTRIBUTION,
  "--s3-endpoint",
  s3.endpoint,
];
const cliEnv = () => ({ ...LOCAL_AWS_ENV, ...cloudFront.env });

describe("the edge pieces the build writes", () => {
  it("are in the work folder's deploy/, outside the site: the function, the IAM policy, the template with the site's CSP", async () => {
    const dir = join(fixture.config.workDir, "deploy");
    expect(dir.startsWith(fixture.config.outDir)).toBe(false);
    expect(await readFile(join(dir, EDGE_FILES.function), "utf8")).toBe(edgeFunctionCode());
    const iam = JSON.parse(await readFile(join(dir, EDGE_FILES.iamPolicy), "utf8"));
    expect(JSON.stringify(iam)).toContain("arn:aws:s3:::BUCKET/*");
    const template = JSON.parse(await readFile(join(dir, EDGE_FILES.cloudFormation), "utf8"));
    const csp = parseHeadersFile(await readFile(join(fixture.config.outDir, "_headers"), "utf8"))[0]!.headers[
      "Content-Security-Policy"
    ];
    expect(
      template.Resources.SiteHeaders.Properties.ResponseHeadersPolicyConfig.SecurityHeadersConfig.ContentSecurityPolicy
        .ContentSecurityPolicy,
    ).toBe(csp);
    const site = Object.keys(await siteFileHashes(fixture.config.outDir));
    expect(site.filter((f) => Object.values(EDGE_FILES).some((name) => f.endsWith(name)))).toEqual([]);
  });
});

describe.sequential("nzf-build deploy", () => {
  it("first deploy (the CLI): uploads every file with its type, cache headers and hash; bundles before pages before the worker", async () => {
    const from = s3.requests.length;
    const run = await cli(cliArgs(), cliEnv(), 60_000);
    expect(run.code, run.output).toBe(0);
    const site = Object.keys(await siteFileHashes(fixture.config.outDir))
      .filter((f) => f !== "_headers" && f !== "_redirects")
      .sort();
    expect(await bucketKeys()).toEqual(site);
    expect(run.output).toMatch(new RegExp(`uploaded ${site.length} files \\([\\d.]+ MB\\), kept 0, deleted 0`));

    const expectations: [string, string, string][] = [
      ["index.html", "text/html; charset=utf-8", "no-cache"],
      ["about/index.html", "text/html; charset=utf-8", "no-cache"],
      ["sw.js", "text/javascript; charset=utf-8", "no-cache"],
      ["manifest.webmanifest", "application/manifest+json", "public, max-age=0, must-revalidate"],
      ["sitemap.xml", "application/xml; charset=utf-8", "no-cache"],
      [
        site.find((f) => /^_islands\/.*\.js$/.test(f))!,
        "text/javascript; charset=utf-8",
        "public, max-age=31536000, immutable",
      ],
      [
        site.find((f) => /^_assets\/.*\.css$/.test(f))!,
        "text/css; charset=utf-8",
        "public, max-age=31536000, immutable",
      ],
      [site.find((f) => /^_images\/.*\.webp$/.test(f))!, "image/webp", "public, max-age=31536000, immutable"],
      [site.find((f) => /^icons\/.*\.png$/.test(f))!, "image/png", "public, max-age=86400"],
    ];
    for (const [key, type, cache] of expectations) {
      const head = await client.send(new HeadObjectCommand({ Bucket: BUCKET, Key: key }));
      expect([key, head.ContentType, head.CacheControl]).toEqual([key, type, cache]);
      expect(head.Metadata?.["nzf-sha256"]).toBe(objectHash(await readFile(join(fixture.config.outDir, key)), key));
    }

    const order = putKeys(from);
    const firstPage = order.findIndex((k) => k.endsWith(".html"));
    const lastAsset = order.findLastIndex((k) => !k.endsWith(".html") && k !== "sw.js");
    expect(lastAsset).toBeLessThan(firstPage);
    expect(order.findLastIndex((k) => k.endsWith(".html"))).toBeLessThan(order.indexOf("sw.js"));
    expect(order.at(-1)).toBe("sw.js");
    // Over a hundred changed paths: the whole distribution, in one path.
    expect(cloudFront.invalidations.at(-1)).toMatchObject({ distribution: DISTRIBUTION, paths: ["/*"] });
  }, 90_000);

  it("a second deploy with no change (the CLI) uploads nothing and invalidates nothing", async () => {
    const from = s3.requests.length;
    const invalidations = cloudFront.invalidations.length;
    const run = await cli(cliArgs(), cliEnv(), 60_000);
    expect(run.code, run.output).toBe(0);
    expect(run.output).toMatch(/uploaded 0 files \(0\.00 MB\), kept \d+, deleted 0; invalidated nothing/);
    expect(putKeys(from)).toEqual([]);
    expect(s3.requests.slice(from).some((r) => r.startsWith("POST") || r.startsWith("DELETE"))).toBe(false);
    expect(cloudFront.invalidations.length).toBe(invalidations);
    // The first deploy's record knows every object's version (ETag), and the listing shows them
    // unchanged: no object is read one by one (src/deploy/bucket.ts, readBucket).
    expect(s3.requests.slice(from).filter((r) => r.startsWith("HEAD"))).toEqual([]);
  }, 90_000);

  it("after one edited document, uploads the files that changed and invalidates only their paths", async () => {
    const before = await siteFileHashes(fixture.config.outDir);
    // A deploy from this process first (nothing to send), which records the version it sent.
    const recordFile = deployRecordPath(fixture.config.workDir);
    const unchanged = await deploySite(fixture.config.outDir, settings, { logger: createMemoryLogger(), recordFile });
    expect(unchanged).toMatchObject({ uploaded: 0, filesRead: Object.keys(before).length - 2 });
    const original = await readSnapshot(snapshotFile);
    const article = original.documents.find((d) => d.type === "blog_article")!;
    await edit((docs) => {
      (docs.find((d) => d.id === article.id)!.data as { excerpt: string }).excerpt =
        "An excerpt changed by the deploy test.";
      return docs;
    });
    await fixture.run();
    const changed = differing(before, await siteFileHashes(fixture.config.outDir));
    expect(changed).toContain(`blog/${article.uid}/index.html`);
    expect(changed.length).toBeLessThan(20);

    const from = s3.requests.length;
    const logger = createMemoryLogger();
    const warnings: string[] = [];
    const onWarning = (warning: Error) => warnings.push(warning.name);
    process.on("warning", onWarning);
    const report = await deploySite(fixture.config.outDir, settings, { logger, recordFile }).finally(() =>
      process.off("warning", onWarning),
    );
    // Its requests share one deadline signal: no listener-leak warning in the webhook's log.
    expect(warnings).not.toContain("MaxListenersExceededWarning");
    expect(putKeys(from).sort()).toEqual(changed);
    expect(report.uploaded).toBe(changed.length);
    // Only the files the build changed were read and hashed (src/deploy/site-hashes.ts), not the whole site.
    expect(report.filesRead).toBeGreaterThanOrEqual(changed.length);
    expect(report.filesRead).toBeLessThan(changed.length + 10);
    expect(report.filesRead).toBeLessThan((Object.keys(before).length - 2) / 4);
    // Where its time went, for the publish bench: each step it took, in ms.
    for (const step of ["site", "bucket", "upload", "retire", "invalidate"])
      expect([step, report.stages[step]]).toEqual([step, expect.any(Number)]);
    expect(await objectText(`blog/${article.uid}/index.html`)).toContain("An excerpt changed by the deploy test.");
    const invalidation = cloudFront.invalidations.at(-1)!;
    expect(invalidation.paths).toEqual(
      [...new Set(changed.filter((k) => !/^_(islands|assets|images)\//.test(k)).flatMap(pathsOf))].sort(),
    );
    expect(invalidation.paths).toContain(`/blog/${article.uid}/`);
    expect(invalidation.paths).not.toContain("/about/");
    expect(logger.lines.map((l) => l.message).join("\n")).toMatch(
      new RegExp(`uploaded ${changed.length} files .*invalidated ${invalidation.paths.length} paths`),
    );
  }, 120_000);

  it("deletes a removed page, after every upload, and invalidates its path", async () => {
    const snapshot = await readSnapshot(snapshotFile);
    const removed = snapshot.documents.filter((d) => d.type === "blog_article").at(-1)!;
    const key = `blog/${removed.uid}/index.html`;
    expect(await bucketKeys()).toContain(key);
    await edit((docs) => docs.filter((d) => d.id !== removed.id));
    await fixture.run();

    const from = s3.requests.length;
    const report = await deploySite(fixture.config.outDir, settings, { logger: createMemoryLogger() });
    expect(report.plan.deletions).toContain(key);
    expect(await bucketKeys()).not.toContain(key);
    const requests = s3.requests.slice(from);
    const deletion = requests.findIndex((r) => r.startsWith("POST") && r.includes(BUCKET));
    expect(deletion).toBeGreaterThan(requests.findLastIndex((r) => r.startsWith("PUT ")));
    expect(cloudFront.invalidations.at(-1)!.paths).toContain(`/blog/${removed.uid}/`);
  }, 120_000);

  it("a failed upload leaves the bucket serving the previous site, deletes and invalidates nothing, and says what to do", async () => {
    const snapshot = await readSnapshot(snapshotFile);
    const article = snapshot.documents.find((d) => d.type === "blog_article")!;
    const page = `blog/${article.uid}/index.html`;
    const previous = await objectText(page);
    await edit((docs) => {
      (docs.find((d) => d.id === article.id)!.data as { excerpt: string }).excerpt =
        "An excerpt the failed deploy must not publish.";
      return docs.filter((d) => d.id !== snapshot.documents.filter((x) => x.type === "blog_article").at(-1)!.id);
    });
    await fixture.run();
    const keysBefore = await bucketKeys();
    const invalidations = cloudFront.invalidations.length;
    s3.failUploads = new RegExp(`/${page.replace(/[.]/g, "\\.")}$`);
    try {
      const failure = await deploySite(fixture.config.outDir, settings, { logger: createMemoryLogger() }).catch(
        (error: unknown) => error,
      );
      expect(failure).toBeInstanceOf(NzfError);
      expect((failure as NzfError).code).toBe("DEPLOY_UPLOAD_FAILED");
      expect((failure as NzfError).message).toContain(page);
      expect((failure as NzfError).hint).toMatch(/Run nzf-build deploy again/);
    } finally {
      s3.failUploads = null;
    }
    expect(await objectText(page)).toBe(previous);
    expect(await bucketKeys()).toEqual(keysBefore);
    expect(cloudFront.invalidations.length).toBe(invalidations);

    // Run again, as the hint says: it finishes the job.
    const report = await deploySite(fixture.config.outDir, settings, { logger: createMemoryLogger() });
    expect(report.uploaded).toBeGreaterThan(0);
    expect(await objectText(page)).toContain("An excerpt the failed deploy must not publish.");
  }, 120_000);

  it("keeps a hashed file the site no longer uses for 48 hours (marked), then deletes it", async () => {
    const key = "_islands/retired-0ld.js";
    await client.send(
      new PutObjectCommand({
        Bucket: BUCKET,
        Key: key,
        Body: "old()",
        ContentType: "text/javascript; charset=utf-8",
        CacheControl: "public, max-age=31536000, immutable",
        Metadata: { "nzf-sha256": "0ld" },
      }),
    );
    const marked = await deploySite(fixture.config.outDir, settings, { logger: createMemoryLogger() });
    expect(marked.plan.retire).toEqual([key]);
    const head = await client.send(new HeadObjectCommand({ Bucket: BUCKET, Key: key }));
    expect(Date.parse(head.Metadata!["nzf-retired"]!)).toBeGreaterThan(Date.now() - 60_000);
    // Still served as it was: same bytes, same headers.
    expect([await objectText(key), head.ContentType, head.CacheControl]).toEqual([
      "old()",
      "text/javascript; charset=utf-8",
      "public, max-age=31536000, immutable",
    ]);
    expect(
      (await deploySite(fixture.config.outDir, settings, { logger: createMemoryLogger() })).plan.deletions,
    ).toEqual([]);

    // Three days later (the mark rewritten as three days old), the next deploy deletes it.
    const old = new Date(Date.now() - 3 * 24 * 3600_000).toISOString();
    await client.send(
      new PutObjectCommand({
        Bucket: BUCKET,
        Key: key,
        Body: "old()",
        Metadata: { "nzf-sha256": "0ld", "nzf-retired": old },
      }),
    );
    const invalidations = cloudFront.invalidations.length;
    const report = await deploySite(fixture.config.outDir, settings, { logger: createMemoryLogger() });
    expect(report.plan.deletions).toEqual([key]);
    expect(await bucketKeys()).not.toContain(key);
    // A hashed name is never invalidated: nothing else changed, so no invalidation at all.
    expect(cloudFront.invalidations.length).toBe(invalidations);
  }, 60_000);

  it("an invalidation that fails says the bucket has the new site and which paths to invalidate", async () => {
    await edit((docs) => {
      (docs.find((d) => d.type === "blog_article")!.data as { excerpt: string }).excerpt =
        "An excerpt whose invalidation fails.";
      return docs;
    });
    await fixture.run();
    process.env.AWS_ENDPOINT_URL_CLOUDFRONT = `${cloudFront.endpoint}/nowhere`;
    const failure = await deploySite(fixture.config.outDir, settings, { logger: createMemoryLogger() })
      .catch((e: unknown) => e)
      .finally(() => Object.assign(process.env, cloudFront.env));
    expect((failure as NzfError).code).toBe("DEPLOY_INVALIDATION_FAILED");
    expect((failure as NzfError).message).toMatch(
      /^The new site is in s3:\/\/nzf-deploy-test, but invalidating \d+ paths of CloudFront distribution E2TESTDISTRIB1 failed .*\/learn\//,
    );
  }, 60_000);

  it("--dry-run prints the plan and changes nothing", async () => {
    await edit((docs) => {
      const doc = docs.find((d) => d.type === "blog_article")!;
      (doc.data as { excerpt: string }).excerpt = "An excerpt only planned.";
      return docs;
    });
    await fixture.run();
    const from = s3.requests.length;
    const invalidations = cloudFront.invalidations.length;
    const logger = createMemoryLogger();
    const report = await deploySite(fixture.config.outDir, { ...settings, dryRun: true }, { logger });
    expect(report.plan.uploads.length).toBeGreaterThan(0);
    const text = logger.lines.map((l) => l.message).join("\n");
    for (const upload of report.plan.uploads) expect(text).toContain(upload.key);
    expect(text).toContain(`invalidate ${DISTRIBUTION}: `);
    expect(putKeys(from)).toEqual([]);
    expect(cloudFront.invalidations.length).toBe(invalidations);
  }, 120_000);
});
