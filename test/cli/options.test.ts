/**
 * Acceptance tests of every setting declared in src/core/options.ts, through the compiled CLI in a
 * new process, each checked by its effect: the folder written, the port listened on, the endpoint
 * called, the value in the built pages. The coverage test at the end fails when a declared flag or
 * variable has no effect check here, so a setting cannot be added without one.
 *
 * Scenarios run concurrently (each with its own project folder, content stub and ports). The
 * refused values are resolved in this process as the CLI resolves them, and one refused flag and
 * one refused variable of each command also through the CLI in a new process (processCases).
 */
import { randomUUID } from "node:crypto";
import { existsSync } from "node:fs";
import { readFile, realpath, stat, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Command } from "commander";
import { flagName, OPTIONS, type CommandName, type OptionSpec } from "../../src/core/options.js";
import { addDeclaredOptions, givenFlags } from "../../src/cli/options.js";
import { resolveSettings, type Settings } from "../../src/cli/settings.js";
import { missingSettings, missingSettingsError } from "../../src/pipeline/missing-settings.js";
import { formatError, NzfError } from "../../src/core/errors.js";
import { PROJECT_ROOT } from "../support/build-fixture.js";
import {
  cli,
  freePort,
  projectRoot,
  removeTemporary,
  startCli,
  tempDir,
  type CliProcess,
  waitForHttp,
  waitUntil,
  type Env,
} from "./cli-process.js";
import {
  FETCHED_HEADING,
  SAMPLE_HEADING,
  startContentStub,
  startImageServerStub,
  STUB_TOKEN,
  stopContentStubs,
} from "./stub-content.js";
import { LOCAL_AWS_ENV, startLocalCloudFront, startLocalS3 } from "../support/aws-local.js";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { startSmtpCatcher } from "../../src/stand-ins/smtp/catcher.js";
import { startPayPalStandIn } from "../../src/stand-ins/paypal/server.js";
import { donationRequest } from "../support/donation-request.js";
import { hangLimit } from "../support/time-limits.js";

/** `<key> <flag or variable>`: one effect check of one way of giving a setting. */
type Proof = `${string} ${string}`;
const proven = new Set<Proof>();
/** A test that checks `proofs`, registered when the file is collected so the coverage test sees them all. */
function scenario(proofs: Proof[], name: string, fn: () => Promise<void>): void {
  for (const proof of proofs) proven.add(proof);
  it(name, fn, hangLimit(30_000));
}

const read = (file: string) => readFile(file, "utf8");
const canonical = (html: string) => /<link rel="canonical" href="([^"]+)">/.exec(html)?.[1];
/** The JSON props of the first island on a page that has `marker` in them. */
function islandProps(html: string, marker: string): Record<string, unknown> {
  for (const m of html.matchAll(/<script type="application\/json"[^>]*>(.*?)<\/script>/gs)) {
    if (m[1]!.includes(marker)) return JSON.parse(m[1]!) as Record<string, unknown>;
  }
  throw new Error(`no island props containing ${marker}`);
}

const POOL: Env = {
  NZF_COGNITO_USER_POOL_ID: "ap-southeast-2_CliTest42",
  NZF_COGNITO_CLIENT_ID: "clitestclient42",
};
const PAYMENTS: Env = {
  PAYMENTS_API_URL: "https://payments.cli-test.example/main",
  STRIPE_PUBLISHABLE_KEY: "pk_test_CliTest42",
  NZF_PAYPAL_CLIENT_ID: "AcliTest-PayPal_ClientId0123456789",
};

beforeAll(async () => {
  // The CLI runs lib/, compiled from src/ by `npm run compile` (and by `npm test` first).
  const lib = await stat(join(PROJECT_ROOT, "lib", "nzf-build.mjs")).catch(() => null);
  expect(lib, "lib/ is missing: run npm run compile").not.toBeNull();
});

afterAll(async () => {
  await stopContentStubs();
  await removeTemporary();
});

