/**
 * Reusing page bodies between builds of one process (src/render/body-cache.ts). After a layout edit
 * the pages are only framed again; after a page template or content edit, the bodies that could
 * differ render again. Every rebuild is compared byte for byte with a build that reused nothing.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cp, mkdtemp, readdir, readFile, rm, symlink, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { tmpdir } from "node:os";
import { createFixture, PROJECT_ROOT, siteFileHashes, type Fixture } from "../support/build-fixture.js";
import { readSnapshot, writeSnapshot } from "../../src/content/snapshot.js";
import { BodyCache, contentVersions } from "../../src/render/body-cache.js";
import { planPages } from "../../src/render/pages.js";
import { createContentGraph } from "../../src/content/graph.js";
import { bodyHashOf } from "../../src/bundle/template-bundle.js";
import { CHANGED_DURING_BUILD } from "../../src/bundle/bundle-cache.js";
import type { RenderedBody } from "../../src/render/render-page.js";
import type { PageEntry } from "../../src/render/pages.js";

/** The templates templates/pages/static-pages.tsx makes (templates/entry.tsx). */
const STATIC_PAGES_TEMPLATES = [
  "404",
  "500",
  "preview",
  "ramadan-calendars",
  "right-to-zakat-draft",
  "styleguide",
  "redirect",
];

let root: string;
let live: Fixture;
const fixtures: Fixture[] = [];
/**
 * The clean builds' work folder, one for all of them: their compiled bundles are kept there, made
 * again for the sources an edit changed (the bundle cache checks every record against its inputs,
 * test/faults/cache-and-snapshot.test.ts). A work folder each compiled every family cold each time
 * (about 1-2.5 s of CPU of the file's 15); what a clean build must not reuse is page bodies, kept
 * by its builder.
 */
let cleanWork: string;

/** A build of the same sources and content into a new folder, by a builder of its own: no body to reuse. */
async function cleanBuild(): Promise<Record<string, string>> {
  const fresh = await createFixture({
    root,
    sample: true,
    contentDir: join(root, "content-cache"),
    workDir: cleanWork,
  });
  fixtures.push(fresh);
  const result = await fresh.run();
  expect(result.bodiesReused).toBe(0);
  return siteFileHashes(fresh.config.outDir);
}

async function edit(file: string, change: (text: string) => string): Promise<void> {
  const path = join(root, file);
  const before = await readFile(path, "utf8");
  const after = change(before);
  expect(after).not.toBe(before);
  await writeFile(path, after);
}

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), "nzf-bodies-"));
  cleanWork = join(root, ".nzf-cache", "clean-builds");
  // With their times: a bundle input modified as a build starts is not trusted (src/bundle/bundle-cache.ts).
  for (const dir of ["templates", "src", "assets", "content-cache/sample"])
    await cp(join(PROJECT_ROOT, dir), join(root, dir), { recursive: true, preserveTimestamps: true });
  await cp(join(PROJECT_ROOT, "package-lock.json"), join(root, "package-lock.json"), { preserveTimestamps: true });
  await symlink(join(PROJECT_ROOT, "node_modules"), join(root, "node_modules"));
  live = await createFixture({ root, sample: true, contentDir: join(root, "content-cache") });
  fixtures.push(live);
  expect((await live.run()).bodiesReused).toBe(0);
}, 120_000);

afterAll(async () => {
  for (const f of fixtures) await f.cleanup();
  await rm(root, { recursive: true, force: true });
});

