// @vitest-environment happy-dom
import { afterEach, describe, expect, it, vi } from "vitest";
import { hasPreviewCookie } from "../../../src/client/site/preview-loader.js";

const PREVIEW = `io.prismic.preview=${encodeURIComponent('{"nzf2020.prismic.io":{"preview":"ref"}}')}`;

/** Counts reads of document.cookie, returning `value`. */
function cookieReads(value: string) {
  return vi.spyOn(document, "cookie", "get").mockReturnValue(value);
}

afterEach(() => vi.restoreAllMocks());

describe("hasPreviewCookie", () => {
  it("asks cookieStore when the browser has it, and never reads document.cookie (a synchronous call that stops the page)", async () => {
    const reads = cookieReads("");
    const get = vi.fn(async (name: string) => (name === "io.prismic.preview" ? { value: "x" } : null));
    expect(await hasPreviewCookie({ get })).toBe(true);
    expect(await hasPreviewCookie({ get: async () => null })).toBe(false);
    expect(await hasPreviewCookie({ get: async () => ({ value: "" }) })).toBe(false);
    expect(get).toHaveBeenCalledWith("io.prismic.preview");
    expect(reads).not.toHaveBeenCalled();
  });

  it("reads document.cookie without cookieStore, or when cookieStore refuses", async () => {
    cookieReads(`other=1; ${PREVIEW}`);
    expect(await hasPreviewCookie(null)).toBe(true);
    expect(
      await hasPreviewCookie({ get: () => Promise.reject(new DOMException("opaque origin", "SecurityError")) }),
    ).toBe(true);
    cookieReads("other=1; io.prismic.preview=; xio.prismic.preview=1");
    expect(await hasPreviewCookie(null)).toBe(false);
  });
});
