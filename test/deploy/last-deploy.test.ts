/**
 * The record of the last deploy (src/deploy/last-deploy.ts): what the bucket holds after a plan is
 * carried out, and a record that is missing or damaged read as such, never as an empty bucket.
 */
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { bucketAfter, readDeployRecord, writeDeployRecord } from "../../src/deploy/last-deploy.js";
import { planDeploy, RETIRED_GRACE_MS, type RemoteObject } from "../../src/deploy/plan.js";

let dir: string | undefined;
afterEach(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe("the last deploy's record", () => {
  it("is the bucket after the plan: uploads replace, retired files are marked, deletions are gone", () => {
    const now = 10 * RETIRED_GRACE_MS;
    const remote = new Map<string, RemoteObject>([
      ["index.html", { hash: "old" }],
      ["about/index.html", { hash: "same" }],
      ["_assets/old-1.css", { hash: "c1" }],
      ["_assets/older-0.css", { hash: "c0", retiredAt: now - RETIRED_GRACE_MS }],
      ["gone.txt", { hash: "g" }],
    ]);
    const local = [
      { key: "index.html", hash: "new", size: 1 },
      { key: "about/index.html", hash: "same", size: 1 },
      { key: "_assets/new-2.css", hash: "c2", size: 1 },
    ];
    const plan = planDeploy(local, remote, now);
    expect(bucketAfter(plan, remote, now)).toEqual({
      "_assets/new-2.css": { hash: "c2" },
      "_assets/old-1.css": { hash: "c1", retiredAt: now },
      "about/index.html": { hash: "same" },
      "index.html": { hash: "new" },
    });
    // Planned again against that, nothing is uploaded.
    const after = new Map(Object.entries(bucketAfter(plan, remote, now)));
    expect(planDeploy(local, after, now).uploads).toEqual([]);
  });

  it("reads back what was written; a missing record is null, a damaged one says so", async () => {
    dir = await mkdtemp(join(tmpdir(), "nzf-record-"));
    const file = join(dir, "deploy", "last-deploy.json");
    expect(await readDeployRecord(file)).toBeNull();
    const record = {
      version: 1 as const,
      bucket: "nzf-site",
      region: "ap-southeast-2",
      deployedAt: new Date(0).toISOString(),
      objects: { "index.html": { hash: "h" } },
    };
    await writeDeployRecord(file, record);
    expect(await readDeployRecord(file)).toEqual(record);
    await writeFile(file, "{ not json");
    expect(await readDeployRecord(file)).toMatchObject({ unreadable: expect.any(String) });
    const withSite = { ...record, site: { dir: "/srv/dist.versions/v2-x", scheme: "s1" } };
    await writeDeployRecord(file, withSite);
    expect(await readDeployRecord(file)).toEqual(withSite);
    await writeFile(file, JSON.stringify({ ...record, site: { dir: 5, scheme: "s1" } }));
    expect(await readDeployRecord(file)).toEqual({ unreadable: "not a deploy record of this version of nzf-build" });
    await writeFile(file, JSON.stringify({ ...record, objects: { "index.html": { hash: 5 } } }));
    expect(await readDeployRecord(file)).toEqual({ unreadable: "not a deploy record of this version of nzf-build" });
  });
});
