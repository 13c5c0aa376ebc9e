/**
 * Faults in what the build reads never reach the published site (issue 21 points 3, 4 and 9):
 *
 * - malformed answers of 200 from the Prismic stub never replace the last good snapshot, and the
 *   CLI says which page and field was wrong;
 * - content with no documents or without the site's singletons is refused, both as a fetch (never
 *   written) and as a snapshot file to build from (the last good dist/ stays);
 * - every .nzf-cache family, corrupted three ways (truncated, garbage bytes, bytes that no longer
 *   match the recorded hash), is made again and the published site equals a clean build's.
 *
 * Everything user-facing runs the compiled CLI (bin/nzf-build) in a new process, as CI and editors
 * do (most malformed answers go through fetchContent in this process, to keep the suite fast). The CLI keeps its cache in `<root>/.nzf-cache`, so it runs with --root set to a folder of
 * links to the project, inside the project's .nzf-cache (so packages resolve from node_modules):
 * this test's corruption never touches the cache other tests use.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { execFile } from "node:child_process";
import { createHash } from "node:crypto";
import { cp, mkdir, mkdtemp, readdir, readFile, rename, rm, symlink, writeFile } from "node:fs/promises";
import { existsSync } from "node:fs";
import { basename, join } from "node:path";
import { tmpdir } from "node:os";
import type { PrismicDocument } from "@prismicio/client";
import { PROJECT_ROOT, siteFileHashes } from "../support/build-fixture.js";
import {
  MALFORMATIONS,
  ROOT_PATH,
  SEARCH_PATH,
  startPrismicStub,
  type Malformation,
  type PrismicStub,
} from "../support/prismic-stub.js";
import { startStaticServer, type StaticServer } from "../../src/server/static-server.js";
import { readSnapshot, snapshotPath, writeSnapshot, type Snapshot } from "../../src/content/snapshot.js";
import { readCacheJson } from "../support/cache-entry.js";
import { sharedImageCache } from "../support/shared-images.js";
import { fetchContent } from "../../src/content/fetch.js";
import { formatError } from "../../src/core/errors.js";
import { createMemoryLogger } from "../../src/core/logger.js";

const REPO = "nzf-test";
let root: string;
let scratch: string;
let stub: PrismicStub;
let images: StaticServer;
let docs: PrismicDocument[];
const counts = {
  faultsInjected: 0,
  snapshotsKept: 0,
  buildsRefused: 0,
  entriesCorrupted: 0,
  entriesRebuilt: 0,
  cliRuns: 0,
};

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

/** The compiled CLI in a new process, with `NZF_DEBUG=cache` so it says which entries it made again. */
function cli(args: string[]): Promise<Run> {
  counts.cliRuns += 1;
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [join(PROJECT_ROOT, "bin/nzf-build"), "--root", root, ...args],
      {
        // Live content without payment or sign-in settings: CI (CI=true) would refuse it
        // (SETTINGS_MISSING), which test/cli/options.test.ts covers.
        env: {
          ...process.env,
          NZF_DEBUG: "cache",
          PRISMIC_ACCESS_TOKEN: "",
          NZF_OUT_DIR: "",
          NZF_ALLOW_MISSING_SETTINGS: "1",
        },
        timeout: 120_000,
        maxBuffer: 16 * 1024 * 1024,
      },
      (error, stdout, stderr) =>
        resolve({ code: error ? Number((error as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    );
  });
}

const contentDir = () => join(scratch, "content");
const site = () => join(scratch, "site");
const fetchArgs = (out = site()) => [
  "--fetch",
  "--repository",
  REPO,
  "--endpoint",
  stub.endpoint,
  "--content-dir",
  contentDir(),
  "--out",
  out,
  ...imageHosts(),
];
const buildArgs = (out: string, content = contentDir()) => [
  "--repository",
  REPO,
  "--content-dir",
  content,
  "--out",
  out,
  ...imageHosts(),
];
/** The local image server is a loopback address: listed by its address, the one way the build takes images from one. */
const imageHosts = () => ["--image-hosts", new URL(images.url).host];

/** The sample documents with their images served from a local server instead of the Prismic CDN. */
function localiseImages(documents: PrismicDocument[], base: string): PrismicDocument[] {
  return JSON.parse(
    JSON.stringify(documents).replace(/https:\/\/images\.prismic\.io\/nzf-sample\//g, `${base}/`),
  ) as PrismicDocument[];
}

/**
 * The last good snapshot's bytes, one character per byte (latin1), so that "unchanged" is one string
 * comparison: toEqual walks a Buffer byte by byte, 1.2 s for this 240 kB file at load 15, each time.
 */
let goodSnapshot: string;
const snapshotBytes = async () => (await readFile(snapshotPath(contentDir(), REPO))).toString("latin1");
let goodSite: Record<string, string>;

beforeAll(async () => {
  // The CLI runs lib/, compiled by `npm ci` / `npm run compile` (as for test/cli): compiling here
  // would replace it under the CLI tests running in parallel.
  await mkdir(join(PROJECT_ROOT, ".nzf-cache"), { recursive: true });
  root = await mkdtemp(join(PROJECT_ROOT, ".nzf-cache", "faults-"));
  for (const name of ["templates", "src", "assets", "node_modules", "package-lock.json", "content-cache"])
    await symlink(join(PROJECT_ROOT, name), join(root, name));
  // A copy of the run's processed images (test/support/shared-images.ts) spares sharp work: this
  // file corrupts entries of its own cache, never the one other tests read, and never reads the
  // developer's .nzf-cache/images (other content's entries there were corrupted to no effect).
  await cp(sharedImageCache(), join(root, ".nzf-cache", "images"), { recursive: true }).catch(() => undefined);
  scratch = await mkdtemp(join(tmpdir(), "nzf-faults-"));
  docs = (await readSnapshot(join(PROJECT_ROOT, "content-cache/sample/snapshot.json"))).documents;
  images = await startStaticServer({ root: join(PROJECT_ROOT, "content-cache/sample/images") });
  stub = await startPrismicStub({ documents: localiseImages(docs, images.url), repository: REPO });
  docs = localiseImages(docs, images.url);

  const first = await cli(fetchArgs());
  expect(first.stderr).toMatch(/Built \d+ pages/);
  expect(first.code).toBe(0);
  goodSnapshot = await snapshotBytes();
  goodSite = await siteFileHashes(site());
}, 180_000);

afterAll(async () => {
  await stub?.stop();
  await images?.stop();
  if (root) await rm(root, { recursive: true, force: true });
  if (scratch) await rm(scratch, { recursive: true, force: true });
  console.log(
    `fault suite (cache and snapshot): ${counts.faultsInjected} faults injected, ${counts.snapshotsKept} snapshots kept, ${counts.buildsRefused} builds refused, ` +
      `${counts.entriesCorrupted} cache entries corrupted, ${counts.entriesRebuilt} rebuilt, ${counts.cliRuns} CLI runs`,
  );
});

/** The answer a malformation is applied to, and what the CLI must then name. */
const where: Record<Malformation, { path: string; says: RegExp }> = {
  "results-string": { path: SEARCH_PATH, says: /\[PRISMIC_MALFORMED_ANSWER\].*page 1: "results" is a string/ },
  "results-missing": { path: SEARCH_PATH, says: /\[PRISMIC_MALFORMED_ANSWER\].*page 1: "results" is undefined/ },
  "missing-id": { path: SEARCH_PATH, says: /\[PRISMIC_MALFORMED_ANSWER\].*page 1: results\[0\] has "id" undefined/ },
  "missing-data": {
    path: SEARCH_PATH,
    says: /\[PRISMIC_MALFORMED_ANSWER\].*page 1: results\[0\] \(document [^)]+\) has "data" null/,
  },
  "not-a-document": {
    path: SEARCH_PATH,
    says: /\[PRISMIC_MALFORMED_ANSWER\].*page 1: (results\[\d+\] is number|\d+ results in a page of)/,
  },
  "wrong-total-pages": {
    path: SEARCH_PATH,
    says: /\[PRISMIC_MALFORMED_ANSWER\].*page 1: "total_pages" is \d+, but \d+ documents/,
  },
  "wrong-page": { path: SEARCH_PATH, says: /\[PRISMIC_MALFORMED_ANSWER\].*page 1: "page" is 2, expected 1/ },
  html: { path: SEARCH_PATH, says: /\[PRISMIC_INVALID_RESPONSE\]/ },
  "truncated-json": { path: SEARCH_PATH, says: /\[PRISMIC_INVALID_RESPONSE\]/ },
  "refs-string": { path: ROOT_PATH, says: /\[PRISMIC_MALFORMED_ANSWER\].*has "refs" a string/ },
};

/** The answers tried through the compiled CLI; the others through fetchContent in this process. */
const BY_CLI = new Set<Malformation>(["results-string", "missing-id", "html", "refs-string"]);

async function expectUntouched(): Promise<void> {
  expect(await snapshotBytes()).toBe(goodSnapshot);
  expect(await siteFileHashes(site())).toEqual(goodSite);
}

describe("a Prismic answer is checked before it can replace the snapshot", () => {
  it.each(MALFORMATIONS.map((m) => [m]))(
    "%s: the fetch fails, naming what was wrong, and the snapshot and site stay",
    async (how) => {
      stub.setDocuments(docs); // a new ref, so the fetch downloads
      stub.inject(where[how].path, { malform: how });
      counts.faultsInjected += 1;
      if (BY_CLI.has(how)) {
        const run = await cli(fetchArgs());
        expect(run.code).toBe(1);
        expect(run.stderr).toMatch(where[how].says);
        expect(run.stderr).toMatch(/hint: /);
        expect(run.stderr).not.toMatch(/Built \d+ pages/);
      } else {
        // The same fetch in this process (a new CLI process per answer would cost seconds each).
        const error = await fetchContent(
          { repository: REPO, endpoint: stub.endpoint, cacheDir: contentDir() },
          { logger: createMemoryLogger(), sleep: async () => {} },
        ).then(
          () => null,
          (e: unknown) => e,
        );
        expect(formatError(error)).toMatch(where[how].says);
      }
      await expectUntouched();
      counts.snapshotsKept += 1;
    },
  );

  it("a malformed second page (total_pages changing between pages) is refused too", async () => {
    // Pages of 100: repeat the documents under new ids so there are two pages.
    const many = [...docs, ...docs.map((d) => ({ ...d, id: `${d.id}-copy`, uid: d.uid ? `${d.uid}-copy` : d.uid }))];
    const copies =
      many.length > 100
        ? many
        : [...many, ...many.map((d) => ({ ...d, id: `${d.id}-again`, uid: d.uid ? `${d.uid}-again` : d.uid }))];
    expect(copies.length).toBeGreaterThan(100);
    stub.setDocuments(copies);
    // The stub applies faults in arrival order: page 1 passes (a 1 ms delay), page 2 is malformed.
    stub.inject(SEARCH_PATH, { delayMs: 1 });
    stub.inject(SEARCH_PATH, { malform: "wrong-total-pages" });
    const before = stub.requestsTo(SEARCH_PATH).length;
    counts.faultsInjected += 1;
    const run = await cli(fetchArgs());
    expect(stub.requestsTo(SEARCH_PATH).length - before).toBe(2);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/\[PRISMIC_MALFORMED_ANSWER\].*page 2: "total_pages" is \d+, but page 1 said \d+/);
    await expectUntouched();
    counts.snapshotsKept += 1;
    stub.setDocuments(docs);
  });
});

