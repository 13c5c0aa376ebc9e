/** The cache layer's record format and the NZF_DEBUG=cache explanation of rendered pages. */
import { describe, expect, it } from "vitest";
import { cacheKey, decodeEntry, encodeEntry } from "../../src/cache/entry.js";
import { explainRebuild } from "../../src/cache/rebuild-reasons.js";

describe("cache records", () => {
  it("give back the payload only when its length and hash match the header", () => {
    const record = encodeEntry("body{color:#639}");
    expect(record.toString("utf8")).toMatch(/^nzf-cache 1 sha256:[0-9a-f]{64} 16\nbody\{color:#639\}$/);
    expect(decodeEntry(record)).toEqual({ payload: Buffer.from("body{color:#639}") });
    expect(decodeEntry(record.subarray(0, record.length - 1))).toEqual({
      bad: expect.stringMatching(/^15 bytes where the header says 16/),
    });
    expect(decodeEntry(Buffer.from(record.toString("utf8").replace("#639", "#000")))).toEqual({
      bad: expect.stringMatching(/do not match the hash/),
    });
    expect(decodeEntry(Buffer.from("body{color:#639}"))).toEqual({ bad: expect.stringMatching(/no cache header/) });
  });

  it("keys depend on every part and its position", () => {
    expect(cacheKey("styles", "a", "b")).toMatch(/^[0-9a-f]{20}$/);
    expect(cacheKey("styles", "a", "b")).toBe(cacheKey("styles", "a", "b"));
    expect(cacheKey("styles", "a", "b")).not.toBe(cacheKey("styles", "b", "a"));
    expect(cacheKey("styles", "ab")).not.toBe(cacheKey("styles", "a", "b"));
  });
});

describe("why pages were rendered (NZF_DEBUG=cache)", () => {
  const explain = (facts: Parameters<typeof explainRebuild>[0]) => {
    const lines: string[] = [];
    explainRebuild(facts, (family, message) => lines.push(`${family}: ${message}`));
    return lines;
  };
  it("names the changed input of each page, new pages, and how many were kept", () => {
    const lines = explain({
      outDir: "/site",
      incremental: true,
      sameGlobals: true,
      changed: new Set(["id:a", "type:case"]),
      rendered: [
        { file: "cases/a/index.html", lastDeps: ["id:a", "id:global"] },
        { file: "cases/index.html", lastDeps: ["type:case", "id:global"] },
        { file: "cases/new/index.html", lastDeps: undefined },
      ],
      pages: 10,
    });
    expect(lines).toEqual([
      "pages: cases/a/index.html: rendered, changed: id:a",
      "pages: cases/index.html: rendered, changed: type:case",
      "pages: cases/new/index.html: rendered, a new page",
      "pages: 7 of 10 pages kept as published: nothing they read changed",
    ]);
  });
  it("says when every page renders, and why", () => {
    const base = { outDir: "/site", changed: null, rendered: [], pages: 4 };
    expect(explain({ ...base, incremental: false, sameGlobals: false })).toEqual([
      expect.stringMatching(/^pages: all 4 pages rendered: no record of a build into \/site/),
    ]);
    expect(explain({ ...base, incremental: true, sameGlobals: false })).toEqual([
      expect.stringMatching(/^pages: all 4 pages rendered: what every page depends on changed/),
    ]);
  });
});
