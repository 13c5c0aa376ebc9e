/**
 * Fixture builds: the real pipeline against the local Prismic API stub (real HTTP), into temporary
 * folders. Checks the pages, that failures lose nothing, and that output is deterministic.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readFile, readdir, stat } from "node:fs/promises";
import { join } from "node:path";
import type { PrismicDocument } from "@prismicio/client";
import { createFixture, PROJECT_ROOT, siteFileHashes, type Fixture } from "../support/build-fixture.js";
import { startPrismicStub, type PrismicStub } from "../support/prismic-stub.js";
import { sharedSampleSite } from "../support/shared-site.js";
import { startStaticServer, type StaticServer } from "../../src/server/static-server.js";
import { readSnapshot } from "../../src/content/snapshot.js";
import { NzfAggregateError, NzfError } from "../../src/core/errors.js";

const noSleep = async () => {};
let sampleDocs: PrismicDocument[];
let imageServer: StaticServer;
let stub: PrismicStub;
const fixtures: Fixture[] = [];

/** The sample documents with image URLs pointing at a local server instead of the Prismic CDN. */
function localiseImages(docs: PrismicDocument[], base: string): PrismicDocument[] {
  const json = JSON.stringify(docs).replace(/https:\/\/images\.prismic\.io\/nzf-sample\//g, `${base}/`);
  return JSON.parse(json) as PrismicDocument[];
}

async function fetchFixture(): Promise<Fixture> {
  // The local image server is a loopback address: listed by its address, the one way the build takes images from one.
  const fixture = await createFixture({
    fetch: true,
    repository: "nzf-test",
    endpoint: stub.endpoint,
    imageHosts: new URL(imageServer.url).host,
  });
  // Fetched snapshots go to the fixture's own folder, never the project's content-cache.
  fixture.config.contentDir = join(fixture.dir, "content-cache");
  fixtures.push(fixture);
  return fixture;
}

beforeAll(async () => {
  sampleDocs = (await readSnapshot(join(PROJECT_ROOT, "content-cache/sample/snapshot.json"))).documents;
  imageServer = await startStaticServer({ root: join(PROJECT_ROOT, "content-cache/sample/images") });
  stub = await startPrismicStub({ documents: localiseImages(sampleDocs, imageServer.url), repository: "nzf-test" });
});

afterAll(async () => {
  await Promise.all(fixtures.map((f) => f.cleanup()));
  await stub?.stop();
  await imageServer?.stop();
});

describe("a build with --fetch against the Prismic API", () => {
  it("fetches every document at the pinned ref and renders their pages", async () => {
    const fixture = await fetchFixture();
    const result = await fixture.run({ sleep: noSleep });
    expect(result.snapshot.documents).toBe(sampleDocs.length);
    expect(result.snapshot.ref).toBe(stub.ref);
    const searches = stub.requests.filter((r) => r.path.endsWith("/documents/search"));
    expect(searches.every((r) => r.query.ref === stub.ref && r.query.lang === "*" && r.query.pageSize === "100")).toBe(
      true,
    );

    const caseDoc = sampleDocs.find((d) => d.type === "case")!;
    const html = await readFile(join(fixture.config.outDir, "case", caseDoc.uid!, "index.html"), "utf8");
    const title = (caseDoc.data as { title: { text: string }[] }).title[0]!.text;
    expect(html).toContain(`<h1>${title.replace(/'/g, "&#x27;")}</h1>`);
    expect(html).toContain(`<link rel="canonical" href="https://nzf.org.au/case/${caseDoc.uid}/">`);
    expect(html).toContain('<meta property="og:title"');
    // Images were downloaded once and published under hashed names.
    const images = await readdir(join(fixture.config.outDir, "_images"));
    expect(images.length).toBeGreaterThan(10);
    expect(fixture.logger.lines.some((l) => l.message.startsWith("Built "))).toBe(true);
  });

  it("a second build with an unchanged master ref downloads no documents and leaves dist/ alone", async () => {
    const fixture = await fetchFixture();
    await fixture.run({ sleep: noSleep });
    const before = stub.requests.length;
    const indexBefore = await stat(join(fixture.config.outDir, "index.html"));
    const second = await fixture.run({ sleep: noSleep });
    const newRequests = stub.requests.slice(before);
    expect(newRequests.map((r) => r.path)).toEqual(["/api/v2"]);
    expect(second.published).toBe(false);
    expect((await stat(join(fixture.config.outDir, "index.html"))).mtimeMs).toBe(indexBefore.mtimeMs);
  });

  it("a failed fetch keeps the last good snapshot and the last good site", async () => {
    const fixture = await fetchFixture();
    await fixture.run({ sleep: noSleep });
    const snapshotFile = join(fixture.config.contentDir, "nzf-test", "snapshot.json");
    const snapshotBefore = await readFile(snapshotFile);
    const siteBefore = await siteFileHashes(fixture.config.outDir);

    stub.setDocuments(localiseImages(sampleDocs.slice(0, 10), imageServer.url)); // a new ref...
    stub.inject("*", { status: 500 }, 50); // ...that cannot be fetched
    await expect(fixture.run({ sleep: noSleep })).rejects.toMatchObject({ code: "PRISMIC_UNAVAILABLE" });
    expect(await readFile(snapshotFile)).toEqual(snapshotBefore);
    expect(await siteFileHashes(fixture.config.outDir)).toEqual(siteBefore);
    stub.clearFaults();
    stub.setDocuments(localiseImages(sampleDocs, imageServer.url));
  });

  it("a failed build keeps the last good site and names both documents of a route collision", async () => {
    const fixture = await fetchFixture();
    await fixture.run({ sleep: noSleep });
    const siteBefore = await siteFileHashes(fixture.config.outDir);
    const about = sampleDocs.find((d) => d.type === "about_page")!;
    const landing = sampleDocs.find((d) => d.type === "landing_page")!;
    stub.setDocuments(
      localiseImages([...sampleDocs.filter((d) => d.id !== landing.id), { ...landing, uid: "about" }], imageServer.url),
    );
    const error = await fixture.run({ sleep: noSleep }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NzfError);
    expect((error as NzfError).code).toBe("ROUTE_COLLISION");
    expect((error as NzfError).message).toContain(landing.id);
    expect((error as NzfError).message).toContain(about.id);
    expect(await siteFileHashes(fixture.config.outDir)).toEqual(siteBefore);
    // No staging folders are left behind.
    expect((await readdir(fixture.dir)).filter((n) => n.includes(".staging-"))).toEqual([]);
    stub.setDocuments(localiseImages(sampleDocs, imageServer.url));
  });

  it("reports every broken image, each with its document and field", async () => {
    const fixture = await fetchFixture();
    const broken = sampleDocs.map((d) => structuredClone(d));
    const cases = broken.filter((d) => d.type === "case").slice(0, 2);
    for (const c of cases)
      (c.data as { featured_image: { url: string } }).featured_image.url = `${imageServer.url}/missing-${c.id}.jpg`;
    stub.setDocuments(localiseImages(broken, imageServer.url));
    const error = await fixture.run({ sleep: noSleep }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NzfAggregateError);
    const subjects = (error as NzfAggregateError).errors.map((e) => e.subject ?? "");
    for (const c of cases) expect(subjects.some((s) => s.includes(c.id) && s.includes("featured_image"))).toBe(true);
    stub.setDocuments(localiseImages(sampleDocs, imageServer.url));
  });
});

describe("the sample build", () => {
  it("is deterministic: two builds of the same content are byte-identical", async () => {
    // One build here, the other the sample site the test run shares (test/support/shared-site.ts):
    // another builder, work folder and output folder, often in another worker process.
    const a = await createFixture({ sample: true });
    fixtures.push(a);
    const [, b] = await Promise.all([a.run(), sharedSampleSite()]);
    const hashesA = await siteFileHashes(a.config.outDir);
    expect(Object.keys(hashesA).length).toBeGreaterThan(80);
    const hashesB = await siteFileHashes(b.outDir);
    const differing = Object.keys({ ...hashesA, ...hashesB }).filter((k) => hashesA[k] !== hashesB[k]);
    expect(differing).toEqual([]);
  });
});
