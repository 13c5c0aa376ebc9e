/**
 * Incremental builds: a change to one document re-renders exactly the pages that read it, the rest
 * of the site is carried over untouched, and deleted documents lose their pages.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cp, readFile, stat } from "node:fs/promises";
import { join } from "node:path";
import { createFixture, PROJECT_ROOT, type Fixture } from "../support/build-fixture.js";
import { readSnapshot, writeSnapshot, type Snapshot } from "../../src/content/snapshot.js";
import {
  documentHashes,
  changedDependencies,
  createTrackingSession,
  isAffected,
  trackingGraph,
  type Dependency,
} from "../../src/render/dependencies.js";
import { createContentGraph } from "../../src/content/graph.js";
import type { PrismicDocument } from "@prismicio/client";

let fixture: Fixture;
let snapshotFile: string;
let original: Snapshot;

async function edit(change: (docs: PrismicDocument[]) => PrismicDocument[]): Promise<void> {
  const current = await readSnapshot(snapshotFile);
  await writeSnapshot(snapshotFile, {
    ...current,
    ref: `${current.ref}x`,
    documents: change(structuredClone(current.documents)),
  });
}

async function inode(path: string): Promise<number> {
  return (await stat(join(fixture.config.outDir, path))).ino;
}

beforeAll(async () => {
  fixture = await createFixture({ sample: true });
  // Its own copy of the sample content, so the test can edit it.
  fixture.config.contentDir = join(fixture.dir, "content-cache");
  await cp(join(PROJECT_ROOT, "content-cache/sample"), join(fixture.config.contentDir, "sample"), { recursive: true });
  snapshotFile = join(fixture.config.contentDir, "sample/snapshot.json");
  original = await readSnapshot(snapshotFile);
  await fixture.run();
});

afterAll(async () => {
  await fixture?.cleanup();
});

describe("the dependency record", () => {
  it("records documents read by id and listings read by type", () => {
    const docs = [
      { id: "a", type: "case", uid: "a", lang: "en-au", data: {} },
      { id: "g", type: "global", uid: null, lang: "en-au", data: {} },
    ] as unknown as PrismicDocument[];
    const deps = new Set<Dependency>();
    const graph = trackingGraph(createContentGraph(docs), deps);
    graph.byId("a");
    graph.single("global");
    graph.all("program");
    graph.resolveLink({ link_type: "Document", id: "zzz", type: "case", uid: "z" });
    expect([...deps].sort()).toEqual(["id:a", "id:g", "list:case|en-au", "list:global|en-au", "list:program|en-au"]);
  });

  it("records a listed document only when the page reads its content", () => {
    const docs = [
      { id: "a", type: "case", uid: "a", lang: "en-au", data: { title: "A" } },
      { id: "b", type: "case", uid: "b", lang: "en-au", data: {} },
    ] as unknown as PrismicDocument[];
    const deps = new Set<Dependency>();
    const list = trackingGraph(createContentGraph(docs), deps).all("case");
    expect(list.map((d) => d.uid)).toEqual(["a", "b"]);
    expect([...deps]).toEqual(["list:case|en-au"]);
    expect((list[0]!.data as { title: string }).title).toBe("A");
    expect([...deps].sort()).toEqual(["id:a", "list:case|en-au"]);
  });

  it("finds changed, added and removed documents, their types and changed lists", () => {
    const changed = changedDependencies(
      {
        documents: { a: "1", b: "2", c: "3" },
        types: { a: "case", b: "case", c: "program" },
        lists: { "list:case|en-au": "x", "list:program|en-au": "p" },
      },
      {
        documents: { a: "1", b: "9", d: "4" },
        types: { a: "case", b: "case", d: "partner" },
        lists: { "list:case|en-au": "x", "list:partner|en-au": "q" },
      },
    );
    expect([...changed].sort()).toEqual([
      "id:b",
      "id:c",
      "id:d",
      "list:partner|en-au",
      "list:program|en-au",
      "type:case",
      "type:partner",
      "type:program",
    ]);
    expect(isAffected(["id:x", "type:case"], changed)).toBe(true);
    // Listing cases is not affected when only a case's text changed.
    expect(isAffected(["id:a", "list:case|en-au"], changed)).toBe(false);
  });

  it("replays what a shared value read into every page that uses it", () => {
    const docs = [
      { id: "g", type: "global", uid: null, lang: "en-au", data: { site_name: "NZF" } },
    ] as unknown as PrismicDocument[];
    const session = createTrackingSession(createContentGraph(docs));
    let computed = 0;
    const renderPage = (deps: Set<Dependency>) => {
      const graph = session.graphFor(deps);
      return session.memo("frame", () => {
        computed++;
        return (graph.single("global")!.data as { site_name: string }).site_name;
      });
    };
    const [first, second] = [new Set<Dependency>(), new Set<Dependency>()];
    expect(renderPage(first)).toBe("NZF");
    expect(renderPage(second)).toBe("NZF");
    expect(computed).toBe(1);
    expect([...second].sort()).toEqual(["id:g", "list:global|en-au"]);
    expect([...second].sort()).toEqual([...first].sort());
  });

  it("hashes documents by their whole content", () => {
    const [a, b] = [
      { id: "a", data: { t: 1 } },
      { id: "a", data: { t: 2 } },
    ] as unknown as PrismicDocument[];
    expect(documentHashes([a!]).a).not.toBe(documentHashes([b!]).a);
  });
});

describe("an incremental rebuild", () => {
  it("after one blog article changes, re-renders only the pages that show it", async () => {
    const article = original.documents.find((d) => d.type === "blog_article")!;
    const untouched = ["about/index.html", "faq/index.html", "pay/zakat/index.html", "index.html"];
    const before = await Promise.all(untouched.map(inode));
    await edit((docs) => {
      const doc = docs.find((d) => d.id === article.id)!;
      (doc.data as { excerpt: string }).excerpt = "An excerpt changed by the incremental test.";
      return docs;
    });
    const result = await fixture.run();
    expect(result.published).toBe(true);
    // The article itself, /learn/ (shows every excerpt) and the articles whose "More to read" shows it.
    expect(result.pagesRebuilt).toBeGreaterThan(1);
    expect(result.pagesRebuilt).toBeLessThanOrEqual(10);
    const html = await readFile(join(fixture.config.outDir, "blog", article.uid!, "index.html"), "utf8");
    expect(html).toContain("An excerpt changed by the incremental test.");
    expect(await readFile(join(fixture.config.outDir, "learn/index.html"), "utf8")).toContain(
      "An excerpt changed by the incremental test.",
    );
    // Pages that do not show the article are the same files as before (carried over as links).
    expect(await Promise.all(untouched.map(inode))).toEqual(before);
  });

  it("a change to the global document re-renders every page", async () => {
    await edit((docs) => {
      // Each language has its global document; every page reads its own language's.
      for (const global of docs.filter((d) => d.type === "global"))
        (global.data as { contact_phone: string }).contact_phone = "1300 000 111";
      return docs;
    });
    const result = await fixture.run();
    expect(result.pagesRebuilt).toBeGreaterThan(result.pages - 6);
    expect(await readFile(join(fixture.config.outDir, "about/index.html"), "utf8")).toContain("1300 000 111");
  });

  it("a deleted case loses its page and leaves the cases list", async () => {
    const gone = original.documents.filter((d) => d.type === "case").at(-1)!;
    await edit((docs) => {
      const rest = docs.filter((d) => d.id !== gone.id);
      // Nothing may link to a deleted document any more (Prismic marks such links broken).
      return JSON.parse(
        JSON.stringify(rest).replaceAll(`"id":"${gone.id}"`, `"id":"${gone.id}","isBroken":true`),
      ) as PrismicDocument[];
    });
    await fixture.run();
    await expect(stat(join(fixture.config.outDir, "case", gone.uid!, "index.html"))).rejects.toMatchObject({
      code: "ENOENT",
    });
    expect(await readFile(join(fixture.config.outDir, "cases/index.html"), "utf8")).not.toContain(`/case/${gone.uid}/`);
  });

  it("with nothing changed, publishes nothing", async () => {
    const result = await fixture.run();
    expect(result.published).toBe(false);
    expect(result.pagesRebuilt).toBe(0);
  });
});
