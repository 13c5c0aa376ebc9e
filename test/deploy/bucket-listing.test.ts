/**
 * The deploy reads the whole bucket before it plans: past 1,000 objects S3 answers in pages, and
 * every page must be read (a site of 2,000 documents has over 2,000 objects). Runs against s3rver,
 * whose continuation tokens test/support/aws-local.ts lets it make on OpenSSL 3.
 */
import { PutObjectCommand } from "@aws-sdk/client-s3";
import { afterAll, beforeAll, expect, it } from "vitest";
import { markRetired, readBucket, s3ClientFor } from "../../src/deploy/bucket.js";
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
    // Page-like keys in one folder, written as s3rver's store keeps them (LocalS3.seed): 2,050 signed
    // PUTs cost more CPU than the rest of the test, and a folder per key doubled s3rver's work.
    const keys = Array.from({ length: 2050 }, (_, i) => `pages/${String(i).padStart(4, "0")}.html`);
    await s3.seed(
      settings.bucket,
      keys.map((key) => ({ key, body: key, metadata: { hash: key } })),
    );
    const listed = await readBucket(client, settings.bucket);
    expect(listed.size).toBe(2050);
    expect([...listed.keys()].sort()).toEqual(keys);
    expect(s3.requests.filter((r) => r.startsWith("GET /nzf-listing-test") && !r.includes("/pages/")).length).toBe(3);
  },
  hangLimit(120_000),
);

it(
  "reads again only published objects whose listed version differs from the last deploy's record",
  async () => {
    const settings: DeploySettings = {
      bucket: "nzf-known-test",
      region: "ap-southeast-2",
      s3Endpoint: s3.endpoint,
      dryRun: false,
    };
    await s3.createBucket(settings.bucket);
    const client = s3ClientFor(settings);
    const put = (Key: string, body: string) =>
      client.send(new PutObjectCommand({ Bucket: settings.bucket, Key, Body: body, Metadata: { "nzf-sha256": body } }));
    const keys = ["about/index.html", "assets/site-1.css", "assets/site-2.css", "index.html"];
    for (const key of keys) await put(key, `v1 ${key}`);
    const heads = () =>
      s3.requests
        .filter((r) => r.startsWith(`HEAD /${settings.bucket}/`))
        .map((r) => r.slice(`HEAD /${settings.bucket}/`.length))
        .sort();
    // The site being deployed no longer has site-1.css: its retirement mark matters, so it is always read.
    const published = (key: string) => key !== "assets/site-1.css";

    const first = await readBucket(client, settings.bucket);
    expect(heads()).toEqual(keys);
    for (const object of first.values()) expect(object.version).toMatch(/^"\w+"$/);
    const known = Object.fromEntries(first);

    s3.requests.length = 0;
    expect(await readBucket(client, settings.bucket, undefined, known, published)).toEqual(first);
    expect(heads()).toEqual(["assets/site-1.css"]);

    // One page rewritten (another machine's deploy) and the old stylesheet marked as no longer used:
    // both are read again, and what they say is used.
    await put("about/index.html", "v2 about");
    const when = new Date(Date.UTC(2026, 10, 27));
    await markRetired(client, settings.bucket, "assets/site-1.css", "v1 assets/site-1.css", when);
    s3.requests.length = 0;
    const third = await readBucket(client, settings.bucket, undefined, known, published);
    expect(heads()).toEqual(["about/index.html", "assets/site-1.css"]);
    expect(third.get("about/index.html")?.hash).toBe("v2 about");
    expect(third.get("assets/site-1.css")?.retiredAt).toBe(when.getTime());
    expect(third.get("index.html")).toEqual(first.get("index.html"));
  },
  hangLimit(60_000),
);