describe("page bodies kept between builds", { timeout: 120_000 }, () => {
  it("frames every page again after an edit of the layout's words, rendering no body, with the same bytes as a clean build", async () => {
    await edit("templates/i18n/en.ts", (t) => t.replace("Skip to content", "Skip to the main content"));
    const result = await live.run();
    expect(result.pagesRebuilt).toBeGreaterThan(50);
    expect(result.bodiesReused).toBe(result.pages);
    expect(await readFile(join(live.config.outDir, "about/index.html"), "utf8")).toContain("Skip to the main content");
    expect(await siteFileHashes(live.config.outDir)).toEqual(await cleanBuild());
  });

  it("renders again the body of a page whose content changed, framing the rest", async () => {
    const file = join(root, "content-cache/sample/snapshot.json");
    const snapshot = await readSnapshot(file);
    const partner = snapshot.documents.find((d) => d.type === "partner")!;
    (partner.data as { summary: string }).summary = "A summary edited with the layout.";
    await writeSnapshot(file, { ...snapshot, ref: snapshot.ref + "b" });
    await edit("templates/i18n/en.ts", (t) => t.replace("Skip to the main content", "Skip to content"));
    const result = await live.run();
    // The partner's page and /programs/ (which lists partners) read the partner: their bodies render.
    expect(result.pages - result.bodiesReused).toBe(2);
    expect(await readFile(join(live.config.outDir, `partner/${partner.uid}/index.html`), "utf8")).toContain(
      "A summary edited with the layout.",
    );
    expect(await siteFileHashes(live.config.outDir)).toEqual(await cleanBuild());
  });

  it("keeps no body from a build that failed: a secret in the content still stops the next build", async () => {
    const file = join(root, "content-cache/sample/snapshot.json");
    const snapshot = await readSnapshot(file);
    const partner = snapshot.documents.find((d) => d.type === "partner")!;
    const data = partner.data as { body: { type: string; text: string; spans: unknown[] }[] };
    const body = data.body;
    // In the page body only (not in the head's description), so only inspecting the body finds it.
    data.body = [
      ...body,
      { type: "paragraph", text: `Our key is ${"sk_live_"}${"a1B2c3D4e5F6g7H8i9J0k1L2"}`, spans: [] },
    ];
    await writeSnapshot(file, { ...snapshot, ref: snapshot.ref + "s" });
    await expect(live.run()).rejects.toThrow(/secret key or token would be published/);
    // Only the layout changes next: the partner's body must be rendered and inspected again, not reused.
    await edit("templates/i18n/en.ts", (t) => t.replace("Skip to content", "Skip to the content"));
    await expect(live.run()).rejects.toThrow(/secret key or token would be published/);
    data.body = body;
    await writeSnapshot(file, { ...snapshot, ref: snapshot.ref + "t" });
    await live.run();
  });

  it("rewrites only the page a template edit changes: the preview loader on every page stays the same file", async () => {
    await edit("templates/pages/static-pages.tsx", (t) =>
      t.replace("<h1>Ramadan calendars</h1>", "<h1>Ramadan calendars 1448</h1>"),
    );
    const result = await live.run();
    expect(result.pagesRebuilt).toBe(1);
    expect(await readFile(join(live.config.outDir, "ramadan-calendars/index.html"), "utf8")).toContain(
      "Ramadan calendars 1448",
    );
    // Only the bodies of that module's templates render again (the 404, 500, preview, … pages and
    // their Arabic ones); every other page is framed around the body it had.
    const snapshot = await readSnapshot(join(root, "content-cache/sample/snapshot.json"));
    const ownPages = planPages(createContentGraph(snapshot.documents)).filter((p) =>
      STATIC_PAGES_TEMPLATES.includes(p.template),
    ).length;
    expect(ownPages).toBeGreaterThan(0);
    expect(result.pages - result.bodiesReused).toBe(ownPages);
    expect(await siteFileHashes(live.config.outDir)).toEqual(await cleanBuild());
  });

  it("renders every body again after a page template edit", async () => {
    await edit("templates/components/fields.ts", (t) =>
      t.replace(
        'return plain(dataOf(ctx.doc), "title").trim() || fallback ||',
        'return plain(dataOf(ctx.doc), "title").trimEnd().trim() || fallback ||',
      ),
    );
    const result = await live.run();
    expect(result.bodiesReused).toBe(0);
    expect(await siteFileHashes(live.config.outDir)).toEqual(await cleanBuild());
  });
});

