/**
 * Nothing that fails on the way takes the webhook server down (issue 36), through the compiled
 * CLI over HTTP: a full disk (a small tmpfs in a mount namespace of its own), and the server answers
 * throughout, reports a coded error, leaves no partial version and recovers once there is space.
 */
import { spawnSync } from "node:child_process";
import { stat } from "node:fs/promises";
import type { IncomingMessage } from "node:http";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PROJECT_ROOT } from "../support/build-fixture.js";
import {
  cli,
  freePort,
  projectRoot,
  removeTemporary,
  startCli,
  tempDir,
  waitForHttp,
  waitUntil,
} from "../cli/cli-process.js";
import { FETCHED_HEADING, startContentStub, STUB_TOKEN, stopContentStubs } from "../cli/stub-content.js";
import { LOCAL_AWS_ENV, startLocalCloudFront, startLocalS3 } from "../support/aws-local.js";
import { startHangingProxy } from "../support/hanging-proxy.js";
import { hangLimit } from "../support/time-limits.js";

const SECRET = "failures-test-secret";

interface Build {
  id: number;
  ok: boolean;
  error?: string;
}
interface Deploy {
  ok: boolean;
  timedOut: boolean;
  durationMs: number;
  error?: string;
}
interface Status {
  queue: { state: string; builds: Build[]; deploy: { pending: boolean; last: Deploy | null } };
}

/** Whether this process may mount a tmpfs in a mount namespace of its own (root, or the capability). */
function tmpfsAllowed(): { ok: true } | { ok: false; reason: string } {
  const probe = spawnSync("unshare", ["-m", "sh", "-c", 'mount -t tmpfs -o size=1m tmpfs "$0"', PROJECT_ROOT], {
    encoding: "utf8",
  });
  if (probe.error) return { ok: false, reason: `unshare cannot run: ${probe.error.message}` };
  if (probe.status !== 0) return { ok: false, reason: `unshare -m + mount tmpfs refused: ${probe.stderr.trim()}` };
  return { ok: true };
}
const tmpfs = tmpfsAllowed();
if (!tmpfs.ok) console.warn(`skipping the full-disk test: ${tmpfs.reason}`);

beforeAll(async () => {
  const lib = await stat(join(PROJECT_ROOT, "lib", "nzf-build.mjs")).catch(() => null);
  expect(lib, "lib/ is missing: run npm run compile").not.toBeNull();
});

afterAll(async () => {
  await stopContentStubs();
  await removeTemporary();
});

const post = (base: string, body: object) =>
  fetch(`${base}/webhook`, {
    method: "POST",
    headers: { "content-type": "application/json", "x-nzf-webhook-secret": SECRET },
    body: JSON.stringify(body),
  });

async function buildsDone(base: string, count: number): Promise<Build[]> {
  return waitUntil(
    async () => {
      const { queue } = (await (await fetch(`${base}/status`)).json()) as Status;
      return queue.builds.length >= count && queue.state === "idle" ? queue.builds : undefined;
    },
    `build ${count}`,
    hangLimit(30_000),
  );
}

/**
 * Where the small disk is mounted: under the output folder alone (the images are copied onto it and
 * fill it first), or under the project's .nzf-cache/ with the output inside it (images are hard
 * links, so the pages' own writes fill it while pages still render: the path that ended the server).
 */
const LAYOUTS = [
  { name: "the output folder", size: "3m", project: false },
  { name: "the build cache and the output folder", size: "4m", project: true },
];