describe.concurrent("each setting, by its effect", () => {
  scenario(
    [
      "repository PRISMIC_REPOSITORY",
      "siteUrl SITE_URL",
      "out NZF_OUT_DIR",
      "paymentsApiUrl PAYMENTS_API_URL",
      "stripePublishableKey STRIPE_PUBLISHABLE_KEY",
      "paypalClientId NZF_PAYPAL_CLIENT_ID",
      "cognitoRegion NZF_COGNITO_REGION",
      "cognitoUserPoolId NZF_COGNITO_USER_POOL_ID",
      "cognitoClientId NZF_COGNITO_CLIENT_ID",
      "cognitoIdentityPoolId NZF_COGNITO_IDENTITY_POOL_ID",
      "cognitoEndpoint NZF_COGNITO_ENDPOINT",
      "cognitoHostedDomain NZF_COGNITO_HOSTED_DOMAIN",
      "cookieDomain NZF_COOKIE_DOMAIN",
      "cookieSameSite NZF_COOKIE_SAMESITE",
      "cookieSecure NZF_COOKIE_SECURE",
      "authFlow NZF_AUTH_FLOW",
      "accountApiUrl NZF_ACCOUNT_API_URL",
      "cognitoMfa NZF_COGNITO_MFA",
    ],
    "build from the environment: repository, site URL, output folder, accounts and payments",
    async () => {
      const root = await projectRoot();
      const out = join(await tempDir(), "from-env");
      const env: Env = {
        PRISMIC_REPOSITORY: "nzf-env",
        SITE_URL: "https://env.example",
        NZF_OUT_DIR: out,
        ...POOL,
        ...PAYMENTS,
        NZF_COGNITO_REGION: "eu-west-1",
        NZF_COGNITO_IDENTITY_POOL_ID: "eu-west-1:0000-1111",
        NZF_COGNITO_ENDPOINT: "http://127.0.0.1:9229/",
        NZF_COGNITO_HOSTED_DOMAIN: "auth.env.example",
        NZF_COOKIE_DOMAIN: "env.example",
        NZF_COOKIE_SAMESITE: "strict",
        NZF_COOKIE_SECURE: "false",
        NZF_AUTH_FLOW: "USER_PASSWORD_AUTH",
        NZF_ACCOUNT_API_URL: "https://account.env.example/graphql",
        NZF_COGNITO_MFA: "optional",
      };
      const run = await cli(["--root", root], env);
      expect(run.code, run.output).toBe(0);
      expect(canonical(await read(join(out, "index.html")))).toBe("https://env.example/");
      expect(await read(join(out, "_preview", "preview.js"))).toContain('"repositoryName":"nzf-env"');
      const account = islandProps(await read(join(out, "account", "index.html")), POOL.NZF_COGNITO_USER_POOL_ID!);
      expect(account.auth).toEqual({
        region: "eu-west-1",
        userPoolId: POOL.NZF_COGNITO_USER_POOL_ID,
        userPoolClientId: POOL.NZF_COGNITO_CLIENT_ID,
        identityPoolId: "eu-west-1:0000-1111",
        userPoolEndpoint: "http://127.0.0.1:9229/",
        hostedDomain: "auth.env.example",
        cookieDomain: "env.example",
        sameSite: "strict",
        secure: false,
        authFlowType: "USER_PASSWORD_AUTH",
        accountApiUrl: "https://account.env.example/graphql",
        mfa: "optional",
      });
      // The page may call the account API: its origin is in the CSP's connect-src.
      expect(await read(join(out, "_headers"))).toMatch(/connect-src [^\n]*https:\/\/account\.env\.example/);
      // And the hosted sign-in's token endpoint.
      expect(await read(join(out, "_headers"))).toMatch(/connect-src [^\n]*https:\/\/auth\.env\.example/);
      const pay = islandProps(await read(join(out, "pay", "zakat", "index.html")), PAYMENTS.PAYMENTS_API_URL!);
      expect(pay.payments).toEqual({
        apiUrl: PAYMENTS.PAYMENTS_API_URL,
        publishableKey: PAYMENTS.STRIPE_PUBLISHABLE_KEY,
        paypalClientId: PAYMENTS.NZF_PAYPAL_CLIENT_ID,
      });
      // PayPal offered: its hosts join the policy (and only then; test/site-files/csp.test.ts).
      expect(await read(join(out, "_headers"))).toContain("https://*.paypal.com https://*.paypalobjects.com");
    },
  );

  scenario(
    ["endpoint --endpoint", "contentDir --content-dir", "accessToken PRISMIC_ACCESS_TOKEN"],
    "fetch with flags after `fetch`: --endpoint, --content-dir, PRISMIC_ACCESS_TOKEN; builds nothing",
    async () => {
      const stub = await startContentStub();
      const root = await projectRoot();
      const contentDir = join(await tempDir(), "content");
      const run = await cli(
        ["fetch", "--root", root, "--endpoint", stub.endpoint, "--repository", "nzf-test", "--content-dir", contentDir],
        { PRISMIC_ACCESS_TOKEN: STUB_TOKEN },
      );
      expect(run.code, run.output).toBe(0);
      expect(stub.requests.length).toBeGreaterThan(0);
      expect(stub.requests.every((r) => r.query.access_token === STUB_TOKEN && r.status === 200)).toBe(true);
      expect(await read(join(contentDir, "nzf-test", "snapshot.json"))).toContain(FETCHED_HEADING);
      expect(existsSync(join(root, "dist"))).toBe(false);
    },
  );

  // The other cases of SETTINGS_MISSING are read from builds made for other settings: allowed by
  // flag and by variable in CI (the --image-hosts scenario), everything set in CI (--fetch), the
  // sample in CI (--sample), outside CI one warning at the end (the unlisted image host).
  scenario(
    [],
    "with CI set, live content without payment and sign-in settings fails with SETTINGS_MISSING naming what is missing and what allows it; with payments given, sign-in alone is named",
    async () => {
      const stub = await startContentStub();
      const root = await projectRoot();
      const out = join(await tempDir(), "site");
      const refused = await cli(
        ["--fetch", "--root", root, "--out", out],
        {
          PRISMIC_ENDPOINT: stub.endpoint,
          PRISMIC_ACCESS_TOKEN: STUB_TOKEN,
          PRISMIC_REPOSITORY: "nzf-test",
          CI: "true",
        },
        hangLimit(20_000),
      );
      expect(refused.code, refused.output).toBe(1);
      expect(refused.output).toContain("[SETTINGS_MISSING]");
      for (const name of [
        "payments",
        "PAYMENTS_API_URL",
        "sign-in",
        "NZF_COGNITO_USER_POOL_ID",
        "--allow-missing-settings",
      ])
        expect(refused.output).toContain(name);
      expect(existsSync(join(out, "index.html"))).toBe(false);
      // Payments given, sign-in missing: what the build is refused for, from the settings as the CLI
      // resolves them (the refusal itself is the run above), names sign-in alone.
      const { publicConfig } = resolveInProcess([], [], { ...PAYMENTS }, root) as Settings;
      const half = formatError(missingSettingsError(missingSettings(publicConfig!)));
      expect(half).toMatch(/\[SETTINGS_MISSING\] This build of live content has no sign-in/);
      expect(half).not.toContain("no payments");
    },
  );

  scenario(
    ["fetch --fetch", "endpoint PRISMIC_ENDPOINT", "sample --sample"],
    "--fetch from PRISMIC_ENDPOINT into the project folder's defaults, then --sample (given before `build`)",
    async () => {
      const stub = await startContentStub();
      const root = await projectRoot();
      const env = { PRISMIC_ENDPOINT: stub.endpoint, PRISMIC_ACCESS_TOKEN: STUB_TOKEN, CI: "true" };
      // Live content in CI with the payment and sign-in settings all set: built, no word about them.
      const fetched = await cli(["--fetch", "--root", root, "--repository", "nzf-test"], {
        ...env,
        ...PAYMENTS,
        ...POOL,
      });
      expect(fetched.code, fetched.output).toBe(0);
      expect(fetched.output).not.toContain("SETTINGS_MISSING");
      expect(stub.requests.length).toBeGreaterThan(0);
      // --root: the default content and output folders are in the project folder.
      expect(existsSync(join(root, "content-cache", "nzf-test", "snapshot.json"))).toBe(true);
      expect(await read(join(root, "dist", "index.html"))).toContain(FETCHED_HEADING);

      const out = join(await tempDir(), "sample");
      const sample = await cli(["--root", root, "--out", out, "--sample", "build", "--repository", "nzf-test"], env);
      // The bundled sample, in CI without those settings, is allowed.
      expect(sample.code, sample.output).toBe(0);
      expect(sample.output).not.toContain("SETTINGS_MISSING");
      const home = await read(join(out, "index.html"));
      expect(home).toContain(SAMPLE_HEADING);
      expect(home).not.toContain(FETCHED_HEADING);
    },
  );

  scenario(
    ["watch --watch", "watchPort --port"],
    "--watch --port (before and after `build`) serves the site with the accounts settings",
    async () => {
      const root = await projectRoot();
      const port = await freePort();
      const out = join(await tempDir(), "watched");
      const watch = startCli(["--port", String(port), "--root", root, "build", "--watch", "--out", out], {
        ...POOL,
        ...PAYMENTS,
      });
      try {
        const page = await waitForHttp(`http://127.0.0.1:${port}/account/`, watch, hangLimit(15_000));
        expect(page.status).toBe(200);
        const html = await page.text();
        expect(html).toContain(POOL.NZF_COGNITO_USER_POOL_ID);
        expect(existsSync(join(out, "index.html"))).toBe(true);
      } finally {
        await watch.stop();
      }
    },
  );

  scenario(["previewPort --port"], "preview --port serves the folder given with --out on that port", async () => {
    const out = await tempDir();
    await writeFile(join(out, "index.html"), "<!doctype html><title>previewed</title>");
    const port = await freePort();
    const preview = startCli(["preview", "--out", out, "--port", String(port)]);
    try {
      const page = await waitForHttp(`http://127.0.0.1:${port}/`, preview);
      expect(page.status).toBe(200);
      expect(await page.text()).toContain("previewed");
    } finally {
      await preview.stop();
    }
  });

  scenario(
    [
      "webhookPort --port",
      "webhookSecret --secret",
      "deployCommand --deploy-command",
      "deployTimeout --deploy-timeout",
      "deployEnv --deploy-env",
    ],
    "webhook with flags before and after `webhook`: port, secret, repository, deploy command, timeout and environment",
    async () => {
      const stub = await startContentStub();
      const root = await projectRoot();
      const port = await freePort();
      const dir = await tempDir();
      const out = join(dir, "site");
      const marker = join(dir, "deployed");
      const args = [
        "--root",
        root,
        "--port",
        String(port),
        "webhook",
        "--secret",
        "s3cret",
        "--endpoint",
        stub.endpoint,
        "--repository",
        "nzf-test",
        "--out",
        out,
      ];
      args.push(
        "--site-url",
        "https://hook.example",
        "--deploy-command",
        `pwd > '${marker}.folder' && env > '${marker}' && sleep 20`,
        "--deploy-timeout",
        "1",
        "--deploy-env",
        "PRISMIC_ACCESS_TOKEN",
      );
      const hook = startCli(args, { PRISMIC_ACCESS_TOKEN: STUB_TOKEN, ...POOL });
      try {
        const base = `http://127.0.0.1:${port}`;
        expect((await waitForHttp(`${base}/health`, hook)).status).toBe(200);
        const post = (body: object) =>
          fetch(`${base}/webhook`, {
            method: "POST",
            headers: { "content-type": "application/json" },
            body: JSON.stringify(body),
          });
        expect((await post({ type: "test-trigger", secret: "wrong" })).status).toBe(401);
        expect((await post({ type: "test-trigger", secret: "s3cret" })).status).toBe(200);
        expect((await post({ type: "test-trigger", secret: "s3cret", domain: "another-repo" })).status).toBe(422);
        // The start-up build, then the deploy, stopped after one second instead of ten minutes.
        const deploy = await waitUntil(async () => {
          const status = (await (await fetch(`${base}/status`)).json()) as {
            queue: { deploy: { last: { timedOut: boolean; durationMs: number } | null } };
          };
          return status.queue.deploy.last ?? undefined;
        }, "the deploy after the start-up build");
        expect(deploy.timedOut).toBe(true);
        expect(deploy.durationMs).toBeLessThan(hangLimit(8000));
        // --deploy-env let the named secret through to the deploy command.
        expect(await read(marker)).toContain(`PRISMIC_ACCESS_TOKEN=${STUB_TOKEN}`);
        // It ran in the project folder (--root), not the folder the CLI was started from.
        expect((await read(`${marker}.folder`)).trim()).toBe(await realpath(root));
        // The build used the settings given to the webhook command: site URL, output folder, accounts.
        expect(canonical(await read(join(out, "index.html")))).toBe("https://hook.example/");
        expect(await read(join(out, "account", "index.html"))).toContain(POOL.NZF_COGNITO_USER_POOL_ID);
      } finally {
        await hook.stop();
      }
    },
  );

  scenario(
    [
      "webhookPort NZF_WEBHOOK_PORT",
      "webhookSecret NZF_WEBHOOK_SECRET",
      "deployCommand NZF_DEPLOY_COMMAND",
      "deployTimeout NZF_DEPLOY_TIMEOUT",
      "deployEnv NZF_DEPLOY_ENV",
    ],
    "webhook from the environment: NZF_WEBHOOK_PORT, NZF_WEBHOOK_SECRET, NZF_DEPLOY_COMMAND, NZF_DEPLOY_TIMEOUT, NZF_DEPLOY_ENV",
    async () => {
      const stub = await startContentStub();
      const root = await projectRoot();
      const port = await freePort();
      const dir = await tempDir();
      const marker = join(dir, "deployed");
      const hook = startCli(["webhook", "--root", root], {
        NZF_WEBHOOK_PORT: String(port),
        NZF_WEBHOOK_SECRET: "env-secret",
        NZF_DEPLOY_COMMAND: `env > '${marker}' && sleep 20`,
        NZF_DEPLOY_TIMEOUT: "1",
        NZF_DEPLOY_ENV: "AWS_SECRET_ACCESS_KEY",
        AWS_SECRET_ACCESS_KEY: "fake-aws-secret-for-the-test",
        NZF_OUT_DIR: join(dir, "site"),
        PRISMIC_REPOSITORY: "nzf-test",
        PRISMIC_ENDPOINT: stub.endpoint,
        PRISMIC_ACCESS_TOKEN: STUB_TOKEN,
      });
      try {
        const base = `http://127.0.0.1:${port}`;
        await waitForHttp(`${base}/health`, hook);
        const post = (secret: string) =>
          fetch(`${base}/webhook`, {
            method: "POST",
            headers: { "content-type": "application/json" },
            body: JSON.stringify({ type: "test-trigger", secret }),
          });
        expect((await post("wrong")).status).toBe(401);
        expect((await post("env-secret")).status).toBe(200);
        const deploy = await waitUntil(async () => {
          const status = (await (await fetch(`${base}/status`)).json()) as {
            queue: { deploy: { last: { timedOut: boolean; durationMs: number } | null } };
          };
          return status.queue.deploy.last ?? undefined;
        }, "the deploy after the start-up build");
        expect(deploy).toMatchObject({ timedOut: true });
        expect(deploy.durationMs).toBeLessThan(hangLimit(8000));
        // Only the variable NZF_DEPLOY_ENV names reaches the deploy command; the Prismic token does not.
        const deployEnv = await read(marker);
        expect(deployEnv).toContain("AWS_SECRET_ACCESS_KEY=fake-aws-secret-for-the-test");
        expect(deployEnv).not.toContain("PRISMIC_ACCESS_TOKEN");
        expect(deployEnv).not.toContain("env-secret");
      } finally {
        await hook.stop();
      }
    },
  );

  scenario(
    [
      "root --root",
      "out --out",
      "siteUrl --site-url",
      "repository --repository",
      "verbose --verbose",
      "deploy --deploy",
      "bucket --bucket",
      "distribution --distribution",
      "s3Endpoint --s3-endpoint",
      "dryRun --dry-run",
      "bucket NZF_S3_BUCKET",
      "distribution NZF_CLOUDFRONT_DISTRIBUTION_ID",
      "s3Endpoint NZF_S3_ENDPOINT",
      "awsRegion AWS_REGION",
    ],
    "build with flags after `build` (--root, --out, --site-url, --repository, --verbose) and --deploy uploads to the bucket and invalidates the distribution given; deploy --dry-run reads the bucket from the environment",
    async () => {
      const [s3, cloudFront] = await Promise.all([startLocalS3(), startLocalCloudFront()]);
      try {
        await s3.createBucket("nzf-cli-deploy");
        const root = await projectRoot();
        const out = join(await tempDir(), "site");
        const aws = { ...LOCAL_AWS_ENV, ...cloudFront.env };
        const run = await cli(
          [
            "build",
            "--root",
            root,
            "--out",
            out,
            "--deploy",
            "--bucket",
            "nzf-cli-deploy",
            "--distribution",
            "E2CLIFLAGS01",
            "--s3-endpoint",
            s3.endpoint,
            "--site-url",
            "https://flags.example",
            "--repository",
            "nzf-flags",
            "--verbose",
          ],
          aws,
          hangLimit(27_000),
        );
        expect(run.code, run.output).toBe(0);
        // --site-url: the canonical links; --repository: the preview script's repository.
        expect(canonical(await read(join(out, "index.html")))).toBe("https://flags.example/");
        expect(await read(join(out, "_preview", "preview.js"))).toContain('"repositoryName":"nzf-flags"');
        // --root: the work folder is made in the project folder given; --out: nothing in its dist/.
        expect(existsSync(join(root, ".nzf-cache", "last-build.json"))).toBe(true);
        expect(existsSync(join(root, "dist"))).toBe(false);
        // --verbose: stage timings are debug lines, shown only with it.
        expect(run.output).toMatch(/^build\s+templates\s+\d/m);
        // --deploy, --bucket, --s3-endpoint, --distribution: uploaded there, invalidated there.
        expect(s3.requests).toContain("PUT /nzf-cli-deploy/index.html");
        expect(cloudFront.invalidations.map((i) => i.distribution)).toEqual(["E2CLIFLAGS01"]);

        const uploads = s3.requests.filter((r) => r.startsWith("PUT")).length;
        const plan = await cli(["deploy", "--root", root, "--out", out, "--dry-run"], {
          ...aws,
          NZF_S3_BUCKET: "nzf-cli-deploy",
          NZF_CLOUDFRONT_DISTRIBUTION_ID: "E2CLIENV0001",
          NZF_S3_ENDPOINT: s3.endpoint,
          AWS_REGION: "eu-west-1",
        });
        expect(plan.code, plan.output).toBe(0);
        // It read the bucket the first run filled: everything is kept.
        expect(plan.output).toMatch(/would upload 0 files, keep [1-9]\d*, delete 0/);
        expect(plan.output).toContain("the plan for s3://nzf-cli-deploy (eu-west-1)");
        expect(plan.output).toContain("invalidate E2CLIENV0001: nothing");
        expect(s3.requests.filter((r) => r.startsWith("PUT")).length).toBe(uploads);
        expect(cloudFront.invalidations).toHaveLength(1);
      } finally {
        await Promise.all([s3.stop(), cloudFront.stop()]);
      }
    },
  );

  scenario(
    ["webhookPort PORT"],
    "webhook with NZF_S3_BUCKET deploys each published build in-process (nzf-build deploy), shown on /status; it listens on PORT when NZF_WEBHOOK_PORT is not set",
    async () => {
      const [stub, s3] = await Promise.all([startContentStub(), startLocalS3()]);
      await s3.createBucket("nzf-cli-hook");
      const port = await freePort();
      const hook = startCli(["webhook", "--root", await projectRoot(), "--out", join(await tempDir(), "site")], {
        ...LOCAL_AWS_ENV,
        PORT: String(port),
        NZF_WEBHOOK_SECRET: "s",
        PRISMIC_REPOSITORY: "nzf-test",
        PRISMIC_ENDPOINT: stub.endpoint,
        PRISMIC_ACCESS_TOKEN: STUB_TOKEN,
        NZF_S3_BUCKET: "nzf-cli-hook",
        NZF_S3_ENDPOINT: s3.endpoint,
      });
      try {
        const base = `http://127.0.0.1:${port}`;
        // PORT, with NZF_WEBHOOK_PORT and --port not set: the address the server answers on.
        expect((await waitForHttp(`${base}/health`, hook)).status).toBe(200);
        const deploy = await waitUntil(async () => {
          const status = (await (await fetch(`${base}/status`)).json()) as {
            queue: { deploy: { last: { ok: boolean; outputTail: string } | null } };
          };
          return status.queue.deploy.last ?? undefined;
        }, "the deploy after the start-up build");
        expect(deploy.ok, deploy.outputTail).toBe(true);
        // /status shows URLs as <url>.
        expect(deploy.outputTail).toMatch(/uploaded [1-9]\d* files \([\d.]+ MB\), kept 0/);
        expect(s3.requests).toContain("PUT /nzf-cli-hook/index.html");
      } finally {
        await hook.stop();
        await s3.stop();
      }
    },
  );

  scenario(
    [
      "imageHosts --image-hosts",
      "imageHosts NZF_IMAGE_HOSTS",
      "allowMissingSettings --allow-missing-settings",
      "allowMissingSettings NZF_ALLOW_MISSING_SETTINGS",
    ],
    "--image-hosts and NZF_IMAGE_HOSTS are where images may be downloaded from besides Prismic's CDN; --allow-missing-settings and NZF_ALLOW_MISSING_SETTINGS let live content without payment and sign-in settings build in CI; outside CI one warning at the end",
    async () => {
      const { stub, images } = await startImageServerStub();
      const host = new URL(images.url).host;
      const fetched = async (args: string[], env: Env = {}) => {
        const root = await projectRoot();
        const run = await cli(
          ["--fetch", "--root", root, "--repository", "nzf-hosts", "--endpoint", stub.endpoint, ...args],
          { PRISMIC_ACCESS_TOKEN: STUB_TOKEN, ...env },
        );
        return { run, about: await read(join(root, "dist", "about", "index.html")) };
      };
      // Live content without payment and sign-in settings: the two listed builds run in CI, one
      // allowed by --allow-missing-settings, the other by NZF_ALLOW_MISSING_SETTINGS; the unlisted
      // one outside CI.
      const [byFlag, byEnv, unlisted] = await Promise.all([
        fetched(["--image-hosts", `cdn.example.org, ${host}`, "--allow-missing-settings"], { CI: "true" }),
        fetched([], { NZF_IMAGE_HOSTS: host, CI: "true", NZF_ALLOW_MISSING_SETTINGS: "1" }),
        fetched([]),
      ]);
      for (const { run, about } of [byFlag, byEnv]) {
        // --image-hosts, NZF_IMAGE_HOSTS: the images were downloaded.
        expect(run.code, run.output).toBe(0);
        expect(run.output).not.toContain("IMAGE_REFUSED");
        expect(about).toMatch(/<img class="nzf-image" src="\/_images\/[0-9a-f]{16}-\d+w\.jpg"/);
        // --allow-missing-settings, NZF_ALLOW_MISSING_SETTINGS: built in CI, no word about the settings.
        expect(run.output).not.toContain("SETTINGS_MISSING");
      }
      // Outside CI: built, with one SETTINGS_MISSING warning after the build's last line.
      expect(unlisted.run.output.match(/\[SETTINGS_MISSING\]/g)).toHaveLength(1);
      const lines = unlisted.run.output.trim().split("\n");
      expect(lines.findIndex((l) => l.includes("[SETTINGS_MISSING]"))).toBeGreaterThan(
        lines.findIndex((l) => l.includes("Built ")),
      );
      // Unlisted, the local server is a loopback address like any other: refused, pictures left out.
      expect(unlisted.run.code, unlisted.run.output).toBe(0);
      expect(unlisted.run.output).toMatch(
        /\[IMAGE_REFUSED\] Image http:\/\/127\.0\.0\.1:\d+\/hero-about\.jpg was refused/,
      );
      expect(unlisted.about).not.toContain("nzf-image");
    },
  );

  // Tests listen on 127.0.0.1 only; an address that is not this machine's shows that the host
  // setting reaches the server (it fails to listen there, with a clear error), without listening
  // anywhere else. 192.0.2.1 is reserved for documentation (RFC 5737).
  scenario(
    ["webhookHost --host", "webhookHost NZF_WEBHOOK_HOST"],
    "webhook --host and NZF_WEBHOOK_HOST are the address listened on",
    async () => {
      const [byFlag, byEnv] = await Promise.all([
        cli(["webhook", "--secret", "s", "--port", "0", "--host", "192.0.2.1"]),
        cli(["webhook", "--secret", "s", "--port", "0"], { NZF_WEBHOOK_HOST: "192.0.2.1" }),
      ]);
      for (const run of [byFlag, byEnv]) {
        expect(run.code, run.output).toBe(1);
        expect(run.output).toContain("[CONFIG_INVALID] The webhook server could not listen on 192.0.2.1:0");
      }
    },
  );
});

