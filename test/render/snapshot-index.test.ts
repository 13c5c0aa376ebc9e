/**
 * A snapshot's index (src/render/snapshot-index.ts): read through it, the same documents byte for
 * byte through JSON.stringify as readSnapshot gives, the same graph, a body parsed only when read;
 * and no index for another version of the file, another layout or a damaged index. Beside it, the
 * documents' facts, kept for the snapshot and the worker that found them.
 */
import { afterAll, describe, expect, it, vi } from "vitest";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { readSnapshot, writeSnapshot, type Snapshot } from "../../src/content/snapshot.js";
import { createContentGraph } from "../../src/content/graph.js";
import { readSnapshotOnDemand } from "../../src/content/snapshot-on-demand.js";
import { identityOf } from "../../src/core/fs.js";
import { listSignatures } from "../../src/render/dependencies.js";
import {
  keepDocumentFacts,
  keepFound,
  keepSnapshotIndex,
  keptDocumentFacts,
  keptFound,
  readIndexedSnapshot,
} from "../../src/render/snapshot-index.js";
import { NzfError } from "../../src/core/errors.js";
import { PROJECT_ROOT } from "../support/build-fixture.js";
import { syntheticDocuments } from "../../bench/synthetic.js";

const dirs: string[] = [];
afterAll(async () => {
  await Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true })));
});

async function folder(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), "nzf-snapshot-index-"));
  dirs.push(dir);
  return dir;
}

/** A snapshot of `count` synthetic documents written as snapshotText lays it out, and its index. */
async function indexed(count: number) {
  const dir = await folder();
  const sample = await readSnapshot(join(PROJECT_ROOT, "content-cache/sample/snapshot.json"));
  const file = join(dir, "snapshot.json");
  await writeSnapshot(file, { ...sample, documents: syntheticDocuments(sample.documents, count) });
  const whole = await readSnapshot(file);
  const identity = (await identityOf(file))!;
  const index = join(dir, "snapshot-index.json");
  keepSnapshotIndex(index, file, identity, whole);
  return { dir, file, whole, identity, index };
}

