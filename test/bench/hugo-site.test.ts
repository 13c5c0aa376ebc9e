/**
 * The Hugo side of `npm run bench -- hugo` writes the synthetic articles as Markdown that Hugo turns
 * into the same HTML as nzf-build's rich text: bold and links where the spans are, tight lists.
 */
import { afterAll, describe, expect, it } from "vitest";
import { mkdtemp, readFile, readdir, rm } from "node:fs/promises";
import { join } from "node:path";
import { tmpdir } from "node:os";
import { markdownBlock, writeHugoSite } from "../../bench/hugo-site.js";
import { syntheticDocuments } from "../../bench/synthetic.js";
import { readSnapshot } from "../../src/content/snapshot.js";
import { PROJECT_ROOT } from "../support/build-fixture.js";

const dirs: string[] = [];
afterAll(() => Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true }))));

describe("bench/hugo-site.ts", () => {
  it("writes a span's bold and its link to another document as Markdown, in place", () => {
    const block = {
      type: "paragraph",
      text: "Zakat is due on wealth held a year.",
      spans: [
        { start: 16, end: 22, type: "hyperlink", data: { type: "case", uid: "case-00001" } },
        { start: 0, end: 5, type: "strong" },
      ],
    };
    expect(markdownBlock(block)).toBe("**Zakat** is due on [wealth](/case/case-00001/) held a year.");
    expect(markdownBlock({ type: "heading2", text: "Who pays", spans: [] })).toBe("## Who pays");
    expect(markdownBlock({ type: "list-item", text: "Gold", spans: [] })).toBe("- Gold");
  });

  it("writes one Markdown file per article and case, with the front matter the templates read", async () => {
    const sample = await readSnapshot(join(PROJECT_ROOT, "content-cache/sample/snapshot.json"));
    const documents = syntheticDocuments(sample.documents, 200);
    const dir = await mkdtemp(join(tmpdir(), "nzf-hugo-site-"));
    dirs.push(dir);
    const pages = await writeHugoSite(dir, documents);
    const articles = documents.filter((d) => d.type === "blog_article").length;
    const cases = documents.filter((d) => d.type === "case").length;
    expect(pages).toBe(articles + cases);
    expect((await readdir(join(dir, "content/blog"))).length).toBe(articles + 1);
    expect((await readdir(join(dir, "content/case"))).length).toBe(cases + 1);

    const article = await readFile(join(dir, "content/blog/article-00002.md"), "utf8");
    expect(article).toMatch(/^---\ntitle: ".+\."\ndate: 2022-03-03\ndescription: ".+"\nauthor: "NZF team"\n---\n/);
    // Its links go to the article two before it, as the synthetic rich text's do.
    expect(article).toContain("](/blog/article-00000/)");
    // The four list items are one tight list: consecutive lines.
    expect(article).toMatch(/\n\n- [^\n]+\n- [^\n]+\n- [^\n]+\n- [^\n]+\n\n/);
    const aCase = await readFile(join(dir, "content/case/case-00003.md"), "utf8");
    expect(aCase).toContain('location: "Western Sydney"\nprogram: emergency-relief\nprogramTitle: "Emergency relief"');
  });
});
