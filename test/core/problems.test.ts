/**
 * Content and source problems are named, never swallowed, through the real build: a template that
 * throws is named by its file and line (through the template bundle's source map), with the
 * document and the output page, in the build's thread and in render workers; an island's syntax
 * error is the island's; hostile links, a missing title and a missing uid are warnings naming the
 * document, type and field, and no page ships a javascript: URL or an empty <h1>.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { mkdir, readFile, symlink, writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { PrismicDocument } from "@prismicio/client";
import { createFixture, PROJECT_ROOT, type Fixture } from "../support/build-fixture.js";
import { copyProject, type ProjectCopy } from "../support/project-copy.js";
import { readSnapshot, writeSnapshot, type Snapshot } from "../../src/content/snapshot.js";
import { NzfAggregateError, NzfError } from "../../src/core/errors.js";
import { isCI } from "../../src/core/warnings.js";

const fixtures: Fixture[] = [];
const copies: ProjectCopy[] = [];
let sample: Snapshot;

beforeAll(async () => {
  sample = await readSnapshot(join(PROJECT_ROOT, "content-cache/sample/snapshot.json"));
});

afterAll(async () => {
  await Promise.all([...fixtures.map((f) => f.cleanup()), ...copies.map((c) => c.cleanup())]);
});

async function projectCopy(): Promise<ProjectCopy> {
  const copy = await copyProject();
  copies.push(copy);
  return copy;
}

/** A fixture building the sample content from `root` (a project copy by default the project itself). */
async function fixture(root = PROJECT_ROOT, builder: Parameters<typeof createFixture>[2] = {}): Promise<Fixture> {
  const f = await createFixture({ sample: true, root, contentDir: join(PROJECT_ROOT, "content-cache") }, {}, builder);
  fixtures.push(f);
  return f;
}

async function failureOf(run: Promise<unknown>): Promise<NzfError[]> {
  const error = await run.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(NzfError);
  return error instanceof NzfAggregateError ? (error.errors as NzfError[]) : [error as NzfError];
}

describe("a template that throws", () => {
  let copy: ProjectCopy;
  let line: number;
  const partners = () => sample.documents.filter((d) => d.type === "partner");

  beforeAll(async () => {
    copy = await projectCopy();
    const file = join(copy.root, "templates/pages/collections.tsx");
    const source = await readFile(file, "utf8");
    const anchor =
      'export const partner: Template = {\n  meta: (ctx) => metaFromSeo(ctx, "", ["logo"]),\n  Body({ ctx }) {\n';
    expect(source).toContain(anchor);
    const at = source.indexOf(anchor) + anchor.length;
    line = source.slice(0, at).split("\n").length;
    await writeFile(
      file,
      source.slice(0, at) + "    const first = (ctx.doc!.data as any).no_such_group[0];\n" + source.slice(at),
    );
  });

  const expectNamed = (failures: NzfError[]) => {
    expect(partners().length).toBeGreaterThan(1);
    expect(failures).toHaveLength(partners().length);
    for (const doc of partners()) {
      const failure = failures.find((e) => e.subject === `partner/${doc.uid}/index.html`)!;
      expect(failure, `a failure for partner ${doc.id}`).toBeDefined();
      expect(failure.code).toBe("RENDER_FAILED");
      expect(failure.message).toMatch(
        new RegExp(
          `^templates/pages/collections\\.tsx:${line}:\\d+ threw while rendering document ${doc.id} \\(partner\\) for /partner/${doc.uid}/: TypeError: Cannot read properties of undefined`,
        ),
      );
      expect(failure.hint).toContain(`Fix templates/pages/collections.tsx line ${line}`);
      expect(failure.hint).toContain("The document itself is not at fault");
    }
  };

  it("is named by template file and line, document and output page, in the build's thread", async () => {
    const f = await fixture(copy.root, { render: { workersFromPages: Number.POSITIVE_INFINITY } });
    expectNamed(await failureOf(f.run()));
  });

  it("and in render workers", async () => {
    const f = await fixture(copy.root, { render: { workersFromPages: 1 } });
    expectNamed(await failureOf(f.run()));
  });
});

describe("a stylesheet with a syntax error", () => {
  afterEach(() => {
    vi.unstubAllEnvs();
  });

  it("is a warning naming file and line at a desk, and stops the build in CI", async () => {
    const copy = await projectCopy();
    const file = join(copy.root, "templates/styles/site.css");
    const source = await readFile(file, "utf8");
    const line = source.split("\n").length;
    await writeFile(file, `${source}.broken { color: red;\n`);

    vi.stubEnv("CI", "");
    const desk = await fixture(copy.root);
    await desk.run();
    const warnings = desk.logger.lines.filter((l) => l.level === "warn" && l.label === "styles").map((l) => l.message);
    expect(warnings).toEqual([
      `[STYLESHEET_INVALID] templates/styles/site.css:${line + 1}:1: Expected "}" to go with "{"; The unbalanced "{" is here templates/styles/site.css:${line}:9`,
    ]);

    vi.stubEnv("CI", "true");
    const ci = await fixture(copy.root);
    const [failure] = await failureOf(ci.run());
    expect(failure!.code).toBe("STYLESHEET_INVALID");
    expect(failure!.message).toContain(`templates/styles/site.css:${line}:9`);
    await expect(readFile(join(ci.config.outDir, "index.html"))).rejects.toThrow();
  });

  it("CI counts as set unless empty, 0 or false", () => {
    expect([undefined, "", "0", "false", "FALSE"].map((CI) => isCI({ CI }))).toEqual([
      false,
      false,
      false,
      false,
      false,
    ]);
    expect(["true", "1", "yes", "woodpecker"].map((CI) => isCI({ CI }))).toEqual([true, true, true, true]);
  });
});

