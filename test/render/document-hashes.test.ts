/**
 * snapshotDocumentHashes keeps the documents' hashes in the work folder by the snapshot file's
 * identity: a new process building the same snapshot does not hash every document again, and a
 * different snapshot (or a damaged file) never reuses them.
 */
import { createHash } from "node:crypto";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { PrismicDocument } from "@prismicio/client";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { documentHashesKept, snapshotDocumentHashes } from "../../src/render/dependencies.js";
import { readCacheJson, writeCacheJson } from "../support/cache-entry.js";

let workDir: string;
beforeEach(async () => {
  workDir = await mkdtemp(join(tmpdir(), "nzf-hashes-"));
});
afterEach(async () => {
  await documentHashesKept();
  await rm(workDir, { recursive: true, force: true });
});

const doc = (id: string, title: string) => ({ id, type: "page", data: { title } }) as unknown as PrismicDocument;
/** The hash as the build defines it, computed here: sha1 of the document's JSON, 16 hex digits. */
const expected = (d: PrismicDocument) => createHash("sha1").update(JSON.stringify(d)).digest("hex").slice(0, 16);

describe("snapshotDocumentHashes", () => {
  it("hashes each document's content, and keeps the hashes under the snapshot's identity", async () => {
    const docs = [doc("a", "One"), doc("b", "Two")];
    expect(await snapshotDocumentHashes(docs, { identity: "1:10:5:5" }, workDir)).toEqual({
      a: expected(docs[0]!),
      b: expected(docs[1]!),
    });
    await documentHashesKept();
    expect((await readCacheJson(join(workDir, "document-hashes.json"))).identity).toBe("1:10:5:5");
  });

  it("reuses kept hashes for the same identity (fresh objects, as a new process reads them)", async () => {
    await snapshotDocumentHashes([doc("a", "One")], { identity: "same" }, workDir);
    await documentHashesKept();
    // A planted value shows the kept hash was used, not a new one.
    await writeCacheJson(join(workDir, "document-hashes.json"), { identity: "same", hashes: { a: "kept" } });
    expect(await snapshotDocumentHashes([doc("a", "One")], { identity: "same" }, workDir)).toEqual({ a: "kept" });
  });

  it("hashes again for another identity, a document the kept file lacks, or a damaged file", async () => {
    await writeCacheJson(join(workDir, "document-hashes.json"), { identity: "old", hashes: { a: "kept" } });
    const a = doc("a", "Edited");
    expect(await snapshotDocumentHashes([a], { identity: "new" }, workDir)).toEqual({ a: expected(a) });
    await documentHashesKept();
    await writeCacheJson(join(workDir, "document-hashes.json"), { identity: "new", hashes: { a: "kept" } });
    const b = doc("b", "Added");
    expect((await snapshotDocumentHashes([doc("a", "Edited"), b], { identity: "new" }, workDir)).b).toBe(expected(b));
    await documentHashesKept();
    await writeFile(join(workDir, "document-hashes.json"), "{ not json");
    const c = doc("c", "Three");
    expect(await snapshotDocumentHashes([c], { identity: "new" }, workDir)).toEqual({ c: expected(c) });
  });
});