describe("the preview bundle at a fixed address", { timeout: 120_000 }, () => {
  it("is published when only preview code changed, pages untouched, and kept as it is otherwise", async () => {
    const previewFile = join(live.config.outDir, "_preview/preview.js");
    const before = await readFile(previewFile, "utf8");
    const loader = (await readdir(join(live.config.outDir, "_islands"))).find((f) => f.startsWith("page-scripts-"));
    await edit("src/preview-app/dialogs.tsx", (t) => t.replace("Fetching preview", "Fetching your preview"));
    const result = await live.run();
    expect(result.published).toBe(true);
    expect(result.pagesRebuilt).toBe(0);
    const after = await readFile(previewFile, "utf8");
    expect(after).not.toBe(before);
    expect(after + (await readAllChunks(join(live.config.outDir, "_preview/chunks")))).toContain(
      "Fetching your preview",
    );
    // The loader every page carries is the same file: it imports the preview by its fixed address.
    expect((await readdir(join(live.config.outDir, "_islands"))).find((f) => f.startsWith("page-scripts-"))).toBe(
      loader,
    );
    expect((await live.run()).published).toBe(false);
  });
});

async function readAllChunks(dir: string): Promise<string> {
  const names = await readdir(dir).catch(() => [] as string[]);
  return (await Promise.all(names.map((n) => readFile(join(dir, n), "utf8")))).join("\n");
}