/**
 * A value refused for each setting that validates, given by each of its flags and variables; null
 * for settings that accept any text (paths, commands) or are switches. `env` adds what the value
 * needs around it (a pool id is checked only with a client id).
 */
/**
 * `nzf-build api` in a new process, killed with SIGKILL after a gift and started again: the
 * donation, its status (set by the Stripe stand-in's signed webhook) and its idempotency record
 * are still there. The flags prove themselves on the first start, the variables on the second;
 * `afterStart` and `afterRestart` check more of each start's settings (before the gift, and before
 * the second start is stopped).
 */
async function giveAndRestart(
  firstArgs: string[],
  firstEnv: Env,
  secondArgs: string[],
  secondEnv: Env,
  base: string,
  checks: { afterStart?: (api: CliProcess) => Promise<void>; afterRestart?: (api: CliProcess) => Promise<void> } = {},
): Promise<void> {
  const { startStripeStandIn } = await import("../../src/stand-ins/stripe/index.js");
  const secret = "whsec_CliApiTest0123456789";
  const stripe = await startStripeStandIn({ webhookSecret: secret, publishableKey: "pk_test_CliApiTest42" });
  const stripeEnv = {
    STRIPE_SECRET_KEY: "sk_test_CliApiTest0123456789",
    STRIPE_WEBHOOK_SECRET: secret,
    STRIPE_API_BASE: stripe.url,
    NZF_API_ALLOWED_ORIGINS: "https://site.cli-test.example",
  };
  stripe.setWebhookUrl(`${base}/stripe/webhook`);
  let api = startCli(["api", ...firstArgs], { ...stripeEnv, ...firstEnv });
  try {
    await waitForHttp(`${base}/donations/none`, api, hangLimit(20_000));
    await checks.afterStart?.(api);
    // A new key each run: CI's PostgreSQL may keep an earlier run's record of a fixed one, and
    // replaying it would name a payment intent this run's Stripe stand-in never made.
    const key = randomUUID();
    const body = JSON.stringify({
      fund: "sadaqah",
      amountCents: 10_000,
      currency: "AUD",
      frequency: "once",
      anonymous: false,
      coverFees: false,
      donor: { firstName: "Aisha", lastName: "Rahman", email: "aisha@example.com", phone: "0412 345 678" },
    });
    const post = () =>
      fetch(`${base}/donations`, {
        method: "POST",
        headers: { "Content-Type": "application/json", "Idempotency-Key": key },
        body,
      });
    const created = await post();
    const text = await created.text();
    expect(created.status, text).toBe(201);
    const { donationId, clientSecret } = JSON.parse(text) as { donationId: string; clientSecret: string };
    const preflight = await fetch(`${base}/donations`, {
      method: "OPTIONS",
      headers: { Origin: "https://site.cli-test.example" },
    });
    expect(preflight.status).toBe(204);
    const confirmed = await fetch(`${stripe.url}/v1/payment_intents/${clientSecret.split("_secret_")[0]}/confirm`, {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({
        key: "pk_test_CliApiTest42",
        client_secret: clientSecret,
        payment_method: "pm_card_visa",
      }),
    });
    expect(confirmed.status).toBe(200);
    await stripe.settled();
    api.child.kill("SIGKILL");
    await api.exited;
    api = startCli(["api", ...secondArgs], { ...stripeEnv, ...secondEnv });
    const state = await waitForHttp(`${base}/donations/${donationId}`, api, hangLimit(20_000));
    expect(state.status).toBe(200);
    expect(((await state.json()) as { status: string }).status).toBe("succeeded");
    const replay = await post();
    expect(replay.headers.get("idempotent-replayed")).toBe("true");
    expect(await replay.text()).toBe(text);
    expect(api.output()).not.toContain("sk_test_CliApiTest");
    await checks.afterRestart?.(api);
  } finally {
    await api.stop();
    await stripe.stop();
  }
}