describe.each(LAYOUTS)("a full disk under $name", (layout) => {
  it.skipIf(!tmpfs.ok)(
    "fails the build with a coded error, keeps the server up, removes the partial version, and recovers",
    async () => {
      const stub = await startContentStub();
      const root = await projectRoot();
      const disk = layout.project ? join(root, ".nzf-cache") : await tempDir("nzf-disk-");
      const out = layout.project ? join(disk, "out", "site") : join(disk, "site");
      // The image cache is a link into the machine's shared one: put it back on the new mount.
      const mount = layout.project
        ? `images=$(readlink "$0/images") && mount -t tmpfs -o size=${layout.size} tmpfs "$0" && ln -s "$images" "$0/images" && mkdir "$0/out"`
        : `mount -t tmpfs -o size=${layout.size} tmpfs "$0"`;
      const port = await freePort();
      // The small tmpfs is seen by the CLI alone (its own mount namespace).
      const hook = startCli(
        ["webhook", "--root", root, "--out", out, "--port", String(port)],
        {
          NZF_WEBHOOK_SECRET: SECRET,
          PRISMIC_REPOSITORY: "nzf-test",
          PRISMIC_ENDPOINT: stub.endpoint,
          PRISMIC_ACCESS_TOKEN: STUB_TOKEN,
        },
        ["unshare", "-m", "sh", "-c", `${mount} && exec "$@"`, disk],
      );
      const base = `http://127.0.0.1:${port}`;
      const inside = (command: string) =>
        spawnSync("nsenter", ["-t", String(hook.child.pid), "-m", "sh", "-c", command], { encoding: "utf8" });
      // Versions left in the versions folder (a failed build's tree is removed).
      const versions = () =>
        inside(`ls '${out}.versions'`)
          .stdout.split("\n")
          .filter((e) => /^v\d+-[a-z0-9]+$/.test(e));
      try {
        await waitForHttp(`${base}/health`, hook);
        const [first] = await buildsDone(base, 1);
        expect(first, hook.output()).toMatchObject({ ok: false });
        expect(first!.error).toMatch(/^\[(OUTPUT_WRITE_FAILED|CACHE_UNUSABLE)\].*ENOSPC/);
        const health = await fetch(`${base}/health`);
        expect(health.status).toBe(503);
        expect(((await health.json()) as { lastBuild: { errorCode: string } }).lastBuild.errorCode).toMatch(
          /^(OUTPUT_WRITE_FAILED|CACHE_UNUSABLE)$/,
        );
        expect(versions()).toEqual([]);
        // A second failing build, while the server keeps answering.
        expect((await post(base, { type: "api-update" })).status).toBe(200);
        const [second] = await buildsDone(base, 2);
        expect(second).toMatchObject({ ok: false });
        expect(versions()).toEqual([]);

        // Space is freed: the next webhook builds and publishes.
        expect(inside(`mount -o remount,size=64m '${disk}'`).status).toBe(0);
        expect((await post(base, { type: "api-update" })).status).toBe(200);
        const [third] = await buildsDone(base, 3);
        expect(third, hook.output()).toMatchObject({ ok: true });
        expect((await fetch(`${base}/health`)).status).toBe(200);
        expect(inside(`cat '${out}/index.html'`).stdout).toContain("<html");
        expect(versions()).toHaveLength(1);
      } finally {
        const run = await hook.stop();
        // No raw stack: every failure was a coded error.
        expect(run.output).not.toMatch(/^\s+at /m);
      }
    },
    hangLimit(60_000),
  );
});

/** A deploy that waits for its deadline, builds and deploys around it: a hang limit, not a speed check. */
const HUNG_UPLOAD_LIMIT = hangLimit(60_000);
/**
 * The webhook's deploy deadline, in seconds. The hung deploy waits all of it, so it is short; every
 * deploy the server makes must still fit in it under load, so none of them sends the whole site:
 * the bucket is filled first by `nzf-build --deploy` (the default deadline), and the content then
 * changes on the home page alone. (A deadline that also had to cover the first upload of every file
 * was 18 s, waited in full: at 6 s, load 20 on two cores abandoned the retry while uploading the assets.)
 */
const DEPLOY_DEADLINE_S = hangLimit(2_000) / 1000;
/** The home page's new heading: the one page whose upload is held. */
const CHANGED_HEADING = "Fetched again after the first deploy";

