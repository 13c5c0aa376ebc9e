// @vitest-environment happy-dom
import { beforeEach, describe, expect, it } from "vitest";
import { swapPageContent } from "../../src/preview-app/swap-page.js";

const served = `<noscript><iframe src="about:blank"></iframe></noscript><a class="skip-link" href="#main">Skip</a><main id="main"><h1>Published</h1><div class="nzf-island" data-island="faq-filter" data-island-id="i0"><input id="live"></div></main>`;
const rendered = `<!doctype html><html><head><title>Draft | NZF</title></head><body><noscript><iframe src="about:blank"></iframe></noscript><a class="skip-link" href="#main">Skip</a><main id="main"><h1>Draft</h1><div class="nzf-island" data-island="faq-filter" data-island-id="i0"><input id="fresh"></div><div class="nzf-island" data-island="calculator" data-island-id="i1"><p>new island</p></div></main><script type="application/json" data-island-props="i0">{}</script></body></html>`;

beforeEach(() => {
  document.body.innerHTML = served;
  document.title = "Published | NZF";
});

describe("swapPageContent", () => {
  it("replaces the server's nodes with the draft, keeps what was added since, and updates the title", () => {
    const original = [...document.body.childNodes];
    const container = document.createElement("div");
    container.id = "nzf-preview";
    document.body.append(container);
    const added = swapPageContent(document, rendered, original);
    expect(document.querySelector("main h1")?.textContent).toBe("Draft");
    expect(document.querySelectorAll("main").length).toBe(1);
    expect(document.body.lastElementChild).toBe(container);
    expect(document.title).toBe("Draft | NZF");
    expect(added.some((n) => n instanceof HTMLElement && n.tagName === "MAIN")).toBe(true);
    // A second swap replaces the first one's nodes.
    swapPageContent(document, rendered.replace("<h1>Draft</h1>", "<h1>Draft 2</h1>"), added);
    expect([...document.querySelectorAll("main h1")].map((h) => h.textContent)).toEqual(["Draft 2"]);
  });

  it("moves hydrated islands into the new page as they are, and takes the new markup for the others", () => {
    const live = document.querySelector<HTMLElement>('[data-island-id="i0"]')!;
    live.dataset.hydrated = "true";
    swapPageContent(document, rendered, [...document.body.childNodes]);
    expect(document.querySelector('[data-island-id="i0"]')).toBe(live);
    expect(document.getElementById("live")).not.toBeNull();
    expect(document.getElementById("fresh")).toBeNull();
    expect(document.querySelector('[data-island-id="i1"]')?.textContent).toBe("new island");
  });

  it("moves an island waiting for its first use, whose listeners are on the live element", () => {
    const live = document.querySelector<HTMLElement>('[data-island-id="i0"]')!;
    live.dataset.hydrated = "on-first-use";
    swapPageContent(document, rendered, [...document.body.childNodes]);
    expect(document.querySelector('[data-island-id="i0"]')).toBe(live);
    expect(document.getElementById("fresh")).toBeNull();
  });

  it("takes the new markup of an island that was never hydrated", () => {
    swapPageContent(document, rendered, [...document.body.childNodes]);
    expect(document.getElementById("fresh")).not.toBeNull();
    expect(document.getElementById("live")).toBeNull();
  });

  it("keeps <noscript> content as text, so its iframe never loads", () => {
    swapPageContent(document, rendered, [...document.body.childNodes]);
    const noscript = document.querySelector("noscript")!;
    expect(noscript.querySelector("iframe")).toBeNull();
    expect(noscript.textContent).toContain("about:blank");
  });
});