describe.concurrent("nzf-build api", () => {
  // Each start of the service is seconds of CPU, so one scenario's two starts prove most of its
  // settings: the flags, SES mail, PayPal and SITE_URL on the first (each shows in its own output:
  // SES's calls, PayPal's order and event, the line at start), the variables and SMTP mail, the
  // other transport, on the restart.
  scenario(
    [
      "apiPort --port",
      "apiHost --host",
      "dataDir --data-dir",
      "apiPort NZF_API_PORT",
      "apiHost NZF_API_HOST",
      "dataDir NZF_DATA_DIR",
      "stripeSecretKey STRIPE_SECRET_KEY",
      "stripeWebhookSecret STRIPE_WEBHOOK_SECRET",
      "stripeApiBase STRIPE_API_BASE",
      "apiAllowedOrigins NZF_API_ALLOWED_ORIGINS",
      "foundationName NZF_FOUNDATION_NAME",
      "foundationAbn NZF_FOUNDATION_ABN",
      "receiptFrom NZF_RECEIPT_FROM",
      "receiptContactEmail NZF_RECEIPT_CONTACT_EMAIL",
      "donorCareEmail NZF_DONOR_CARE_EMAIL",
      "mailTransport NZF_MAIL_TRANSPORT",
      "sesRegion NZF_SES_REGION",
      "sesEndpoint NZF_SES_ENDPOINT",
      "paypalClientSecret NZF_PAYPAL_CLIENT_SECRET",
      "paypalEnvironment NZF_PAYPAL_ENVIRONMENT",
      "paypalWebhookId NZF_PAYPAL_WEBHOOK_ID",
      "paypalApiBase NZF_PAYPAL_API_BASE",
      "apiSiteUrl SITE_URL",
      "smtpUrl NZF_SMTP_URL",
    ],
    "api on PGlite, made in a new data folder: SES mail, PayPal and SITE_URL; a gift paid by the signed webhook survives kill -9 and a restart, which sends its e-mails to NZF_SMTP_URL; live PayPal at a stand-in refused",
    async () => {
      const port = await freePort();
      const base = `http://127.0.0.1:${port}`;
      // The one start on a new data folder: the service makes and migrates its database there. The
      // restart then runs in a folder a service has run in before.
      const data = join(await tempDir(), "data");
      const [catcher, ses, paypal] = await Promise.all([
        startSmtpCatcher(),
        startSesStub(),
        startPayPalStandIn({ webhookUrl: `${base}/paypal/webhook`, webhookRetryDelaysMs: [50] }),
      ]);
      const paypalEnv: Env = {
        NZF_PAYPAL_CLIENT_ID: paypal.clientId,
        NZF_PAYPAL_CLIENT_SECRET: paypal.clientSecret,
        NZF_PAYPAL_ENVIRONMENT: "sandbox",
        NZF_PAYPAL_WEBHOOK_ID: paypal.webhookId,
        NZF_PAYPAL_API_BASE: paypal.url,
      };
      try {
        await giveAndRestart(
          ["--port", String(port), "--host", "127.0.0.1", "--data-dir", data],
          {
            ...FOUNDATION,
            NZF_MAIL_TRANSPORT: "ses",
            NZF_SES_REGION: "ap-southeast-1",
            NZF_SES_ENDPOINT: ses.url,
            AWS_ACCESS_KEY_ID: "AKIDEXAMPLE",
            AWS_SECRET_ACCESS_KEY: "not-a-real-secret",
            ...paypalEnv,
            SITE_URL: "https://site.cli-test.example",
          },
          [],
          {
            NZF_API_PORT: String(port),
            NZF_API_HOST: "127.0.0.1",
            NZF_DATA_DIR: data,
            ...FOUNDATION,
            NZF_MAIL_TRANSPORT: "smtp",
            NZF_SMTP_URL: catcher.smtpUrl,
          },
          base,
          {
            afterStart: (api) => checkSesAndPayPal(base, api, ses, paypal),
            afterRestart: async (api) => {
              expect(existsSync(join(data, "PG_VERSION")), "a database made in the new folder").toBe(true);
              await sendEnquiry(base, api);
              const mail = await catcher.waitFor((m) => m.to === "donorcare@nzf.org.au");
              expect(mail.subject).toMatch(/^Enquiry ENQ-[0-9A-F]{8}: A general question$/);
            },
          },
        );
      } finally {
        await Promise.all([catcher.stop(), ses.stop(), paypal.stop()]);
      }
      // NZF_PAYPAL_ENVIRONMENT live with the API base at a local stand-in: refused before it starts.
      const live = await cli(
        ["api", "--port", "0"],
        { ...paypalEnv, NZF_PAYPAL_ENVIRONMENT: "live" },
        hangLimit(10_000),
      );
      expect(live.code).toBe(1);
      expect(live.output).toContain("[CONFIG_INVALID] NZF_PAYPAL_API_BASE points live credentials at a local stand-in");
    },
  );
  scenario(
    ["databaseUrl DATABASE_URL"],
    "api on DATABASE_URL: PostgreSQL when there is one, refused when unreachable",
    async () => {
      const unreachable = await cli(
        ["api", "--port", "0"],
        { DATABASE_URL: "postgres://nobody:x@127.0.0.1:1/none" },
        hangLimit(20_000),
      );
      expect(unreachable.code).toBe(1);
      expect(unreachable.output).toContain("[API_DATABASE_FAILED]");
      expect(unreachable.output).not.toContain("nobody:x");
      const url = process.env.NZF_TEST_DATABASE_URL;
      if (!url) {
        console.info("nzf-build api on PostgreSQL skipped: NZF_TEST_DATABASE_URL is not set (.ci/run sets it).");
        return;
      }
      const port = await freePort();
      await giveAndRestart(
        ["--port", String(port)],
        { DATABASE_URL: url },
        ["--port", String(port)],
        { DATABASE_URL: url },
        `http://127.0.0.1:${port}`,
      );
    },
  );
});

