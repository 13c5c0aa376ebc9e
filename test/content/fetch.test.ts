/**
 * The fetch stage against the local Prismic stub over real HTTP. Timing is measured for real only
 * where timing is the point (the pause between pages, a 1 s retry-after); elsewhere an injected
 * sleep records what the stage would have waited, and returns at once.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { mkdtemp, readFile, rm, writeFile, mkdir } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fetchContent, type FetchDeps, type FetchOptions } from "../../src/content/fetch.js";
import { redactUrl } from "../../src/content/fetch-retry.js";
import { retryAfterMs } from "../../src/core/retry.js";
import { formatError, NzfError } from "../../src/core/errors.js";
import { createMemoryLogger, type MemoryLogger } from "../../src/core/logger.js";
import { snapshotPath } from "../../src/content/snapshot.js";
import {
  makeDocument,
  makeDocuments,
  ROOT_PATH,
  SEARCH_PATH,
  startPrismicStub,
  type PrismicStub,
} from "../support/prismic-stub.js";

const REPO = "nzf-test";
let stub: PrismicStub;
let cacheDir: string;
let logger: MemoryLogger;
let sleeps: number[];
const recordSleep = async (ms: number) => void sleeps.push(ms);

beforeEach(async () => {
  cacheDir = await mkdtemp(join(tmpdir(), "nzf-fetch-"));
  logger = createMemoryLogger();
  sleeps = [];
});
afterEach(async () => {
  vi.useRealTimers();
  vi.restoreAllMocks();
  await stub?.stop();
  stub = undefined!;
  await rm(cacheDir, { recursive: true, force: true });
});

// Synthetic documents without the site's singletons: these tests are about the transfer, not the site.
vi.mock("../../src/content/snapshot-check.js", () => import("../support/no-site-singletons.js"));

function options(extra: Partial<FetchOptions> = {}): FetchOptions {
  return { repository: REPO, endpoint: stub.endpoint, cacheDir, ...extra };
}
function deps(extra: Partial<FetchDeps> = {}): FetchDeps {
  return { logger, sleep: recordSleep, ...extra };
}
async function failure(promise: Promise<unknown>): Promise<NzfError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(NzfError);
  return error as NzfError;
}
const snapshotFile = () => snapshotPath(cacheDir, REPO);

describe("fetchContent", () => {
  it("pages over 250 documents: 3 searches of at most 100, at least 500 ms apart, at one ref", async () => {
    stub = await startPrismicStub({ documents: makeDocuments(250), ref: "ref-250" });
    const result = await fetchContent(options(), { logger }); // real sleep: the pause is what we test

    const searches = stub.requestsTo(SEARCH_PATH);
    expect(searches.map((r) => [r.query.page, r.query.pageSize, r.query.ref, r.query.lang])).toEqual([
      ["1", "100", "ref-250", "*"],
      ["2", "100", "ref-250", "*"],
      ["3", "100", "ref-250", "*"],
    ]);
    expect(searches[1]!.time - searches[0]!.time).toBeGreaterThanOrEqual(500);
    expect(searches[2]!.time - searches[1]!.time).toBeGreaterThanOrEqual(500);
    expect(stub.requestsTo(ROOT_PATH)).toHaveLength(1);

    expect(result).toMatchObject({ changed: true, documentsFetched: 250, requests: 4, file: snapshotFile() });
    const written = JSON.parse(await readFile(snapshotFile(), "utf8"));
    expect(written.ref).toBe("ref-250");
    expect(written.repository).toBe(REPO);
    expect(written.languages).toEqual(["en-au"]);
    expect(new Set(written.documents.map((d: { id: string }) => d.id)).size).toBe(250);
    const line = logger.lines.find((l) => l.label === "content" && l.level === "info")!.message;
    expect(line).toMatch(/^250 documents at ref ref-250 in \d+(\.\d)? m?s \(4 requests\)$/);
  });

  it("reads the repository root once even when a fetch outlasts the client's 5 s repository cache", async () => {
    stub = await startPrismicStub({ documents: makeDocuments(250) });
    vi.useFakeTimers({ toFake: ["Date"] });
    // Each pause moves the clock 6 s on, past the client's cache; the root must still be read once.
    const jump = async (ms: number) => {
      sleeps.push(ms);
      vi.setSystemTime(Date.now() + 6000);
    };
    await fetchContent(options(), deps({ sleep: jump }));
    expect(sleeps).toEqual([500, 500]);
    expect(stub.requestsTo(ROOT_PATH)).toHaveLength(1);
    expect(stub.requestsTo(SEARCH_PATH)).toHaveLength(3);
  });

  it("lists languages master first, as the repository root marks them", async () => {
    stub = await startPrismicStub({
      documents: [
        makeDocument({ id: "h1", type: "home_page" }),
        makeDocument({ id: "h2", type: "home_page", lang: "ar-ae" }),
      ],
      languages: [
        { id: "ar-ae", name: "Arabic" },
        { id: "en-au", name: "English (Australia)" },
      ],
    });
    // The stub marks the first language of its list as master: here ar-ae.
    const result = await fetchContent(options(), deps());
    expect(result.snapshot.languages).toEqual(["ar-ae", "en-au"]);
    expect(result.snapshot.documents.map((d) => d.lang).sort()).toEqual(["ar-ae", "en-au"]);
  });

  it("downloads nothing when the master ref equals the cached snapshot's ref", async () => {
    stub = await startPrismicStub({ documents: makeDocuments(3), ref: "same" });
    await fetchContent(options(), deps());
    const before = await readFile(snapshotFile());
    const requestsBefore = stub.requests.length;

    const result = await fetchContent(options(), deps());
    expect(result).toMatchObject({ changed: false, documentsFetched: 0, requests: 1 });
    expect(result.snapshot.documents).toHaveLength(3);
    expect(stub.requests.slice(requestsBefore).map((r) => r.path)).toEqual([ROOT_PATH]);
    expect(await readFile(snapshotFile())).toEqual(before);
    expect(logger.lines.at(-1)).toMatchObject({ label: "content", message: "unchanged at ref same" });
  });

  it("downloads a new snapshot when the master ref changed", async () => {
    stub = await startPrismicStub({ documents: makeDocuments(3), ref: "v1" });
    await fetchContent(options(), deps());
    stub.setDocuments([makeDocument({ id: "new", type: "home_page" })], "v2");
    const result = await fetchContent(options(), deps());
    expect(result.changed).toBe(true);
    const written = JSON.parse(await readFile(snapshotFile(), "utf8"));
    expect([written.ref, written.documents.map((d: { id: string }) => d.id)]).toEqual(["v2", ["new"]]);
  });

  it("fetches afresh over a corrupt cached snapshot", async () => {
    stub = await startPrismicStub({ documents: makeDocuments(2) });
    await mkdir(dirname(snapshotFile()), { recursive: true });
    await writeFile(snapshotFile(), "{ not json");
    const result = await fetchContent(options(), deps());
    expect(result.documentsFetched).toBe(2);
    expect(logger.lines.some((l) => l.level === "warn" && l.message.includes("unreadable snapshot"))).toBe(true);
  });

  it("keeps the pinned ref when a publish happens mid-fetch (no mixing of versions)", async () => {
    stub = await startPrismicStub({ documents: makeDocuments(150, "case", "old"), ref: "before" });
    const publishOnPause = async (ms: number) => {
      sleeps.push(ms);
      stub.setDocuments(makeDocuments(150, "case", "new"), "after");
    };
    const result = await fetchContent(options(), deps({ sleep: publishOnPause }));
    expect(result.snapshot.ref).toBe("before");
    expect(result.snapshot.documents.every((d) => d.id.startsWith("old"))).toBe(true);
    expect(result.snapshot.documents).toHaveLength(150);
  });

  it("fails with PRISMIC_REF_NOT_FOUND instead of silently switching refs when the pinned ref disappears", async () => {
    stub = await startPrismicStub({ documents: makeDocuments(150), ref: "gone" });
    const publishAndDrop = async (ms: number) => {
      sleeps.push(ms);
      stub.setDocuments(makeDocuments(150, "case", "new"), "fresh");
      stub.dropRef("gone");
    };
    const error = await failure(fetchContent(options(), deps({ sleep: publishAndDrop })));
    expect(error.code).toBe("PRISMIC_REF_NOT_FOUND");
    expect(error.message).toBe("Ref could not be found.");
    expect(stub.requestsTo(SEARCH_PATH).map((r) => r.query.ref)).toEqual(["gone", "gone"]);
    await expect(readFile(snapshotFile())).rejects.toThrow(/ENOENT/);
  });
});

describe("fetchContent retries", () => {
  it("waits retry-after seconds after a 429 (real time)", async () => {
    stub = await startPrismicStub({ documents: makeDocuments(2) });
    stub.inject(SEARCH_PATH, { status: 429, retryAfter: 1 });
    const result = await fetchContent(options(), { logger });
    expect(result.documentsFetched).toBe(2);
    const [limited, retried] = stub.requestsTo(SEARCH_PATH);
    expect(limited!.status).toBe(429);
    expect(retried!.status).toBe(200);
    expect(retried!.time - limited!.time).toBeGreaterThanOrEqual(1000);
    expect(retried!.time - limited!.time).toBeLessThan(1500); // not the client's 1500 ms default on top
  });

  it("waits 1000 ms after a 429 without retry-after, and the client does not retry on its own", async () => {
    stub = await startPrismicStub({ documents: makeDocuments(2) });
    stub.inject(SEARCH_PATH, { status: 429 });
    stub.inject(ROOT_PATH, { status: 429 });
    await fetchContent(options(), deps());
    expect(sleeps).toEqual([1000, 1000]);
    expect(stub.requests.map((r) => [r.path, r.status])).toEqual([
      [ROOT_PATH, 429],
      [ROOT_PATH, 200],
      [SEARCH_PATH, 429],
      [SEARCH_PATH, 200],
    ]);
  });

  it("backs off 100–200 ms then 200–300 ms on two 503s, then succeeds", async () => {
    stub = await startPrismicStub({ documents: makeDocuments(2) });
    stub.inject(SEARCH_PATH, { status: 503 }, 2);
    const result = await fetchContent(options(), deps());
    expect(result).toMatchObject({ documentsFetched: 2, requests: 4 });
    expect(sleeps).toHaveLength(2);
    expect(sleeps[0]).toBeGreaterThanOrEqual(100);
    expect(sleeps[0]).toBeLessThan(200);
    expect(sleeps[1]).toBeGreaterThanOrEqual(200);
    expect(sleeps[1]).toBeLessThan(300);
  });

  it("adds Math.random's jitter to the exponential delays", async () => {
    stub = await startPrismicStub({ documents: makeDocuments(1) });
    stub.inject(ROOT_PATH, { status: 502 }, 3);
    // Fixed dice: real ones would give 100-199, 200-299, 400-499, not these exact three.
    vi.spyOn(Math, "random").mockReturnValue(0.42);
    await fetchContent(options(), deps());
    expect(sleeps).toEqual([142, 242, 442]);
  });

  it("gives up on a persistent 500 with PRISMIC_UNAVAILABLE and leaves the old snapshot byte for byte", async () => {
    stub = await startPrismicStub({ documents: makeDocuments(3), ref: "good" });
    await fetchContent(options(), deps());
    const before = await readFile(snapshotFile());
    stub.setDocuments(makeDocuments(5), "newer");
    stub.inject(SEARCH_PATH, { status: 500 }, 100);
    sleeps = [];

    const error = await failure(fetchContent(options(), deps()));
    expect(error.code).toBe("PRISMIC_UNAVAILABLE");
    expect(error.message).toContain(`${stub.endpoint}/documents/search`);
    expect(error.message).toContain("HTTP 500");
    expect(error.message).toContain("6 attempts");
    expect(stub.requestsTo(SEARCH_PATH).filter((r) => r.query.ref === "newer")).toHaveLength(6);
    expect(sleeps).toHaveLength(5);
    expect(await readFile(snapshotFile())).toEqual(before);
  });

  it("retries a destroyed socket (network error) and succeeds", async () => {
    stub = await startPrismicStub({ documents: makeDocuments(2) });
    stub.inject(SEARCH_PATH, { destroy: true });
    const result = await fetchContent(options(), deps());
    expect(result.documentsFetched).toBe(2);
    expect(stub.requestsTo(SEARCH_PATH).map((r) => r.status)).toEqual(["destroyed", 200]);
    expect(sleeps).toHaveLength(1);
    expect(logger.lines.some((l) => l.level === "warn" && l.message.includes("network error"))).toBe(true);
  });

  it("keeps the network error as the cause when the network never comes back", async () => {
    stub = await startPrismicStub({ documents: makeDocuments(2) });
    stub.inject(ROOT_PATH, { destroy: true }, 6);
    const error = await failure(fetchContent(options(), deps()));
    expect(error.code).toBe("PRISMIC_UNAVAILABLE");
    expect(error.message).toContain("network error");
    expect(error.cause).toBeInstanceOf(TypeError);
  });

  it("gives up when the waiting budget would be exceeded", async () => {
    stub = await startPrismicStub({ documents: makeDocuments(2) });
    stub.inject(ROOT_PATH, { status: 429, retryAfter: 3600 });
    const error = await failure(fetchContent(options(), deps()));
    expect(error.code).toBe("PRISMIC_UNAVAILABLE");
    expect(error.message).toContain("HTTP 429");
    expect(sleeps).toEqual([]);
  });

  it("still works when the API is slow", async () => {
    stub = await startPrismicStub({ documents: makeDocuments(2) });
    stub.inject(SEARCH_PATH, { delayMs: 400 });
    const result = await fetchContent(options(), deps());
    expect(result.documentsFetched).toBe(2);
    expect(sleeps).toEqual([]);
  });
});

describe("fetchContent errors", () => {
  it("maps 401 without a token to PRISMIC_FORBIDDEN with the PRISMIC_ACCESS_TOKEN hint", async () => {
    stub = await startPrismicStub({ documents: makeDocuments(2), accessToken: "s3cret" });
    const error = await failure(fetchContent(options(), deps()));
    expect(error.code).toBe("PRISMIC_FORBIDDEN");
    expect(error.message).toContain("no access token was given");
    expect(formatError(error)).toContain("PRISMIC_ACCESS_TOKEN");
    expect(sleeps).toEqual([]);
  });

  it("fetches a private repository with the right token, and never prints the token", async () => {
    stub = await startPrismicStub({ documents: makeDocuments(2), accessToken: "s3cret" });
    const result = await fetchContent(options({ accessToken: "s3cret" }), deps());
    expect(result.documentsFetched).toBe(2);
    expect(stub.requestsTo(SEARCH_PATH)[0]!.query.access_token).toBe("s3cret");

    stub.setDocuments(makeDocuments(3));
    stub.inject(SEARCH_PATH, { status: 500 }, 6);
    const error = await failure(fetchContent(options({ accessToken: "s3cret" }), deps()));
    expect(formatError(error)).not.toContain("s3cret");
    expect(error.message).toContain("access_token=***");
  });

  it("maps a wrong token to PRISMIC_FORBIDDEN", async () => {
    stub = await startPrismicStub({ documents: makeDocuments(2), accessToken: "s3cret" });
    const error = await failure(fetchContent(options({ accessToken: "nope" }), deps()));
    expect(error.code).toBe("PRISMIC_FORBIDDEN");
    expect(error.message).toContain("refused the access token");
  });

  it("maps 403 to PRISMIC_FORBIDDEN", async () => {
    stub = await startPrismicStub({ documents: makeDocuments(2) });
    stub.inject(SEARCH_PATH, { status: 403 });
    expect((await failure(fetchContent(options(), deps()))).code).toBe("PRISMIC_FORBIDDEN");
  });

  it("maps a 404 repository root to PRISMIC_REPOSITORY_NOT_FOUND", async () => {
    stub = await startPrismicStub({ documents: makeDocuments(2) });
    stub.inject(ROOT_PATH, { status: 404 });
    const error = await failure(fetchContent(options({ repository: "no-such-repo" }), deps()));
    expect(error.code).toBe("PRISMIC_REPOSITORY_NOT_FOUND");
    expect(error.message).toContain('"no-such-repo"');
  });

  it("maps 400 to PRISMIC_PARSING_ERROR carrying the server's message", async () => {
    stub = await startPrismicStub({ documents: makeDocuments(2) });
    stub.inject(SEARCH_PATH, {
      status: 400,
      body: { type: "parsing-error", message: "unexpected field 'my.case.colour' at line 1", line: 1, column: 5 },
    });
    const error = await failure(fetchContent(options(), deps()));
    expect(error.code).toBe("PRISMIC_PARSING_ERROR");
    expect(error.message).toContain("unexpected field 'my.case.colour' at line 1");
    expect((error.cause as Error).constructor.name).toBe("ParsingError");
  });

  it("maps other statuses to PRISMIC_INVALID_RESPONSE naming the status", async () => {
    stub = await startPrismicStub({ documents: makeDocuments(2) });
    stub.inject(ROOT_PATH, { status: 418, body: "teapot" });
    const error = await failure(fetchContent(options(), deps()));
    expect(error.code).toBe("PRISMIC_INVALID_RESPONSE");
    expect(error.message).toContain("HTTP 418");
  });

  it("fails an empty repository with PRISMIC_NO_DOCUMENTS and writes nothing", async () => {
    stub = await startPrismicStub({ documents: [] });
    const error = await failure(fetchContent(options(), deps()));
    expect(error.code).toBe("PRISMIC_NO_DOCUMENTS");
    expect(error.message).toMatch(/^No documents were returned/);
    await expect(readFile(snapshotFile())).rejects.toThrow(/ENOENT/);
  });
});

describe("retry helpers", () => {
  it("reads retry-after as seconds or an HTTP date, with a fallback", () => {
    const now = Date.parse("2025-01-01T00:00:00Z");
    expect(retryAfterMs("2", 1000, now)).toBe(2000);
    expect(retryAfterMs("0", 1000, now)).toBe(0);
    expect(retryAfterMs(null, 1000, now)).toBe(1000);
    expect(retryAfterMs("soon", 1000, now)).toBe(1000);
    expect(retryAfterMs("Wed, 01 Jan 2025 00:00:03 GMT", 1000, now)).toBe(3000);
  });

  it("redacts access tokens in URLs", () => {
    expect(redactUrl("http://x/api/v2?ref=a&access_token=abc&page=2")).toBe(
      "http://x/api/v2?ref=a&access_token=***&page=2",
    );
  });
});
