/**
 * A snapshot read on demand (src/content/snapshot-on-demand.ts): the same documents, byte for byte
 * through JSON.stringify, as readSnapshot gives, in the same graph order, with `data` parsed only
 * when read; and null for anything it does not read, so the caller falls back to readSnapshot.
 */
import { afterAll, describe, expect, it, vi } from "vitest";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { readSnapshot, writeSnapshot } from "../../src/content/snapshot.js";
import { readSnapshotOnDemand } from "../../src/content/snapshot-on-demand.js";
import { createContentGraph } from "../../src/content/graph.js";
import { listSignatures } from "../../src/render/dependencies.js";
import { PROJECT_ROOT } from "../support/build-fixture.js";
import { syntheticDocuments } from "../../bench/synthetic.js";

const dirs: string[] = [];
afterAll(async () => {
  await Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true })));
});

async function written(name: string, text?: string) {
  const dir = await mkdtemp(join(tmpdir(), "nzf-on-demand-"));
  dirs.push(dir);
  const file = join(dir, name);
  if (text !== undefined) await writeFile(file, text);
  return file;
}

describe("reading a snapshot on demand", () => {
  it("gives the documents readSnapshot gives, in the same order, with the same lists", async () => {
    const sample = await readSnapshot(join(PROJECT_ROOT, "content-cache/sample/snapshot.json"));
    const file = await written("snapshot.json");
    // Over the 512 data objects kept, so some are parsed again after they went.
    await writeSnapshot(file, { ...sample, documents: syntheticDocuments(sample.documents, 1200) });
    const whole = await readSnapshot(file);
    const visited: string[] = [];
    const onDemand = await readSnapshotOnDemand(file, (doc) => visited.push(JSON.stringify(doc)));
    expect(onDemand).not.toBeNull();
    expect(onDemand!.ref).toBe(whole.ref);
    expect(onDemand!.languages).toEqual(whole.languages);
    expect(onDemand!.documents.length).toBe(1200);
    for (const [i, doc] of onDemand!.documents.entries()) {
      expect(JSON.stringify(doc)).toBe(JSON.stringify(whole.documents[i]));
      expect(Object.keys(doc)).toEqual(Object.keys(whole.documents[i]!));
    }
    const a = createContentGraph(whole.documents, whole.languages);
    const b = createContentGraph(onDemand!.documents, onDemand!.languages);
    for (const type of ["blog_article", "case", "program"])
      expect(b.all(type).map((d) => d.id)).toEqual(a.all(type).map((d) => d.id));
    expect(listSignatures(b)).toEqual(listSignatures(a));
    // Each document whole, once, in order, while the file was read (the plan's checks).
    expect(visited).toEqual(whole.documents.map((d) => JSON.stringify(d)));
  });

  it("parses a document's data when it is read, and again after it was let go", async () => {
    const file = await written(
      "snapshot.json",
      '{"format":1,"repository":"r","ref":"x","languages":["en-au"],"documents":[\n' +
        '{"id":"a","type":"page","lang":"en-au","data":{"published":"2024-01-01","title":"A"}},\n' +
        '{"id":"b","type":"page","lang":"en-au","data":{"published":"2025-01-01","title":"B"}}\n]}\n',
    );
    const onDemand = await readSnapshotOnDemand(file);
    expect(onDemand!.documents.map((d) => d.id)).toEqual(["a", "b"]);
    const [a] = onDemand!.documents;
    expect(a!.data).toEqual({ published: "2024-01-01", title: "A" });
    // Kept while recently read: the same object for every read of one page.
    expect(a!.data).toBe(a!.data);
    // Sorted by `published` without parsing: newest first.
    const graph = createContentGraph(onDemand!.documents);
    expect(graph.all("page").map((d) => d.id)).toEqual(["b", "a"]);
  });

  it("keeps a document's small fields and reads a large one from the file only when a page reads it", async () => {
    const body = Array.from({ length: 100 }, (_, n) => ({ type: "paragraph", text: `Paragraph ${n}`, spans: [] }));
    const doc = {
      id: "c",
      type: "case",
      lang: "en-au",
      data: { title: [{ type: "heading1", text: "A case", spans: [] }], summary: "Short", body, location: "Perth" },
    };
    const file = await written(
      "snapshot.json",
      `{"format":1,"repository":"r","ref":"x","languages":["en-au"],"documents":[\n${JSON.stringify(doc)}\n]}\n`,
    );
    const onDemand = await readSnapshotOnDemand(file);
    const parse = vi.spyOn(JSON, "parse");
    try {
      const data = onDemand!.documents[0]!.data as typeof doc.data;
      // What a listing's card reads: no parse.
      expect([data.title[0]!.text, data.summary, data.location]).toEqual(["A case", "Short", "Perth"]);
      expect(parse).not.toHaveBeenCalled();
      // The case's own page reads its body: one parse of its line.
      expect(data.body).toEqual(body);
      expect(parse).toHaveBeenCalledTimes(1);
      expect(JSON.stringify(onDemand!.documents[0])).toBe(JSON.stringify(doc));
      expect(Object.keys(data)).toEqual(["title", "summary", "body", "location"]);
    } finally {
      parse.mockRestore();
    }
  });

  it("reads the empty snapshot snapshotText writes", async () => {
    const file = await written("snapshot.json");
    await writeSnapshot(file, { format: 1, repository: "r", ref: "x", languages: ["en-au"], documents: [] });
    expect((await readSnapshotOnDemand(file))?.documents).toEqual([]);
  });

  it("gives null for another layout or a broken file, for readSnapshot to report", async () => {
    const pretty = await written(
      "pretty.json",
      JSON.stringify({ format: 1, ref: "x", languages: [], documents: [] }, null, 1),
    );
    const cut = await written(
      "cut.json",
      '{"format":1,"ref":"x","languages":[],"documents":[\n{"id":"a","type":"p","lang":"en-au","data":{}},\n',
    );
    const bad = await written("bad.json", '{"format":1,"ref":"x","languages":[],"documents":[\n{"id":"a",\n]}\n');
    const notDocument = await written(
      "not.json",
      '{"format":1,"ref":"x","languages":[],"documents":[\n{"id":"a"}\n]}\n',
    );
    const format = await written("format.json", '{"format":2,"ref":"x","languages":[],"documents":[\n\n]}\n');
    for (const file of [pretty, cut, bad, notDocument, format]) expect(await readSnapshotOnDemand(file)).toBeNull();
  });
});
