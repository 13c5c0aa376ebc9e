import { describe, expect, it } from "vitest";
import { join } from "node:path";
import type { PrismicDocument } from "@prismicio/client";
import { readSnapshot } from "../../src/content/snapshot.js";
import { PROJECT_ROOT } from "../support/build-fixture.js";
import { languagesOf, renderDraftPage } from "../../src/preview-app/render-draft.js";

const site = { siteUrl: "https://nzf.org.au", repository: "nzf-test", public: {} };
const documents = async () => (await readSnapshot(join(PROJECT_ROOT, "content-cache/sample/snapshot.json"))).documents;

function retitled(doc: PrismicDocument, text: string, extra: Partial<PrismicDocument> = {}): PrismicDocument {
  const title = (doc.data as { title: { type: string; text: string; spans: [] }[] }).title;
  return { ...doc, ...extra, data: { ...doc.data, title: [{ ...title[0]!, text }] } } as PrismicDocument;
}

describe("renderDraftPage", () => {
  it("renders the page at the path from the documents given, with the build's templates and the site frame", async () => {
    const docs = await documents();
    const target = docs.find((d) => d.type === "case" && d.lang === "en-au")!;
    const drafts = docs.map((d) => (d === target ? retitled(d, "Draft <title> & more") : d));
    const draft = renderDraftPage(drafts, `/case/${target.uid}`, site)!;
    expect(draft.page.documentId).toBe(target.id);
    expect(draft.html).toContain("<h1>Draft &lt;title&gt; &amp; more</h1>");
    expect(draft.html).toContain('<main id="main"');
    expect(draft.html).toContain('class="site-footer"');
    // The cases page reads every case: its card shows the draft too.
    expect(renderDraftPage(drafts, "/cases/", site)!.html).toContain("Draft &lt;title&gt; &amp; more");
  });

  it("renders a document that has no published page yet, and returns null for a path no page has", async () => {
    const docs = await documents();
    const model = docs.find((d) => d.type === "case")!;
    const fresh = retitled(model, "Brand new case", { id: "new1", uid: "brand-new-case", alternate_languages: [] });
    expect(renderDraftPage([...docs, fresh], "/case/brand-new-case/", site)!.html).toContain("<h1>Brand new case</h1>");
    expect(renderDraftPage(docs, "/case/brand-new-case/", site)).toBeNull();
  });

  it("uses each image's Prismic URL (no processed copies in the browser)", async () => {
    const docs = await documents();
    const withImage = docs.find((d) => d.type === "case" && JSON.stringify(d.data).includes("images.prismic.io"))!;
    const url = /https:\/\/images\.prismic\.io\/[^"]+/.exec(JSON.stringify(withImage.data))![0];
    const html = renderDraftPage(docs, `/case/${withImage.uid}/`, site)!.html;
    expect(html).toContain(`src="${url.split("?")[0]}`);
    expect(html).not.toContain('src="/_images/');
  });

  it("lists the master language first", () => {
    const docs = [{ lang: "ar-ae" }, { lang: "en-au" }, { lang: "ar-ae" }] as PrismicDocument[];
    expect(languagesOf(docs)).toEqual(["en-au", "ar-ae"]);
  });
});