describe("content that is no site is refused", () => {
  const withoutSingletons = () => docs.filter((d) => d.type !== "global" && d.type !== "home_page");

  it("a fetch of zero documents, or of none of the singletons, writes nothing and publishes nothing", async () => {
    expect(withoutSingletons().length).toBeLessThan(docs.length);
    // The first through the compiled CLI (--fetch then builds nothing); the others, which differ
    // only in what the content check says, through fetchContent in this process, as above.
    for (const [documents, says, byCli] of [
      [[], /\[PRISMIC_NO_DOCUMENTS\]/, false],
      [withoutSingletons(), /\[SNAPSHOT_INCOMPLETE\].*no "global" and "home_page" documents in en-au/, true],
      [docs.filter((d) => d.type !== "home_page"), /\[SNAPSHOT_INCOMPLETE\].*no "home_page" document in en-au/, false],
    ] as const) {
      stub.setDocuments([...documents]);
      counts.faultsInjected += 1;
      if (byCli) {
        const run = await cli(fetchArgs());
        expect(run.code).toBe(1);
        expect(run.stderr).toMatch(says);
        expect(run.stderr).not.toMatch(/Built \d+ pages/);
      } else {
        const error = await fetchContent(
          { repository: REPO, endpoint: stub.endpoint, cacheDir: contentDir() },
          { logger: createMemoryLogger(), sleep: async () => {} },
        ).then(
          () => null,
          (e: unknown) => e,
        );
        expect(formatError(error)).toMatch(says);
      }
      await expectUntouched();
      counts.snapshotsKept += 1;
    }
    stub.setDocuments(docs);
  });

  it("a snapshot file with zero documents or without the singletons is not built: the last good dist/ stays", async () => {
    const good = await readSnapshot(snapshotPath(contentDir(), REPO));
    const other = join(scratch, "bad-content");
    for (const documents of [[], withoutSingletons()]) {
      const bad: Snapshot = { ...good, ref: `${good.ref}-bad`, documents };
      await writeSnapshot(snapshotPath(other, REPO), bad);
      counts.faultsInjected += 1;
      const run = await cli(buildArgs(site(), other));
      expect(run.code).toBe(1);
      expect(run.stderr).toMatch(/\[SNAPSHOT_INCOMPLETE\]/);
      expect(run.stderr).toMatch(/hint: .*last good dist\/ are kept/);
      expect(await siteFileHashes(site())).toEqual(goodSite);
      counts.buildsRefused += 1;
    }
  });
});