describe("a snapshot read through its index", () => {
  it("gives the documents readSnapshot gives, in the same order, with the same lists", async () => {
    // Over the 512 data objects kept, so some bodies are parsed again after they went.
    const { file, whole, identity, index } = await indexed(1200);
    const read = readIndexedSnapshot(index, file, identity);
    expect(read).not.toBeNull();
    expect(read!.ref).toBe(whole.ref);
    expect(read!.languages).toEqual(whole.languages);
    expect(read!.documents.length).toBe(1200);
    for (const [i, doc] of read!.documents.entries()) {
      expect(JSON.stringify(doc)).toBe(JSON.stringify(whole.documents[i]));
      expect(Object.keys(doc.data)).toEqual(Object.keys(whole.documents[i]!.data));
    }
    const a = createContentGraph(whole.documents, whole.languages);
    const b = createContentGraph(read!.documents, read!.languages);
    for (const type of ["blog_article", "case", "program"])
      expect(b.all(type).map((d) => d.id)).toEqual(a.all(type).map((d) => d.id));
    expect(listSignatures(b)).toEqual(listSignatures(a));
  });

  it("is the same made from a snapshot read on demand, whose large fields it does not read", async () => {
    const { dir, file, whole, identity, index } = await indexed(300);
    const onDemand = (await readSnapshotOnDemand(file))!;
    const again = join(dir, "from-on-demand.json");
    const parse = vi.spyOn(JSON, "parse");
    try {
      keepSnapshotIndex(again, file, identity, onDemand);
      expect(parse).not.toHaveBeenCalled();
    } finally {
      parse.mockRestore();
    }
    expect(await readFile(again, "utf8")).toBe(await readFile(index, "utf8"));
    const read = readIndexedSnapshot(again, file, identity)!;
    expect(read.documents.map((d) => JSON.stringify(d))).toEqual(whole.documents.map((d) => JSON.stringify(d)));
  });

  it("is about a tenth of the snapshot, and parses a body only when a page reads it", async () => {
    const { file, whole, identity, index } = await indexed(200);
    const [indexBytes, fileBytes] = await Promise.all([readFile(index), readFile(file)]);
    expect(indexBytes.length).toBeLessThan(fileBytes.length / 4);
    const read = readIndexedSnapshot(index, file, identity)!;
    const at = whole.documents.findIndex((d) => d.type === "case");
    const data = read.documents[at]!.data as Record<string, unknown>;
    const parse = vi.spyOn(JSON, "parse");
    try {
      expect(data.title).toEqual(whole.documents[at]!.data.title);
      expect(parse).not.toHaveBeenCalled();
      expect(data.body).toEqual(whole.documents[at]!.data.body);
      expect(parse).toHaveBeenCalledTimes(1);
    } finally {
      parse.mockRestore();
    }
  });

  it("is not used for another version of the file, nor when damaged", async () => {
    const { file, whole, identity, index } = await indexed(20);
    // The file replaced by another snapshot: its identity moved, whatever the index says.
    const edited: Snapshot = { ...whole, documents: whole.documents.slice(1) };
    await writeSnapshot(file, edited);
    expect(readIndexedSnapshot(index, file, identity)).toBeNull();
    expect(readIndexedSnapshot(index, file, (await identityOf(file))!)).toBeNull();

    const again = await indexed(20);
    const text = await readFile(again.index, "utf8");
    await writeFile(again.index, text.replace('"format":1', '"format":2'));
    expect(readIndexedSnapshot(again.index, again.file, again.identity)).toBeNull();
    expect(readIndexedSnapshot(join(again.dir, "none.json"), again.file, again.identity)).toBeNull();
  });

  it("is not made for a snapshot laid out otherwise (indented)", async () => {
    const dir = await folder();
    const file = join(dir, "snapshot.json");
    const snapshot = await readSnapshot(join(PROJECT_ROOT, "content-cache/sample/snapshot.json"));
    await writeFile(file, JSON.stringify(snapshot, null, 2));
    const index = join(dir, "snapshot-index.json");
    keepSnapshotIndex(index, file, (await identityOf(file))!, snapshot);
    await expect(readFile(index)).rejects.toMatchObject({ code: "ENOENT" });
  });
});

describe("the documents' facts kept beside the index", () => {
  const facts = {
    priceErrors: [],
    images: [{ url: "https://images.prismic.io/x.png", documentId: "a", field: "image", alt: null }],
    problems: [
      { code: "UNSAFE_URL" as const, documentId: "a", type: "case", field: "body[0]", message: "a javascript: URL" },
    ],
  };

  it("are given back for the same snapshot and worker only", async () => {
    const file = join(await folder(), "snapshot-facts.json");
    keepDocumentFacts(file, "1:2:3:4", "render-worker-aaa.mjs", facts);
    expect(keptDocumentFacts(file, "1:2:3:4", "render-worker-aaa.mjs")).toEqual(facts);
    expect(keptDocumentFacts(file, "1:2:3:5", "render-worker-aaa.mjs")).toBeNull();
    expect(keptDocumentFacts(file, "1:2:3:4", "render-worker-bbb.mjs")).toBeNull();
  });

  it("are kept as any value found from the snapshot is (the plan), for the same snapshot and worker only", async () => {
    const file = join(await folder(), "snapshot-plan.json");
    keepFound(file, "1:2:3:4", "render-worker-aaa.mjs", { pages: ["/"] });
    expect(keptFound(file, "1:2:3:4", "render-worker-aaa.mjs")).toEqual({ pages: ["/"] });
    expect(keptFound(file, "1:2:3:4", "render-worker-aaa.mjs|facts:true")).toBeNull();
    await writeFile(file, (await readFile(file, "utf8")).replace("pages", "pagez"));
    expect(keptFound(file, "1:2:3:4", "render-worker-aaa.mjs")).toBeNull();
  });

  it("are not kept when a price stops the build", async () => {
    const file = join(await folder(), "snapshot-facts.json");
    keepDocumentFacts(file, "1:2:3:4", "w.mjs", {
      ...facts,
      priceErrors: [new NzfError("CONTENT_PRICE_INVALID", "x")],
    });
    expect(keptDocumentFacts(file, "1:2:3:4", "w.mjs")).toBeNull();
  });
});
