/**
 * One build of the bundled sample with the default settings, shared by the test files that only
 * read the built site (serve it, open its pages, parse its files). Each used to build its own, about
 * ten seconds of a quiet machine's two cores apiece (more under load), for the same bytes.
 *
 * Made once per test run: test/support/global-setup.ts makes an empty folder for the run
 * (NZF_TEST_SHARED_SITE) and removes it afterwards, so no run reads what an earlier one left. The
 * first test file that asks builds into it, holding a lock (a directory, made atomically); the
 * others, in other workers, wait for its outcome. Readers must not write into the site: a test that
 * changes a page builds its own (createFixture).
 */
import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { resolveAuthConfig } from "../../src/auth/config.js";
import { build } from "../../src/pipeline/build.js";
import { createBuilder } from "../../src/pipeline/builder.js";
import { resolveConfig } from "../../src/core/config.js";
import { createMemoryLogger } from "../../src/core/logger.js";
import { PROJECT_ROOT } from "./build-fixture.js";
import { runCognito } from "./cognito-local.js";
import { sharedImageCache } from "./shared-images.js";
import { hangLimit } from "./time-limits.js";

/**
 * The settings a shared site is built with: the defaults, or payments configured at an address
 * nothing listens on (the pay pages then show their forms, as published; a test that needs the
 * API answered routes its requests in the browser, to a real service with payments-route.ts).
 * The key is the test payments service's (payments-service.ts TEST_PUBLISHABLE_KEY), which its
 * Stripe stand-in expects.
 */
export const SHARED_SITE_VARIANTS = {
  default: {},
  "payments-unreachable": {
    payments: { apiUrl: "http://127.0.0.1:9", publishableKey: "pk_test_51PaymentsServiceTest0123456789" },
  },
} as const;
/**
 * "account": the payments-unreachable settings plus sign-in against the run's cognito-local
 * (NZF_TEST_COGNITO, global-setup.ts) with the account API at the same unreachable payments
 * address; a file signs in on it through shared-account-site.ts, which routes both addresses to
 * the file's own bridge and service in the browser.
 */
export type SharedSiteVariant = keyof typeof SHARED_SITE_VARIANTS | "account";

function variantConfig(variant: SharedSiteVariant): Record<string, unknown> {
  if (variant !== "account") return structuredClone(SHARED_SITE_VARIANTS[variant]) as Record<string, unknown>;
  const cognito = runCognito();
  if (!cognito) throw new Error("the shared account site needs the run's cognito-local (NZF_TEST_COGNITO)");
  const payments = SHARED_SITE_VARIANTS["payments-unreachable"].payments;
  const auth = resolveAuthConfig({
    userPoolId: cognito.userPoolId,
    userPoolClientId: cognito.clientId,
    userPoolEndpoint: cognito.endpoint,
    authFlowType: "USER_PASSWORD_AUTH",
    accountApiUrl: `${payments.apiUrl}/graphql`,
  });
  return { auth, payments: { ...payments } };
}

export interface SharedSite {
  /** The built site: read it, never write to it. */
  outDir: string;
}

const mine = new Map<SharedSiteVariant, Promise<SharedSite>>();

/** The sample built with the settings of `variant`, built once per test run (see the file comment). */
export function sharedSampleSite(variant: SharedSiteVariant = "default"): Promise<SharedSite> {
  let site = mine.get(variant);
  if (!site) {
    site = obtain(variant);
    mine.set(variant, site);
  }
  return site;
}

async function obtain(variant: SharedSiteVariant): Promise<SharedSite> {
  // Without the run's folder (a test started some other way than vitest's config), a build of its own.
  const runDir = process.env.NZF_TEST_SHARED_SITE ?? (await mkdtemp(join(tmpdir(), "nzf-shared-site-")));
  const dir = join(runDir, variant);
  await mkdir(dir, { recursive: true });
  const outDir = join(dir, "dist");
  const outcome = join(dir, "outcome.json");
  try {
    await mkdir(join(dir, "lock"));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    return waitFor(outcome, outDir);
  }
  const workDir = await mkdtemp(join(PROJECT_ROOT, ".nzf-cache", "test-shared-"));
  const builder = createBuilder();
  try {
    const config = resolveConfig({
      root: PROJECT_ROOT,
      out: outDir,
      workDir,
      imageCacheDir: sharedImageCache(),
      contentDir: join(PROJECT_ROOT, "content-cache"),
      sample: true,
    });
    await build(config, {
      logger: createMemoryLogger(),
      builder,
      publicConfig: variantConfig(variant),
    });
    await writeFile(outcome, JSON.stringify({ ok: true }));
    return { outDir };
  } catch (error) {
    await writeFile(outcome, JSON.stringify({ ok: false, message: String((error as Error)?.stack ?? error) }));
    throw error;
  } finally {
    await builder.close();
    await rm(workDir, { recursive: true, force: true });
  }
}

async function waitFor(outcome: string, outDir: string): Promise<SharedSite> {
  const end = Date.now() + hangLimit(180_000);
  for (;;) {
    const text = await readFile(outcome, "utf8").catch(() => null);
    if (text) {
      const result = JSON.parse(text) as { ok: boolean; message?: string };
      if (!result.ok)
        throw new Error(`the shared sample site failed to build in another test file:\n${result.message}`);
      return { outDir };
    }
    if (Date.now() > end) throw new Error(`the shared sample site was not built within the limit (${outcome})`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}