type Mode = "truncated" | "garbage" | "wrong hash";

/** Writes `bytes` over `file` by replacing it (a new inode): published files hard-linked to the old one stay as they were. */
async function replace(file: string, bytes: Buffer): Promise<void> {
  await writeFile(`${file}.fault`, bytes);
  await rename(`${file}.fault`, file);
}

function corrupt(bytes: Buffer, mode: Mode): Buffer {
  if (mode === "truncated") return bytes.subarray(0, Math.floor(bytes.length / 2));
  if (mode === "garbage")
    return Buffer.from(Array.from({ length: Math.max(bytes.length, 64) }, (_, i) => (i * 131 + 7) % 256));
  // The same length, one byte changed near the end: only its hash tells it from the original.
  const changed = Buffer.from(bytes);
  const at = Math.max(0, changed.length - 3);
  changed[at] = changed[at] === 0x41 ? 0x42 : 0x41;
  return changed;
}

/**
 * One entry per cache family, as the clean build left them (relative to the cache folder). A record
 * and a file it lists are never corrupted in the same build (the bad record alone would hide the bad
 * file), so each mode picks one of each pair.
 */
async function cacheEntries(cache: string, mode: Mode, site: Record<string, string>): Promise<Record<string, string>> {
  const all = async (dir: string, test: RegExp) =>
    (await readdir(join(cache, dir)).catch(() => [] as string[]))
      .filter((n) => test.test(n))
      .sort()
      .map((n) => join(dir, n));
  const first = async (dir: string, test: RegExp) => (await all(dir, test))[0];
  /** The file of `dir` with the bytes the clean build published at `sitePath` (`site`: its files' sha1). */
  const publishedAs = async (dir: string, test: RegExp, sitePath: string) => {
    for (const file of await all(dir, test))
      if (
        createHash("sha1")
          .update(await readFile(join(cache, file)))
          .digest("hex") === site[sitePath]
      )
        return file;
    return undefined;
  };
  // An image manifest, and a processed image listed by another manifest.
  // Entries copied from the project's cache in an older format are misses the build skipped: pick records.
  const isRecord = async (file: string) =>
    readCacheJson(join(cache, file)).then(
      () => true,
      () => false,
    );
  // Only manifests of images this build published: the project's cache, copied in, also holds
  // manifests of other builds (the bench's, watch's) that this build never reads, and a corrupted
  // one of those would go unnoticed (in a used project folder the test then failed, a fresh clone not).
  const published = new Set(Object.keys(goodSite).map((file) => basename(file)));
  const readHere = async (file: string) =>
    (await isRecord(file)) &&
    (await readCacheJson<{ outputs: { file: string }[] }>(join(cache, file))).outputs.some((o) =>
      published.has(o.file),
    );
  const manifests: string[] = [];
  for (const file of await all("images/made", /\.json$/)) if (await readHere(file)) manifests.push(file);
  expect(manifests.length).toBeGreaterThan(1);
  const listed = (await readCacheJson<{ outputs: { file: string }[] }>(join(cache, manifests[1]!))).outputs;
  const found: Record<string, string | undefined> = {
    stylesheet: await first("styles", /^site-.*\.css$/),
    ...(mode === "truncated"
      ? { "island record": await first("islands/islands", /^record-[0-9a-f]+\.json$/) }
      : { "island bundle": await first("islands/islands/out", /^calculator-.*\.js$/) }),
    "scripts bundle": await first("islands/scripts/out", /\.js$/),
    // Kept under its content's hash, so the fetch's preview (another endpoint) lies beside it: the one published.
    "preview bundle": await publishedAs("islands/preview/out", /^preview\.kept-[0-9a-f]+\.js$/, "_preview/preview.js"),
    ...(mode === "garbage"
      ? { "templates record": "templates-bundled/record.json" }
      : { "compiled templates": await first("templates-bundled", /^entry-.*\.cjs$/) }),
    "image manifest": manifests[0],
    "processed image": join("images/files", listed[0]!.file),
    "image source index": "images/sources.json",
    icons: await first("icons", /^icons-.*\.json$/),
    "service worker source": await first("sw", /^sw-source-.*\.js$/),
    "service worker": await first("sw", /^worker-.*\.json$/),
    "document hashes": "document-hashes.json",
  };
  for (const [family, file] of Object.entries(found)) {
    expect(file, `the clean build left no ${family} entry`).toBeDefined();
    expect(existsSync(join(cache, file!)), `${family}: ${file}`).toBe(true);
  }
  return found as Record<string, string>;
}