describe("what a body is made of", () => {
  const sources = (imports: Record<string, string[]>, hashes: Record<string, string> = {}) =>
    Object.fromEntries(
      Object.entries(imports).map(([input, list]) => [input, { hash: hashes[input] ?? "h", imports: list }]),
    );
  const graph = {
    "templates/entry.tsx": ["templates/pages/home.tsx", "templates/components/layout.tsx", "templates/document.ts"],
    "templates/pages/home.tsx": ["templates/components/fields.ts"],
    "templates/components/layout.tsx": ["templates/components/fields.ts", "templates/components/nav.tsx"],
    "templates/document.ts": [],
    "templates/components/fields.ts": [],
    "templates/components/nav.tsx": [],
  };

  it("leaves out the sources only the frame imports", () => {
    const base = bodyHashOf("templates/entry.tsx", sources(graph));
    expect(bodyHashOf("templates/entry.tsx", sources(graph, { "templates/components/layout.tsx": "edited" }))).toBe(
      base,
    );
    expect(bodyHashOf("templates/entry.tsx", sources(graph, { "templates/components/nav.tsx": "edited" }))).toBe(base);
    expect(bodyHashOf("templates/entry.tsx", sources(graph, { "templates/document.ts": "edited" }))).toBe(base);
    // Shared by body and frame, or the body's own: part of the body.
    expect(bodyHashOf("templates/entry.tsx", sources(graph, { "templates/components/fields.ts": "edited" }))).not.toBe(
      base,
    );
    expect(bodyHashOf("templates/entry.tsx", sources(graph, { "templates/pages/home.tsx": "edited" }))).not.toBe(base);
    expect(bodyHashOf("templates/entry.tsx", sources(graph, { "templates/entry.tsx": "edited" }))).not.toBe(base);
  });

  it("gives the bodies of a build whose sources changed while they compiled a key no other build shares", () => {
    // The watch test's editor save: truncated, then written. Two such builds recorded the same marker
    // for the page template, and the second reused the first's bodies, showing an older edit.
    const changing = { "templates/pages/home.tsx": CHANGED_DURING_BUILD };
    const first = bodyHashOf("templates/entry.tsx", sources(graph, changing));
    expect(bodyHashOf("templates/entry.tsx", sources(graph, changing))).not.toBe(first);
    expect(first).not.toBe(bodyHashOf("templates/entry.tsx", sources(graph)));
    // Only the frame's sources changing does not concern the bodies.
    const frameOnly = { "templates/document.ts": CHANGED_DURING_BUILD };
    expect(bodyHashOf("templates/entry.tsx", sources(graph, frameOnly))).toBe(
      bodyHashOf("templates/entry.tsx", sources(graph)),
    );
  });

  it("leaves the other page templates' modules out of one template's bodies", () => {
    const pages = {
      ...graph,
      "templates/entry.tsx": [...graph["templates/entry.tsx"], "templates/pages/faq.tsx"],
      "templates/pages/faq.tsx": ["templates/components/fields.ts", "templates/pages/home.tsx"],
    };
    const pageModules = new Set(["templates/pages/home.tsx", "templates/pages/faq.tsx"]);
    const home = { own: "templates/pages/home.tsx", pageModules };
    const faq = { own: "templates/pages/faq.tsx", pageModules };
    const base = {
      home: bodyHashOf("templates/entry.tsx", sources(pages), home),
      faq: bodyHashOf("templates/entry.tsx", sources(pages), faq),
    };
    const editFaq = sources(pages, { "templates/pages/faq.tsx": "edited" });
    expect(bodyHashOf("templates/entry.tsx", editFaq, home)).toBe(base.home);
    expect(bodyHashOf("templates/entry.tsx", editFaq, faq)).not.toBe(base.faq);
    // The FAQ module imports the home module: an edit of home concerns both.
    const editHome = sources(pages, { "templates/pages/home.tsx": "edited" });
    expect(bodyHashOf("templates/entry.tsx", editHome, home)).not.toBe(base.home);
    expect(bodyHashOf("templates/entry.tsx", editHome, faq)).not.toBe(base.faq);
    // What the entry shares with every template concerns every body.
    const editFields = sources(pages, { "templates/components/fields.ts": "edited" });
    expect(bodyHashOf("templates/entry.tsx", editFields, home)).not.toBe(base.home);
    expect(bodyHashOf("templates/entry.tsx", sources(pages, { "templates/entry.tsx": "edited" }), faq)).not.toBe(
      base.faq,
    );
  });

  it("keeps the layout in when a page template imports it", () => {
    const importing = {
      ...graph,
      "templates/pages/home.tsx": ["templates/components/fields.ts", "templates/components/layout.tsx"],
    };
    const base = bodyHashOf("templates/entry.tsx", sources(importing));
    expect(
      bodyHashOf("templates/entry.tsx", sources(importing, { "templates/components/nav.tsx": "edited" })),
    ).not.toBe(base);
  });

  it("reuses a body only while the content it read keeps its version", () => {
    const state = {
      documents: { a: "1", b: "1", c: "1" },
      types: { a: "case", b: "case", c: "partner" },
      lists: { "list:case|en-au": "L1" },
    };
    const body: RenderedBody = {
      html: "<p>a</p>",
      islands: [],
      islandCount: 0,
      meta: { title: "A" },
      deps: ["id:a", "list:case|en-au", "type:partner"],
      facts: { scripts: [], styles: [] },
    };
    const store = new Map();
    const page = {
      file: "a/index.html",
      path: "/a/",
      lang: "en-au",
      template: "case",
      documentId: "a",
      indexable: true,
      alternates: [],
    } as unknown as PageEntry;
    new BodyCache("k", contentVersions(state), store).set(page, body);
    const at = (changes: Partial<typeof state>, key = "k", entry = page) =>
      new BodyCache(key, contentVersions({ ...state, ...changes }), store).get(entry);
    expect(at({})).toBe(body);
    expect(at({ documents: { ...state.documents, b: "2" } })).toBe(body); // b is not read
    expect(at({ documents: { ...state.documents, a: "2" } })).toBeUndefined();
    expect(at({ documents: { ...state.documents, c: "2" } })).toBeUndefined(); // c is a partner: type:partner
    expect(at({ lists: { "list:case|en-au": "L2" } })).toBeUndefined();
    expect(at({}, "another key")).toBeUndefined();
    // The same file from another template (a landing page taking over a route) is another body.
    expect(at({}, "k", { ...page, template: "landing" } as PageEntry)).toBeUndefined();
  });
});