/** The receipt settings the mail scenarios start the service with. */
const FOUNDATION: Env = {
  NZF_FOUNDATION_NAME: "National Zakat Foundation Australia",
  NZF_FOUNDATION_ABN: "51 824 753 556",
  NZF_RECEIPT_FROM: "National Zakat Foundation <receipts@nzf.org.au>",
  NZF_RECEIPT_CONTACT_EMAIL: "info@nzf.org.au",
  NZF_DONOR_CARE_EMAIL: "donorcare@nzf.org.au",
};

/** Sends one enquiry from aisha@example.com to the service at `base`. */
async function sendEnquiry(base: string, api: CliProcess): Promise<void> {
  const res = await fetch(`${base}/enquiries`, {
    method: "POST",
    headers: { "Content-Type": "application/json", "Idempotency-Key": randomUUID() },
    body: JSON.stringify({
      name: "Aisha Rahman",
      email: "aisha@example.com",
      topic: "general",
      message: "Salaam",
      website: "",
    }),
  });
  expect(res.status, api.output()).toBe(202);
}

/** SES's SendEmail as SES answers it: the test sees each signed call and its raw message. */
async function startSesStub() {
  const calls: { path: string; authorization: string; raw: string }[] = [];
  const ses = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = JSON.parse(Buffer.concat(chunks).toString("utf8")) as { Content?: { Raw?: { Data?: string } } };
    calls.push({
      path: req.url ?? "",
      authorization: String(req.headers.authorization ?? ""),
      // Quoted-printable's soft line breaks joined, so a line reads as written.
      raw: Buffer.from(body.Content?.Raw?.Data ?? "", "base64")
        .toString("utf8")
        .replace(/=\r?\n/g, ""),
    });
    res.writeHead(200, { "content-type": "application/json" });
    res.end(JSON.stringify({ MessageId: `ses-${calls.length}` }));
  });
  await new Promise<void>((done) => ses.listen(0, "127.0.0.1", done));
  return {
    calls,
    url: `http://127.0.0.1:${(ses.address() as AddressInfo).port}`,
    stop: () => new Promise((done) => ses.close(done)),
  };
}

