/**
 * `nzf-build deploy --dry-run` offline, through the compiled CLI in a new process: with no bucket
 * and no AWS credentials it plans against the last deploy recorded on this machine (or, with none,
 * against an empty bucket, saying so and what it would need); a bucket that cannot be read falls
 * back to that record when it is the same bucket. Nothing is uploaded by a plan.
 */
import { appendFile, cp, readFile, realpath } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { LOCAL_AWS_ENV, startLocalS3 } from "../support/aws-local.js";
import { sharedSampleSite } from "../support/shared-site.js";
import { cli, freePort, projectRoot, removeTemporary, tempDir } from "./cli-process.js";

afterAll(removeTemporary);

const count = (output: string, what: string) => Number(new RegExp(`(\\d+) ${what}`).exec(output)?.[1] ?? NaN);

describe("deploy --dry-run without a bucket or credentials", () => {
  it("plans against an empty bucket, then against the last deploy, and sees one changed page", async () => {
    const root = await projectRoot();
    // A copy of the sample site the test run builds once: what is planned is the point here, not
    // how the site was built. Copied from the version its dist/ links to, as a page is changed below.
    const out = join(await tempDir(), "site");
    await cp(await realpath((await sharedSampleSite()).outDir), out, { recursive: true });

    // No deploy recorded: every file would go up, and the plan says what a comparison with the bucket needs.
    const first = await cli(["deploy", "--root", root, "--out", out, "--dry-run"]);
    expect(first.code, first.output).toBe(0);
    expect(first.output).toContain("no deploy from this machine is recorded");
    expect(first.output).toContain("dry run: the plan for an empty bucket; nothing is changed");
    expect(first.output).toContain("give it (--bucket or NZF_S3_BUCKET) with AWS credentials");
    expect(first.output).toContain("upload pages  index.html");
    expect(first.output).toMatch(/would upload [1-9]\d* files, keep 0, delete 0/);
    const files = count(first.output, "files, keep");

    // A real deploy to a local S3 records what the bucket holds afterwards.
    const s3 = await startLocalS3();
    try {
      await s3.createBucket("nzf-dry-run");
      const deployed = await cli(
        ["deploy", "--root", root, "--out", out, "--bucket", "nzf-dry-run", "--s3-endpoint", s3.endpoint],
        LOCAL_AWS_ENV,
        60_000,
      );
      expect(deployed.code, deployed.output).toBe(0);
      expect(deployed.output).toContain(`uploaded ${files} files`);
    } finally {
      await s3.stop();
    }
    const record = JSON.parse(await readFile(join(root, ".nzf-cache", "deploy", "last-deploy.json"), "utf8")) as {
      bucket: string;
      objects: Record<string, { hash: string }>;
    };
    expect(record.bucket).toBe("nzf-dry-run");
    expect(Object.keys(record.objects)).toHaveLength(files);

    // Offline again (the local S3 is gone, no credentials): nothing differs from the last deploy.
    const same = await cli(["deploy", "--root", root, "--out", out, "--dry-run"]);
    expect(same.code, same.output).toBe(0);
    expect(same.output).toMatch(/offline: comparing with the last deploy from this machine, to s3:\/\/nzf-dry-run/);
    expect(same.output).toContain(`would upload 0 files, keep ${files}, delete 0`);

    // One page changed in the published site: that page, and its paths to invalidate.
    await appendFile(join(out, "about", "index.html"), "<!-- changed -->\n");
    const changed = await cli(["deploy", "--root", root, "--out", out, "--dry-run", "--distribution", "E2DRYRUN0001"]);
    expect(changed.code, changed.output).toBe(0);
    expect(changed.output).toContain("upload pages  about/index.html");
    expect(changed.output).toContain("invalidate E2DRYRUN0001: /about/ /about/index.html");
    expect(changed.output).toContain(`would upload 1 files, keep ${files - 1}, delete 0`);

    // A bucket given that cannot be read: the same bucket falls back to the record, another is refused.
    const closed = `http://127.0.0.1:${await freePort()}`;
    const [fallback, other] = await Promise.all([
      cli(
        ["deploy", "--root", root, "--out", out, "--dry-run", "--bucket", "nzf-dry-run", "--s3-endpoint", closed],
        LOCAL_AWS_ENV,
        60_000,
      ),
      cli(
        ["deploy", "--root", root, "--out", out, "--dry-run", "--bucket", "nzf-elsewhere", "--s3-endpoint", closed],
        LOCAL_AWS_ENV,
        60_000,
      ),
    ]);
    expect(fallback.code, fallback.output).toBe(0);
    expect(fallback.output).toContain("warn: s3://nzf-dry-run could not be read");
    expect(fallback.output).toContain("planning against the last deploy from this machine instead");
    expect(fallback.output).toContain(`would upload 1 files, keep ${files - 1}, delete 0`);
    expect(other.code, other.output).toBe(1);
    expect(other.output).toContain("[DEPLOY_BUCKET_UNREADABLE] The bucket s3://nzf-elsewhere could not be read");
    expect(other.output).toContain("--dry-run plans offline against the last deploy from this machine");
  }, 240_000);

  it("a deploy without --dry-run still needs the bucket, and says --dry-run does not", async () => {
    const run = await cli(["deploy", "--root", await projectRoot()]);
    expect(run.code, run.output).toBe(1);
    expect(run.output).toContain("[CONFIG_INVALID] No S3 bucket was given, so nothing was deployed. (NZF_S3_BUCKET)");
    expect(run.output).toContain("To see the plan without a bucket or credentials, add --dry-run.");
  });
});