describe("an island with a syntax error", () => {
  it("is reported as the island's, by its file and line, not as a template error", async () => {
    const copy = await projectCopy();
    const file = join(copy.root, "src/client/islands/faq-filter.tsx");
    const source = await readFile(file, "utf8");
    const line = source.split("\n").length + 1;
    await writeFile(file, `${source}\nconst broken = {;\n`);
    const [failure, ...more] = await failureOf((await fixture(copy.root)).run());
    expect(more).toEqual([]);
    expect(failure!.code).toBe("ISLAND_COMPILE_FAILED");
    expect(failure!.subject).toBe("src/client/islands/faq-filter.tsx");
    expect(failure!.message).toMatch(
      new RegExp(
        `^The island src/client/islands/faq-filter\\.tsx did not compile:\n  src/client/islands/faq-filter\\.tsx:${line}:\\d+: `,
      ),
    );
  });
});

describe("hostile links and missing fields in the content", () => {
  it("are dropped or given a fallback, and each is warned about by document, type and field", async () => {
    const f = await createFixture({ repository: "nzf-problems" });
    fixtures.push(f);
    const contentDir = join(f.dir, "content-cache");
    f.config.contentDir = contentDir;
    f.config.content = "fetched";
    await mkdir(join(contentDir, "nzf-problems"), { recursive: true });
    await symlink(join(PROJECT_ROOT, "content-cache/sample/images"), join(contentDir, "nzf-problems", "images"));

    const docs = structuredClone(sample.documents) as PrismicDocument[];
    const [article, untitled] = docs.filter((d) => d.type === "blog_article");
    const partner = docs.find((d) => d.type === "partner")!;
    const orphan = docs.find((d) => d.type === "case")!;
    const orphanUid = orphan.uid;
    (article!.data as any).body.unshift({
      type: "paragraph",
      text: "Read our guide now",
      spans: [
        { start: 9, end: 14, type: "hyperlink", data: { link_type: "Web", url: "javascript:alert(document.cookie)" } },
      ],
    });
    (partner.data as any).website = { link_type: "Web", url: " JavaScript:alert(1)" };
    (untitled!.data as any).title = [];
    orphan.uid = null as never;
    await writeSnapshot(join(contentDir, "nzf-problems", "snapshot.json"), {
      ...sample,
      repository: "nzf-problems",
      documents: docs,
    });

    await f.run();
    const warnings = f.logger.lines.filter((l) => l.level === "warn" && l.label === "content").map((l) => l.message);
    expect(warnings).toContain(
      `[UNSAFE_URL] Document ${article!.id} (blog_article), field body[0].spans[0].data: a javascript: URL was dropped (its text is kept without the link)`,
    );
    expect(warnings).toContain(
      `[UNSAFE_URL] Document ${partner.id} (partner), field website: a javascript: URL was dropped (its text is kept without the link)`,
    );
    expect(
      warnings.some((w) =>
        w.startsWith(
          `[DOCUMENT_FIELD_MISSING] Document ${untitled!.id} (blog_article) has no title: its page /blog/${untitled!.uid}/ shows "`,
        ),
      ),
    ).toBe(true);
    expect(warnings).toContain(
      `[DOCUMENT_UID_MISSING] Document ${orphan.id} (case) has no uid, so it has no address: it is not published`,
    );
    expect(warnings.filter((w) => w.startsWith("  hint (UNSAFE_URL)"))).toHaveLength(1);

    const out = f.config.outDir;
    const articleHtml = await readFile(join(out, "blog", article!.uid!, "index.html"), "utf8");
    expect(articleHtml).toContain("<p>Read our guide now</p>");
    const partnerHtml = await readFile(join(out, "partner", partner.uid!, "index.html"), "utf8");
    expect(partnerHtml).not.toContain("website</a>");
    const untitledHtml = await readFile(join(out, "blog", untitled!.uid!, "index.html"), "utf8");
    expect(untitledHtml).not.toContain("<h1></h1>");
    const words = untitled!.uid!.replace(/-/g, " ");
    expect(untitledHtml).toContain(`<h1>${words[0]!.toUpperCase()}${words.slice(1)}</h1>`);
    await expect(readFile(join(out, "case", orphanUid!, "index.html"))).rejects.toThrow();

    const fg = (await import("fast-glob")).default;
    const pages = await fg("**/*.html", { cwd: out });
    for (const page of pages) expect(await readFile(join(out, page), "utf8"), page).not.toMatch(/javascript:/i);
  });
});