/**
 * The first start's SES, PayPal and SITE_URL settings, before anything else is sent: the first two
 * e-mails through SES are the enquiry's.
 */
async function checkSesAndPayPal(
  base: string,
  api: CliProcess,
  ses: Awaited<ReturnType<typeof startSesStub>>,
  paypal: Awaited<ReturnType<typeof startPayPalStandIn>>,
): Promise<void> {
  const post = (path: string, body: unknown) =>
    fetch(`${base}${path}`, {
      method: "POST",
      headers: { "Content-Type": "application/json", "Idempotency-Key": randomUUID() },
      body: JSON.stringify(body),
    });
  // SITE_URL: donors come back from PayPal to its /account/ page (the service says so as it starts).
  expect(api.output()).toContain("donors return to https://site.cli-test.example/account/");

  // The mail settings: the enquiry's two e-mails go through SES (NZF_MAIL_TRANSPORT, NZF_SES_ENDPOINT)
  // in the region set (NZF_SES_REGION), from the sender set (NZF_RECEIPT_FROM), to donor care
  // (NZF_DONOR_CARE_EMAIL), answered at the contact address (NZF_RECEIPT_CONTACT_EMAIL), signed
  // with the name and ABN (NZF_FOUNDATION_NAME, NZF_FOUNDATION_ABN).
  await sendEnquiry(base, api);
  await waitUntil(async () => (ses.calls.length >= 2 ? true : undefined), "two SendEmail calls");
  const enquiryCalls = ses.calls.slice(0, 2);
  expect(enquiryCalls.map((c) => c.path)).toEqual(["/v2/email/outbound-emails", "/v2/email/outbound-emails"]);
  for (const call of enquiryCalls) expect(call.authorization).toContain("/ap-southeast-1/ses/aws4_request");
  const toCare = enquiryCalls.find((c) => /^To: donorcare@nzf\.org\.au/m.test(c.raw))!;
  const ack = enquiryCalls.find((c) => /^To: aisha@example\.com/m.test(c.raw))!;
  expect(toCare.raw).toMatch(/^From: National Zakat Foundation <receipts@nzf\.org\.au>/m);
  expect(toCare.raw).toMatch(/^Reply-To: aisha@example\.com/m);
  expect(ack.raw).toMatch(/^Reply-To: info@nzf\.org\.au/m);
  expect(ack.raw).toContain("National Zakat Foundation Australia (ABN 51 824 753 556)");

  // The PayPal settings: an order made through the SDK at NZF_PAYPAL_API_BASE (client id and
  // NZF_PAYPAL_CLIENT_SECRET, NZF_PAYPAL_ENVIRONMENT sandbox), captured, and paid only by PayPal's
  // event, which the service verified with NZF_PAYPAL_WEBHOOK_ID.
  const created = await post("/donations", donationRequest({ fund: "sadaqah", paymentMethod: "paypal" }));
  expect(created.status, api.output()).toBe(201);
  const { donationId } = (await created.json()) as { donationId: string };
  const order = await post(`/donations/${donationId}/paypal/order`, {});
  expect(order.status, api.output()).toBe(201);
  const { orderId } = (await order.json()) as { orderId: string };
  paypal.approveOrder(orderId);
  expect((await post(`/donations/${donationId}/paypal/capture`, { orderId })).status).toBe(200);
  await paypal.settled();
  const state = (await (await fetch(`${base}/donations/${donationId}`)).json()) as { status: string };
  expect(state.status).toBe("succeeded");
}

