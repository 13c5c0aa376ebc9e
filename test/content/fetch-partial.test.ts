/**
 * Partial fetches for webhooks: only the documents a webhook named are downloaded at the new ref,
 * and anything that does not add up falls back to a full fetch.
 */
import { afterEach, describe, expect, it } from "vitest";
import { mkdtemp, rm } from "node:fs/promises";
import { join } from "node:path";
import { tmpdir } from "node:os";
import { fetchContent } from "../../src/content/fetch.js";
import { createMemoryLogger } from "../../src/core/logger.js";
import { makeDocument, makeDocuments, startPrismicStub, type PrismicStub } from "../support/prismic-stub.js";

const noSleep = async () => {};
let stub: PrismicStub | undefined;
let dir: string | undefined;

afterEach(async () => {
  await stub?.stop();
  if (dir) await rm(dir, { recursive: true, force: true });
});

async function setUp(count: number) {
  const docs = makeDocuments(count);
  stub = await startPrismicStub({ documents: docs, repository: "nzf-test" });
  dir = await mkdtemp(join(tmpdir(), "nzf-partial-"));
  const options = { repository: "nzf-test", endpoint: stub.endpoint, cacheDir: dir, requiredTypes: [] };
  await fetchContent(options, { logger: createMemoryLogger(), sleep: noSleep });
  return { docs, options };
}

describe("a fetch for a webhook's changed documents", () => {
  it("downloads only those documents and drops the ones that were unpublished", async () => {
    const { docs, options } = await setUp(250);
    const edited = { ...docs[10]!, data: { title: "Edited title" } };
    const next = docs.filter((d) => d.id !== docs[20]!.id).map((d) => (d.id === edited.id ? edited : d));
    stub!.setDocuments(next);
    const before = stub!.requests.length;
    const result = await fetchContent(
      { ...options, changedIds: [edited.id, docs[20]!.id] },
      { logger: createMemoryLogger(), sleep: noSleep },
    );
    const searches = stub!.requests.slice(before).filter((r) => r.path.endsWith("/documents/search"));
    // One search for the named ids, one to count the repository: not three pages of everything.
    expect(searches).toHaveLength(2);
    expect(String(searches[0]!.query.q)).toContain(edited.id);
    expect(result.snapshot.ref).toBe(stub!.ref);
    expect(result.snapshot.documents).toHaveLength(249);
    expect(result.snapshot.documents.find((d) => d.id === edited.id)?.data).toEqual({ title: "Edited title" });
    expect(result.snapshot.documents.some((d) => d.id === docs[20]!.id)).toBe(false);
  });

  it("falls back to a full fetch when the named documents do not account for the change", async () => {
    const { docs, options } = await setUp(120);
    const added = makeDocument({ id: "new-one", type: "case", uid: "new-one", data: {} });
    stub!.setDocuments([...docs, added]);
    const logger = createMemoryLogger();
    const result = await fetchContent({ ...options, changedIds: [docs[0]!.id] }, { logger, sleep: noSleep });
    expect(result.snapshot.documents).toHaveLength(121);
    expect(result.snapshot.documents.some((d) => d.id === "new-one")).toBe(true);
    expect(logger.lines.some((l) => l.message.includes("fetching everything"))).toBe(true);
  });
});
