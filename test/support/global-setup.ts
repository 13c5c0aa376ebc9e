/**
 * Runs once before any test file: finds (or unpacks) Chromium and hands its path to every test
 * worker in CHROMIUM_PATH, makes the migrated database dump the payments service's tests load
 * (NZF_TEST_PGLITE_DUMP; kept in the temporary folder, so only the first run pays for it), and an
 * empty folder for this run's shared sample site (NZF_TEST_SHARED_SITE, test/support/shared-site.ts),
 * removed when the run ends, as is the folder of the bundles the run's builds share
 * (NZF_TEST_SHARED_BUNDLES, test/support/shared-bundles.ts; inside the project's .nzf-cache, so
 * compiled modules resolve packages from node_modules), and of the processed images they share
 * (NZF_TEST_SHARED_IMAGES, test/support/shared-images.ts), so no test reads the developer's. Also the run's one cognito-local (NZF_TEST_COGNITO): one pool and app
 * client that the shared account build (shared-site.ts, "account") names; each test file that signs
 * in on that build makes its own users in it, behind a bridge of its own (cognito-local.ts
 * joinCognitoLocal). Stopped when the run ends.
 */
import { mkdir, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { resolveChromium } from "./chromium-path.js";
import { type RunCognito, startCognitoLocal } from "./cognito-local.js";
import { makeMigratedDump } from "./api-db.js";

/** The project folder (./build-fixture.ts says the same; not imported here, it loads the whole build). */
const PROJECT_ROOT = resolve(import.meta.dirname, "../..");

type Teardown = () => Promise<void>;

/**
 * Vitest calls this once per project (vitest.config.ts has two) in the same process, and calls each
 * teardown at the end of the run. The work is done by the first call only; the second gets the same
 * teardown, which runs once.
 */
const RUN_SETUP = Symbol.for("nzf-test-run-setup");
export default function setup(): Promise<Teardown> {
  const holder = globalThis as { [RUN_SETUP]?: Promise<Teardown> };
  holder[RUN_SETUP] ??= setUpRun().then((teardown) => {
    let done: Promise<void> | undefined;
    return () => (done ??= teardown());
  });
  return holder[RUN_SETUP];
}

async function setUpRun(): Promise<Teardown> {
  const [chromium, dump, sharedSite, cognito, sharedBundles, sharedImages] = await Promise.all([
    resolveChromium(),
    makeMigratedDump(),
    mkdtemp(join(tmpdir(), "nzf-shared-site-")),
    startCognitoLocal(),
    mkdir(join(PROJECT_ROOT, ".nzf-cache"), { recursive: true }).then(() =>
      mkdtemp(join(PROJECT_ROOT, ".nzf-cache", "test-bundles-")),
    ),
    mkdir(join(PROJECT_ROOT, ".nzf-cache"), { recursive: true }).then(() =>
      mkdtemp(join(PROJECT_ROOT, ".nzf-cache", "test-images-")),
    ),
  ]);
  process.env.CHROMIUM_PATH = chromium;
  process.env.NZF_TEST_PGLITE_DUMP = dump;
  process.env.NZF_TEST_SHARED_SITE = sharedSite;
  process.env.NZF_TEST_SHARED_BUNDLES = sharedBundles;
  process.env.NZF_TEST_SHARED_IMAGES = sharedImages;
  const run: RunCognito = {
    endpoint: cognito.endpoint,
    upstream: cognito.upstream,
    userPoolId: cognito.userPoolId,
    clientId: cognito.clientId,
    code: cognito.code,
    dataDir: cognito.dataDir,
  };
  process.env.NZF_TEST_COGNITO = JSON.stringify(run);
  return async () => {
    await cognito.stop();
    await rm(sharedSite, { recursive: true, force: true });
    await rm(sharedBundles, { recursive: true, force: true });
    await rm(sharedImages, { recursive: true, force: true });
  };
}