const INVALID: Record<string, { value: string; command?: string[]; env?: Env } | null> = {
  repository: { value: "ab" },
  endpoint: { value: "ftp://example.org/api/v2" },
  accessToken: null,
  fetch: null,
  sample: null,
  contentDir: null,
  imageHosts: { value: "cdn.example.org/images" },
  siteUrl: { value: "https://nzf.org.au?utm=1" },
  out: null,
  root: null,
  verbose: null,
  allowMissingSettings: null,
  cognitoRegion: { value: "mars", env: POOL },
  cognitoUserPoolId: { value: "not a pool id", env: { NZF_COGNITO_CLIENT_ID: "client1" } },
  cognitoClientId: { value: "bad client id!", env: { NZF_COGNITO_USER_POOL_ID: POOL.NZF_COGNITO_USER_POOL_ID! } },
  cognitoIdentityPoolId: { value: "no-colon", env: POOL },
  cognitoEndpoint: { value: "ftp:/cognito", env: POOL },
  cognitoHostedDomain: { value: "https://auth.example.org/login", env: POOL },
  cookieDomain: { value: "https://nzf.org.au/", env: POOL },
  cookieSameSite: { value: "sometimes", env: POOL },
  cookieSecure: null,
  authFlow: { value: "CUSTOM_AUTH", env: POOL },
  accountApiUrl: { value: "http://account.example.org/graphql", env: POOL },
  cognitoMfa: { value: "sometimes", env: POOL },
  paymentsApiUrl: { value: "http://payments.example.org", env: { STRIPE_PUBLISHABLE_KEY: "pk_test_abc" } },
  stripePublishableKey: {
    value: "sk_live_0123456789abcdef",
    env: { PAYMENTS_API_URL: "https://payments.example.org" },
  },
  paypalClientId: {
    value: "client id with spaces",
    env: { PAYMENTS_API_URL: "https://payments.example.org", STRIPE_PUBLISHABLE_KEY: "pk_test_abc" },
  },
  watch: null,
  watchPort: { value: "abc", command: ["--watch"] },
  previewPort: { value: "65536", command: ["preview"] },
  webhookPort: { value: "99999", command: ["webhook"], env: { NZF_WEBHOOK_SECRET: "s" } },
  webhookHost: null, // checked above: the address must be this machine's
  webhookSecret: null, // checked below: a missing secret
  deployCommand: null,
  deployTimeout: { value: "soon", command: ["webhook"], env: { NZF_WEBHOOK_SECRET: "s" } },
  deployEnv: null,
  deploy: null,
  dryRun: null,
  bucket: { value: "Not_A_Bucket", command: ["deploy"] },
  distribution: { value: "not-an-id", command: ["deploy"], env: { NZF_S3_BUCKET: "nzf-site" } },
  awsRegion: { value: "mars", command: ["deploy"], env: { NZF_S3_BUCKET: "nzf-site" } },
  s3Endpoint: { value: "ftp://s3.example", command: ["deploy"], env: { NZF_S3_BUCKET: "nzf-site" } },
  apiPort: { value: "99999", command: ["api"] },
  apiHost: null, // an address of another machine fails at listen, as the webhook's
  dataDir: null,
  databaseUrl: { value: "mysql://db.example/nzf", command: ["api"] },
  stripeSecretKey: { value: "pk_test_notasecret", command: ["api"], env: { STRIPE_WEBHOOK_SECRET: "whsec_x" } },
  stripeWebhookSecret: { value: "not-a-whsec", command: ["api"], env: { STRIPE_SECRET_KEY: "sk_test_CliApi42" } },
  stripeApiBase: {
    value: "ftp://stripe.example",
    command: ["api"],
    env: { STRIPE_SECRET_KEY: "sk_test_CliApi42", STRIPE_WEBHOOK_SECRET: "whsec_CliApi42" },
  },
  apiAllowedOrigins: { value: "*", command: ["api"] },
  foundationName: null, // any name; without the ABN no receipt is issued
  foundationAbn: { value: "41 600 273 915", command: ["api"] },
  receiptFrom: { value: "receipts at nzf", command: ["api"] },
  receiptContactEmail: { value: "info-at-nzf.org.au", command: ["api"] },
  donorCareEmail: { value: "donorcare", command: ["api"] },
  mailTransport: { value: "pigeon", command: ["api"] },
  smtpUrl: { value: "http://mail.example", command: ["api"], env: { ...FOUNDATION, NZF_MAIL_TRANSPORT: "smtp" } },
  sesRegion: { value: "mars", command: ["api"], env: { ...FOUNDATION, NZF_MAIL_TRANSPORT: "ses" } },
  sesEndpoint: { value: "ftp://ses.example", command: ["api"], env: { ...FOUNDATION, NZF_MAIL_TRANSPORT: "ses" } },
  paypalClientSecret: null, // any secret; PayPal says whether it is right
  paypalEnvironment: {
    value: "production",
    command: ["api"],
    env: { NZF_PAYPAL_CLIENT_ID: "AcliTest42", NZF_PAYPAL_CLIENT_SECRET: "s" },
  },
  paypalWebhookId: {
    value: "not an id!",
    command: ["api"],
    env: { NZF_PAYPAL_CLIENT_ID: "AcliTest42", NZF_PAYPAL_CLIENT_SECRET: "s" },
  },
  apiSiteUrl: { value: "https://nzf.org.au/donate", command: ["api"] },
  paypalApiBase: {
    value: "https://api-m.paypal.com",
    command: ["api"],
    env: { NZF_PAYPAL_CLIENT_ID: "AcliTest42", NZF_PAYPAL_CLIENT_SECRET: "s", NZF_PAYPAL_WEBHOOK_ID: "WH42" },
  },
};

