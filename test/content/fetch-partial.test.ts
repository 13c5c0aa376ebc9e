/**
 * Partial fetches for webhooks: only the documents a webhook named are downloaded at the new ref,
 * and anything that does not add up falls back to a full fetch.
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import { mkdtemp, rm } from "node:fs/promises";
import { join } from "node:path";
import { tmpdir } from "node:os";
import { fetchContent } from "../../src/content/fetch.js";
import { createMemoryLogger } from "../../src/core/logger.js";
import type { PrismicDocument } from "@prismicio/client";
import { makeDocument, makeDocuments, startPrismicStub, type PrismicStub } from "../support/prismic-stub.js";

const noSleep = async () => {};
let stub: PrismicStub | undefined;
let dir: string | undefined;

afterEach(async () => {
  await stub?.stop();
  if (dir) await rm(dir, { recursive: true, force: true });
});

function hoursAfter2024(hours: number) {
  const at = new Date(Date.UTC(2024, 0, 1) + hours * 3_600_000).toISOString().replace(/\.\d+Z$/, "+0000");
  return at as PrismicDocument["last_publication_date"];
}

// Synthetic documents without the site's singletons: these tests are about the transfer, not the site.
vi.mock("../../src/content/snapshot-check.js", () => import("../support/no-site-singletons.js"));

async function setUp(count: number) {
  // Published an hour apart, as a real repository's documents are over time.
  const docs = makeDocuments(count).map((d, i) => ({ ...d, last_publication_date: hoursAfter2024(i) }));
  stub = await startPrismicStub({ documents: docs, repository: "nzf-test" });
  dir = await mkdtemp(join(tmpdir(), "nzf-partial-"));
  const options = { repository: "nzf-test", endpoint: stub.endpoint, cacheDir: dir };
  await fetchContent(options, { logger: createMemoryLogger(), sleep: noSleep });
  return { docs, options };
}

describe("a fetch for a webhook's changed documents", () => {
  it("downloads only those documents and drops the ones that were unpublished", async () => {
    const { docs, options } = await setUp(250);
    const edited = { ...docs[10]!, data: { title: "Edited title" }, last_publication_date: hoursAfter2024(900) };
    const next = docs.filter((d) => d.id !== docs[20]!.id).map((d) => (d.id === edited.id ? edited : d));
    stub!.setDocuments(next);
    const before = stub!.requests.length;
    const result = await fetchContent(
      { ...options, changedIds: [edited.id, docs[20]!.id] },
      { logger: createMemoryLogger(), sleep: noSleep },
    );
    const searches = stub!.requests.slice(before).filter((r) => r.path.endsWith("/documents/search"));
    // One search for the named ids, one for what was published since, one to count the repository:
    // not three pages of everything.
    expect(searches).toHaveLength(3);
    expect(String(searches[0]!.query.q)).toContain(edited.id);
    expect(String(searches[1]!.query.q)).toContain("date.after(document.last_publication_date");
    expect(result.snapshot.ref).toBe(stub!.ref);
    expect(result.snapshot.documents).toHaveLength(249);
    expect(result.snapshot.documents.find((d) => d.id === edited.id)?.data).toEqual({ title: "Edited title" });
    expect(result.snapshot.documents.some((d) => d.id === docs[20]!.id)).toBe(false);
  });

  it("downloads a new document the webhook did not name (it was published since the snapshot)", async () => {
    const { docs, options } = await setUp(120);
    const added = makeDocument({
      id: "new-one",
      type: "case",
      uid: "new-one",
      data: {},
      date: "2025-02-01T00:00:00+0000",
    });
    stub!.setDocuments([...docs, added]);
    const logger = createMemoryLogger();
    const result = await fetchContent({ ...options, changedIds: [docs[0]!.id] }, { logger, sleep: noSleep });
    expect(result.snapshot.documents).toHaveLength(121);
    expect(result.snapshot.documents.some((d) => d.id === "new-one")).toBe(true);
    expect(logger.lines.some((l) => l.message.includes("fetching everything"))).toBe(false);
  });

  it("falls back to a full fetch when the named documents do not account for the change", async () => {
    const { docs, options } = await setUp(120);
    // Unpublished, and not named: no search can return it, so only the count shows it.
    stub!.setDocuments(docs.filter((d) => d.id !== docs[5]!.id));
    const logger = createMemoryLogger();
    const result = await fetchContent({ ...options, changedIds: [docs[0]!.id] }, { logger, sleep: noSleep });
    expect(result.snapshot.documents).toHaveLength(119);
    expect(result.snapshot.documents.some((d) => d.id === docs[5]!.id)).toBe(false);
    expect(logger.lines.some((l) => l.message.includes("fetching everything"))).toBe(true);
  });

  it("also downloads a document published since the snapshot when the webhook names another one", async () => {
    const { docs, options } = await setUp(150);
    // An editor publishes an FAQ edit; the webhook that arrives names an unrelated document.
    const faq = { ...docs[40]!, data: { title: "FAQ: new answer" }, last_publication_date: "2024-03-05T10:00:00+0000" };
    stub!.setDocuments(docs.map((d) => (d.id === faq.id ? (faq as typeof d) : d)));
    const logger = createMemoryLogger();
    const result = await fetchContent({ ...options, changedIds: [docs[7]!.id] }, { logger, sleep: noSleep });
    expect(result.changed).toBe(true);
    expect(result.snapshot.documents.find((d) => d.id === faq.id)?.data).toEqual({ title: "FAQ: new answer" });
    expect(result.snapshot.documents).toHaveLength(150);
    expect(logger.lines.some((l) => l.message.includes("1 changed that the webhook did not name"))).toBe(true);

    // The snapshot at the new ref holds the edit, so "unchanged" is now the truth.
    const again = await fetchContent(options, { logger: createMemoryLogger(), sleep: noSleep });
    expect(again.changed).toBe(false);
    expect(again.snapshot.documents.find((d) => d.id === faq.id)?.data).toEqual({ title: "FAQ: new answer" });
  });

  it("re-reads documents published within the margin before the snapshot's newest", async () => {
    const { docs, options } = await setUp(30);
    // Published in the same second as the snapshot's newest document (Prismic's dates are in seconds).
    const same = { ...docs[29]!, data: { title: "same second" } };
    stub!.setDocuments(docs.map((d) => (d.id === same.id ? same : d)));
    const result = await fetchContent(
      { ...options, changedIds: ["unrelated-id"] },
      { logger: createMemoryLogger(), sleep: noSleep },
    );
    expect(result.snapshot.documents.find((d) => d.id === same.id)?.data).toEqual({ title: "same second" });
  });

  it("fetches everything when more documents were published since than a partial fetch takes", async () => {
    const { docs, options } = await setUp(620);
    stub!.setDocuments(
      docs.map((d) => ({ ...d, last_publication_date: "2025-01-01T00:00:00+0000" as typeof d.last_publication_date })),
    );
    const logger = createMemoryLogger();
    const result = await fetchContent({ ...options, changedIds: [docs[0]!.id] }, { logger, sleep: noSleep });
    expect(result.snapshot.documents.every((d) => d.last_publication_date.startsWith("2025"))).toBe(true);
    expect(logger.lines.some((l) => l.message.includes("fetching everything"))).toBe(true);
  });
});
