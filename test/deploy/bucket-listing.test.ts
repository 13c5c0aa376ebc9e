/**
 * The deploy reads the whole bucket before it plans: past 1,000 objects S3 answers in pages, and
 * every page must be read (a site of 2,000 documents has over 2,000 objects). Runs against s3rver,
 * whose continuation tokens test/support/aws-local.ts lets it make on OpenSSL 3.
 */
import { PutObjectCommand } from "@aws-sdk/client-s3";
import { afterAll, beforeAll, expect, it } from "vitest";
import { readBucket, s3ClientFor } from "../../src/deploy/bucket.js";
import type { DeploySettings } from "../../src/deploy/settings.js";
import { LOCAL_AWS_ENV, startLocalS3, type LocalS3 } from "../support/aws-local.js";
import { hangLimit } from "../support/time-limits.js";

let s3: LocalS3;
beforeAll(async () => {
  Object.assign(process.env, LOCAL_AWS_ENV);
  s3 = await startLocalS3();
});
afterAll(() => s3?.stop());

it(
  "reads every object of a bucket of 2,050, across S3's pages of 1,000",
  async () => {
    const settings: DeploySettings = {
      bucket: "nzf-listing-test",
      region: "ap-southeast-2",
      s3Endpoint: s3.endpoint,
      dryRun: false,
    };
    await s3.createBucket(settings.bucket);
    const client = s3ClientFor(settings);
    const keys = Array.from({ length: 2050 }, (_, i) => `pages/${String(i).padStart(4, "0")}/index.html`);
    for (let i = 0; i < keys.length; i += 50)
      await Promise.all(
        keys
          .slice(i, i + 50)
          .map((Key) =>
            client.send(new PutObjectCommand({ Bucket: settings.bucket, Key, Body: Key, Metadata: { hash: Key } })),
          ),
      );
    const listed = await readBucket(client, settings.bucket);
    expect(listed.size).toBe(2050);
    expect([...listed.keys()].sort()).toEqual(keys);
    expect(s3.requests.filter((r) => r.startsWith("GET /nzf-listing-test") && !r.includes("/pages/")).length).toBe(3);
  },
  hangLimit(120_000),
);