/**
 * The clean build of this content into a folder of its own: what every later build must publish.
 * Made once, by the first test that needs it (each mode's last build below publishes it again from
 * the entries made again). The fetch's site differs from it: its preview bundle and CSP name the
 * endpoint. The record tests build into this folder again: the same content, so the same site.
 */
let clean: Promise<Record<string, string>> | undefined;
const cleanDir = () => join(scratch, "clean");
function cleanBuild(): Promise<Record<string, string>> {
  clean ??= (async () => {
    const reference = await cli(buildArgs(cleanDir()));
    expect(reference.code, reference.stderr).toBe(0);
    return siteFileHashes(cleanDir());
  })();
  return clean;
}

describe("every cache entry is verified before use", () => {
  // Read only for a folder with a version published (a record describes that version): a build into
  // a new folder, as below, renders every page without reading it. So each mode corrupts the record
  // the last build left and builds into the clean build's folder, which has a version published
  // (a build of its own per mode cost a whole build more each, for the same published folder).
  it.each([["truncated"], ["garbage"], ["wrong hash"]] as [Mode][])(
    "a %s record of the last build is reported, and the folder it described is built whole again",
    async (mode) => {
      const out = cleanDir();
      const expected = await cleanBuild();
      const record = join(root, ".nzf-cache", "last-build.json");
      await replace(record, corrupt(await readFile(record), mode));
      counts.faultsInjected++;
      counts.entriesCorrupted++;
      const run = await cli(buildArgs(out));
      expect(run.code, run.stderr).toBe(0);
      expect(run.stderr).toMatch(/^cache +last build: corrupt .*last-build\.json/m);
      counts.entriesRebuilt++;
      expect(await siteFileHashes(out)).toEqual(expected);
      // Every page was rendered again, not taken as unchanged.
      expect(run.stderr).not.toMatch(/Nothing changed/);
      expect(await readCacheJson(record).then(() => true)).toBe(true);
    },
    120_000,
  );

  it.each([["truncated"], ["garbage"], ["wrong hash"]] as [Mode][])(
    "%s entries in every family are made again, and the site equals a clean build's",
    async (mode) => {
      const cache = join(root, ".nzf-cache");
      const expected = await cleanBuild();
      expect(Object.keys(expected).length).toBeGreaterThan(100);

      const entries = await cacheEntries(cache, mode, expected);
      for (const file of Object.values(entries))
        await replace(join(cache, file), corrupt(await readFile(join(cache, file)), mode));
      counts.faultsInjected += Object.keys(entries).length;
      counts.entriesCorrupted += Object.keys(entries).length;

      const out = join(scratch, `after-${mode.replace(" ", "-")}`);
      const run = await cli(buildArgs(out));
      expect(run.code, run.stderr).toBe(0);
      expect(await siteFileHashes(out)).toEqual(expected);
      // Each corrupted entry was seen as bad and made again, never used.
      const rebuilt = run.stderr.split("\n").filter((line) => /^cache +[^:]+: corrupt /.test(line));
      for (const [family, file] of Object.entries(entries)) {
        const name = file.split("/").pop()!;
        expect(
          rebuilt.some((line) => line.includes(name)),
          `${family} (${file}) was not reported as corrupt:\n${rebuilt.join("\n")}`,
        ).toBe(true);
        // ...and is whole again.
        expect(
          existsSync(join(cache, file)) ? (await readFile(join(cache, file))).length : 0,
          `${family} was not made again`,
        ).toBeGreaterThan(0);
      }
      counts.entriesRebuilt += rebuilt.length;

      // The next build uses the entries made again: nothing is reported corrupt, the same site.
      const next = join(scratch, `again-${mode.replace(" ", "-")}`);
      const again = await cli(buildArgs(next));
      expect(again.code).toBe(0);
      expect(again.stderr).not.toMatch(/^cache +[^:]+: corrupt /m);
      expect(await siteFileHashes(next)).toEqual(expected);
    },
    120_000,
  );

  it("a cache folder that cannot be written fails with CACHE_UNUSABLE and a hint about the cache, not the content", async () => {
    const cache = join(root, ".nzf-cache");
    // The stylesheet's folder replaced by a file: its entry can be neither read nor written.
    await rm(join(cache, "styles"), { recursive: true, force: true });
    await writeFile(join(cache, "styles"), "not a folder");
    await rm(join(cache, "islands", "scripts"), { recursive: true, force: true });
    await writeFile(join(cache, "islands", "scripts"), "not a folder");
    counts.faultsInjected += 1;
    const run = await cli(buildArgs(join(scratch, "unusable")));
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/\[CACHE_UNUSABLE\] The build cache could not be written at .*islands\/scripts/);
    expect(run.stderr).toMatch(/hint: .*delete it \(rm -rf \.nzf-cache\)/);
    expect(run.stderr).not.toMatch(/Prismic|replace the image/i);
    await rm(join(cache, "styles"), { force: true });
    await rm(join(cache, "islands", "scripts"), { force: true });
  });
});