const invalidCases = (OPTIONS as readonly OptionSpec[]).flatMap((spec) => {
  const bad = INVALID[spec.key];
  if (!bad) return [];
  const flag = flagName(spec);
  const ways = [
    ...(flag ? [{ source: flag, args: [flag, bad.value], env: {} as Env }] : []),
    ...(spec.env ?? []).map((name) => ({ source: name, args: [] as string[], env: { [name]: bad.value } })),
  ];
  return ways.map((way) => ({ key: spec.key, ...way, command: bad.command ?? [], extraEnv: bad.env ?? {} }));
});

/**
 * The settings a command line and an environment give, as the CLI resolves them (src/cli/main.ts:
 * the command's declared flags parsed by commander, then resolveSettings), in this process. The
 * refusals are all made there, before anything runs; the process around them is checked by a
 * few of them run through the compiled CLI (processCases).
 */
function resolveInProcess(command: string[], args: string[], env: Env, root: string): unknown {
  // A command word, or the flags of the default command (`--watch`).
  const verb = (command.find((word) => !word.startsWith("-")) ?? "build") as CommandName;
  const parser = addDeclaredOptions(
    new Command("nzf-build")
      .exitOverride()
      .configureOutput({ outputError: () => {} })
      .allowExcessArguments(true),
    verb === "build" ? ["build", "watch"] : [verb],
    { acceptOthersHidden: true },
  );
  parser.parse([...command.filter((word) => word.startsWith("-")), "--root", root, ...args], { from: "user" });
  const flags = givenFlags(parser, parser);
  return resolveSettings(verb === "build" && flags.watch ? "watch" : verb, flags, env, PROJECT_ROOT);
}

/** One refused flag and one refused variable of each command, through the compiled CLI in a new process. */
const processCases = invalidCases.filter(
  (c, i) =>
    invalidCases.findIndex(
      (other) => other.command.join() === c.command.join() && other.source.startsWith("-") === c.source.startsWith("-"),
    ) === i,
);

describe.concurrent("a refused value stops the command before anything is built, naming where it came from", () => {
  it.each(processCases)("$key from $source, in a new process", async ({ source, args, env, command, extraEnv }) => {
    const root = await projectRoot();
    const run = await cli([...command, "--root", root, ...args], { ...extraEnv, ...env }, hangLimit(5_000));
    expect(run.code, run.output).toBe(1);
    expect(run.output).toMatch(/^\[(CONFIG_INVALID|REPOSITORY_NAME_INVALID)\] /m);
    expect(run.output).toContain(`(${source})`);
    expect(existsSync(join(root, "dist")), "nothing is built").toBe(false);
  });

  it.each(invalidCases)("$key from $source", async ({ source, args, env, command, extraEnv }) => {
    const root = await tempDir("nzf-cli-settings-");
    let refused: unknown;
    try {
      resolveInProcess(command, args, { ...extraEnv, ...env }, root);
    } catch (error) {
      refused = error;
    }
    expect(refused, "refused before anything runs").toBeInstanceOf(NzfError);
    const printed = formatError(refused);
    expect(printed).toMatch(/^\[(CONFIG_INVALID|REPOSITORY_NAME_INVALID)\] /m);
    expect(printed).toContain(`(${source})`);
  });

  it("the webhook server does not start without a secret", async () => {
    const run = await cli(["webhook", "--port", "0"]);
    expect(run.code).toBe(1);
    expect(run.output).toContain("[CONFIG_INVALID] The webhook server needs a secret");
  });

  it("a word that is no command is named, with the nearest command", async () => {
    const [typo, other] = await Promise.all([cli(["biuld"]), cli(["publish"])]);
    expect(typo.code).toBe(1);
    expect(typo.output).toContain('[CONFIG_INVALID] "biuld" is not an nzf-build command: did you mean build?');
    expect(other.code).toBe(1);
    expect(other.output).toContain('"publish" is not an nzf-build command.');
    expect(other.output).toContain("The commands are build, preview, fetch, webhook, deploy, api, help");
  });

  it("help for a word that is no command names it, rather than printing the general help", async () => {
    const [typo, known] = await Promise.all([cli(["help", "biuld"]), cli(["help", "fetch"])]);
    expect(typo.code).toBe(1);
    expect(typo.output).toContain('[CONFIG_INVALID] "biuld" is not an nzf-build command: did you mean build?');
    expect(typo.output).not.toContain("Usage:");
    expect(known.code).toBe(0);
    expect(known.output).toContain("Usage: nzf-build fetch [options]");
  });

  it("a flag for another command is refused, before or after the subcommand", async () => {
    const [before, after, plain] = await Promise.all([
      cli(["--out", "x", "fetch"]),
      cli(["fetch", "--out", "x"]),
      cli(["--port", "4000"]),
    ]);
    expect(before.code).toBe(1);
    expect(before.output).toContain("[CONFIG_INVALID] --out does not apply to nzf-build fetch");
    expect(after.code).toBe(1);
    expect(after.output).toContain("[CONFIG_INVALID] --out does not apply to nzf-build fetch");
    expect(after.output).not.toContain("Did you mean");
    expect(plain.code).toBe(1);
    expect(plain.output).toContain("[CONFIG_INVALID] --port does not apply to nzf-build;");
  });
});

describe.concurrent("version and help", () => {
  it("-V and --version print package.json's version", async () => {
    const { version } = JSON.parse(await read(join(PROJECT_ROOT, "package.json"))) as { version: string };
    const [short, long] = await Promise.all([cli(["-V"]), cli(["--version"])]);
    expect(short).toEqual({ code: 0, output: `${version}\n` });
    expect(long).toEqual({ code: 0, output: `${version}\n` });
  });

  it("help [command] lists each command's flags and variables from the declaration", async () => {
    const commands = { build: ["build", "watch"], fetch: ["fetch"], webhook: ["webhook"] } as const;
    await Promise.all(
      Object.entries(commands).map(async ([command, names]) => {
        const run = await cli(["help", command]);
        expect(run.code).toBe(0);
        expect(run.output).toContain(`Usage: nzf-build ${command}`);
        for (const spec of OPTIONS as readonly OptionSpec[]) {
          if (!spec.commands.some((c) => (names as readonly string[]).includes(c))) continue;
          for (const name of [flagName(spec), ...(spec.env ?? [])].filter(Boolean))
            expect(run.output, `${command}: ${name}`).toContain(name!);
        }
      }),
    );
  });
});

describe("coverage", () => {
  it("every declared flag and variable has an effect check above", () => {
    const expected = (OPTIONS as readonly OptionSpec[]).flatMap((spec) =>
      [flagName(spec), ...(spec.env ?? [])].filter(Boolean).map((source) => `${spec.key} ${source}` as Proof),
    );
    expect(
      expected.filter((p) => !proven.has(p)),
      "declared but not checked",
    ).toEqual([]);
    expect(
      [...proven].filter((p) => !expected.includes(p)),
      "checked but not declared",
    ).toEqual([]);
  });

  it("every declared setting says whether and how it can be refused", () => {
    expect(Object.keys(INVALID).sort()).toEqual((OPTIONS as readonly OptionSpec[]).map((s) => s.key).sort());
  });
});
