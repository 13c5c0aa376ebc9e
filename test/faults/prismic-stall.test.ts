/**
 * A Prismic that accepts connections and never answers (or stops half-way through a body) must
 * fail the fetch within the per-request deadline (15 s in production, so the fetch fails within 20 s
 * in all; scaled down here by mocking the module of the figures), with a message that says what
 * timed out and for how long, and keep the last good snapshot. Real time, real HTTP against the stub.
 */
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it, type TestContext, vi } from "vitest";
import { fetchContent, type FetchDeps } from "../../src/content/fetch.js";
import type * as RetryPolicyModule from "../../src/content/fetch-retry-policy.js";
import { snapshotPath } from "../../src/content/snapshot.js";
import { NzfError } from "../../src/core/errors.js";
import { createMemoryLogger } from "../../src/core/logger.js";
import { makeDocuments, ROOT_PATH, SEARCH_PATH, startPrismicStub } from "../support/prismic-stub.js";

const REPO = "nzf-test";

/**
 * A stub and a snapshot folder of the test's own: the tests run at once, as each spends its time
 * waiting on real time, not the CPU (one after another they held a worker for 9 s).
 */
async function setUp({ onTestFinished }: TestContext, options: Parameters<typeof startPrismicStub>[0]) {
  const cacheDir = await mkdtemp(join(tmpdir(), "nzf-stall-"));
  const stub = await startPrismicStub(options);
  onTestFinished(async () => {
    await stub.stop();
    await rm(cacheDir, { recursive: true, force: true });
  });
  return { stub, cacheDir };
}

// Synthetic documents without the site's singletons: these tests are about the transfer, not the site.
vi.mock("../../src/content/snapshot-check.js", () => import("../support/no-site-singletons.js"));
// The production figures scaled down: an answer begun within 0.3 s, 2 s per attempt, 3 s per request.
const policy = vi.hoisted(() => ({ headersTimeoutMs: 300, attemptTimeoutMs: 2000, deadlineMs: 3000 }));
vi.mock("../../src/content/fetch-retry-policy.js", async (importOriginal) => {
  const actual = await importOriginal<typeof RetryPolicyModule>();
  return { ...actual, DEFAULT_RETRY_POLICY: { ...actual.DEFAULT_RETRY_POLICY, ...policy } };
});
const deps = (): FetchDeps => ({ logger: createMemoryLogger() });

async function timedFailure(promise: Promise<unknown>): Promise<{ error: NzfError; ms: number }> {
  const started = performance.now();
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(NzfError);
  return { error: error as NzfError, ms: performance.now() - started };
}

describe.concurrent("a stalled Prismic API", () => {
  it("production allows an answer 5 s to begin and 20 s to complete, and 15 s of failed attempts per request", async () => {
    const production = await vi.importActual<typeof RetryPolicyModule>("../../src/content/fetch-retry-policy.js");
    expect(production.DEFAULT_RETRY_POLICY).toMatchObject({
      headersTimeoutMs: 5_000,
      attemptTimeoutMs: 20_000,
      deadlineMs: 15_000,
    });
  });

  it("cuts off an attempt whose answer has not begun by the headers time-out, well before the attempt's", async (context) => {
    const { stub, cacheDir } = await setUp(context, { documents: makeDocuments(3) });
    stub.inject(ROOT_PATH, { stall: "headers" }, 100);
    const { error } = await timedFailure(fetchContent({ repository: REPO, endpoint: stub.endpoint, cacheDir }, deps()));
    expect(error.code).toBe("PRISMIC_UNAVAILABLE");
    // The first attempt cut at 0.3 s, then 0.1-0.2 s of backoff; the 2 s attempt time-out alone would
    // have held the second attempt back until at least 2.1 s.
    const [first, second] = stub.requestsTo(ROOT_PATH);
    expect(second).toBeDefined();
    expect(second.time - first.time).toBeLessThan(policy.attemptTimeoutMs);
    expect(error.message).toContain(
      "(an answer begun within 300 ms and complete within 2.0 s, each), and the request gave up after",
    );
    expect(error.message).toContain("(the limit is 3.0 s)");
  });

  it("fails within the deadline when nothing answers, says what timed out, and keeps the snapshot", async (context) => {
    const { stub, cacheDir } = await setUp(context, { documents: makeDocuments(3), ref: "good" });
    await fetchContent({ repository: REPO, endpoint: stub.endpoint, cacheDir }, deps());
    const before = await readFile(snapshotPath(cacheDir, REPO));
    stub.setDocuments(makeDocuments(4), "newer");
    stub.inject(ROOT_PATH, { stall: "headers" }, 100);

    const { error, ms } = await timedFailure(
      fetchContent({ repository: REPO, endpoint: stub.endpoint, cacheDir }, deps()),
    );
    console.log(
      `stalled Prismic (no answer): failed after ${Math.round(ms)} ms with ${stub.requestsTo(ROOT_PATH).length - 1} attempts: ${error.message}`,
    );
    expect(error.code).toBe("PRISMIC_UNAVAILABLE");
    expect(ms).toBeLessThan(policy.deadlineMs + 1500);
    expect(error.message).toMatch(
      /^The Prismic API did not answer http:\/\/127\.0\.0\.1:\d+\/api\/v2: (\d) of \1 attempts got no complete answer in the time allowed \(an answer begun within 300 ms and complete within 2\.0 s, each\), and the request gave up after \d\.\d s \(the limit is 3\.0 s\)\.$/,
    );
    expect(error.hint).toMatch(/did not answer in time/);
    expect(await readFile(snapshotPath(cacheDir, REPO))).toEqual(before);
  });

  it("fails within the deadline when a body stops half-way", async (context) => {
    const { stub, cacheDir } = await setUp(context, { documents: makeDocuments(3) });
    stub.inject(SEARCH_PATH, { stall: "body" }, 100);
    const { error, ms } = await timedFailure(
      fetchContent({ repository: REPO, endpoint: stub.endpoint, cacheDir }, deps()),
    );
    console.log(`stalled Prismic (half a body): failed after ${Math.round(ms)} ms: ${error.message}`);
    expect(error.code).toBe("PRISMIC_UNAVAILABLE");
    expect(ms).toBeLessThan(policy.deadlineMs + 1500);
    expect(error.message).toContain("got no complete answer in the time allowed");
    expect(error.message).toContain("/api/v2/documents/search");
  });

  it("recovers when only one attempt stalls", async (context) => {
    const { stub, cacheDir } = await setUp(context, { documents: makeDocuments(3) });
    stub.inject(SEARCH_PATH, { stall: "headers" });
    const started = performance.now();
    const result = await fetchContent({ repository: REPO, endpoint: stub.endpoint, cacheDir }, deps());
    expect(result.documentsFetched).toBe(3);
    expect(stub.requestsTo(SEARCH_PATH).map((r) => r.status)).toEqual(["stalled", 200]);
    expect(performance.now() - started).toBeLessThan(policy.attemptTimeoutMs + 1000);
  });
});