describe("a hung upload", () => {
  it(
    "is abandoned at the deploy's deadline, reported, and retried by the next webhook; the server answers throughout",
    async () => {
      const [stub, s3, cloudFront] = await Promise.all([startContentStub(), startLocalS3(), startLocalCloudFront()]);
      const proxy = await startHangingProxy(s3.endpoint);
      await s3.createBucket("nzf-hung");
      const port = await freePort();
      const out = join(await tempDir(), "site");
      const env = {
        ...LOCAL_AWS_ENV,
        PRISMIC_REPOSITORY: "nzf-test",
        PRISMIC_ENDPOINT: stub.endpoint,
        PRISMIC_ACCESS_TOKEN: STUB_TOKEN,
        NZF_S3_BUCKET: "nzf-hung",
        NZF_S3_ENDPOINT: proxy.endpoint,
        NZF_CLOUDFRONT_DISTRIBUTION_ID: "E2HUNGTEST01",
        ...cloudFront.env,
        NZF_ALLOW_MISSING_SETTINGS: "1",
      };
      const root = await projectRoot();
      // The bucket holds the site: the webhook's deploys send only what changes.
      const filled = await cli(["--fetch", "--deploy", "--root", root, "--out", out], env, hangLimit(30_000));
      expect(filled.code, filled.output).toBe(0);
      const invalidated = cloudFront.invalidations.length;
      const hook = startCli(["webhook", "--root", root, "--out", out, "--port", String(port)], {
        ...env,
        NZF_WEBHOOK_SECRET: SECRET,
        NZF_DEPLOY_TIMEOUT: String(DEPLOY_DEADLINE_S),
      });
      const base = `http://127.0.0.1:${port}`;
      const status = async () => ((await (await fetch(`${base}/status`)).json()) as Status).queue;
      const deployAfter = (build: number, what: string) =>
        waitUntil(
          async () => {
            const queue = await status();
            return queue.state === "idle" && queue.builds.length >= build
              ? (queue.deploy.last ?? undefined)
              : undefined;
          },
          what,
          hangLimit(30_000),
        ).catch(async (error: unknown) => {
          throw new Error(`${String(error)}: ${JSON.stringify(await status())}\n${hook.output()}`);
        });
      try {
        await waitForHttp(`${base}/health`, hook);
        // The start-up build deploys (nothing is known of the bucket), within the deadline: nothing to send.
        expect(await deployAfter(1, "the start-up deploy"), hook.output()).toMatchObject({ ok: true });
        // S3 accepts the changed page's upload and never answers it.
        const documents = stub
          .documentsAt(stub.ref)
          .map((d) =>
            d.type === "home_page" && d.lang === "en-au"
              ? (JSON.parse(JSON.stringify(d).replaceAll(FETCHED_HEADING, CHANGED_HEADING)) as typeof d)
              : d,
          );
        expect(JSON.stringify(documents)).toContain(CHANGED_HEADING);
        stub.setDocuments(documents);
        proxy.hang = (req: IncomingMessage) => req.method === "PUT" && /\.html(\?|$)/.test(req.url ?? "");
        expect((await post(base, { type: "api-update" })).status).toBe(200);
        const deploy = await deployAfter(2, "the hung deploy");
        expect(deploy, hook.output()).toMatchObject({ ok: false, timedOut: true });
        expect(deploy.error).toMatch(/^\[DEPLOY_TIMED_OUT\] .*abandoned while uploading \(pages;/);
        expect(proxy.held.filter((r) => r.startsWith("PUT /nzf-hung/index.html"))).not.toEqual([]);
        // Abandoned at its deadline, not long after it.
        expect(deploy.durationMs).toBeLessThan((DEPLOY_DEADLINE_S + 10) * 1000);
        expect((await status()).deploy.pending).toBe(true);
        const health = await fetch(`${base}/health`);
        expect(health.status).toBe(503);
        expect(((await health.json()) as { reason: string }).reason).toContain("DEPLOY_TIMED_OUT");
        expect(cloudFront.invalidations).toHaveLength(invalidated);

        // S3 answers again: the next webhook's build (nothing changed) deploys what is pending.
        proxy.hang = null;
        const homePuts = () => s3.requests.filter((r) => r === "PUT /nzf-hung/index.html").length;
        const homePutsBefore = homePuts();
        expect((await post(base, { type: "api-update" })).status).toBe(200);
        const retried = await deployAfter(3, "the retried deploy");
        expect(retried, hook.output()).toMatchObject({ ok: true });
        expect((await fetch(`${base}/health`)).status).toBe(200);
        expect(cloudFront.invalidations).toHaveLength(invalidated + 1);
        expect(homePuts()).toBe(homePutsBefore + 1);
      } finally {
        await hook.stop();
      }

      // `nzf-build deploy` on its own ends at its deadline too, with the code and what to do.
      proxy.hang = (req) => req.method === "PUT";
      await s3.stop();
      const fresh = await startLocalS3();
      await fresh.createBucket("nzf-hung");
      const again = await startHangingProxy(fresh.endpoint);
      again.hang = (req) => req.method === "PUT";
      try {
        const started = Date.now();
        const run = await cli(
          ["deploy", "--root", root, "--out", out, "--deploy-timeout", "2"],
          { ...env, NZF_S3_ENDPOINT: again.endpoint },
          hangLimit(20_000),
        );
        expect(run.code, run.output).not.toBe(0);
        expect(run.code).not.toBeNull();
        expect(run.output).toContain("[DEPLOY_TIMED_OUT]");
        expect(run.output).toContain("run nzf-build deploy again");
        // It ended itself at its own 2 s deadline, before the test's limit would have stopped it
        // (a hang limit scaled for a loaded machine, not a speed check).
        expect(Date.now() - started).toBeLessThan(hangLimit(20_000));
      } finally {
        await Promise.all([again.stop(), proxy.stop(), fresh.stop(), cloudFront.stop()]);
      }
    },
    HUNG_UPLOAD_LIMIT,
  );
});
