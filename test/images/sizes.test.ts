import { describe, expect, it } from "vitest";
import {
  candidateWidths,
  defaultSizes,
  displayWidth,
  heightFor,
  srcset,
  widthsForLayouts,
} from "../../src/images/sizes.js";
import { layoutsFor, mergeLayouts } from "../../src/images/layout-policy.js";
import { imageSourceFor } from "../../src/images/image-lookup.js";
import type { Manifest } from "../../src/images/cache.js";
import { pictureSize } from "../../templates/components/picture.js";

describe("candidate widths", () => {
  it("full width uses the breakpoints 750, 1080, 1366, 1920", () => {
    expect(candidateWidths("full", 6000)).toEqual([750, 1080, 1366, 1920]);
  });
  it("constrained uses 0.25, 0.5, 1, 2 × the 800 px display width", () => {
    expect(candidateWidths("constrained", 6000)).toEqual([200, 400, 800, 1600]);
  });
  it("fixed uses 400 and its 2x", () => {
    expect(candidateWidths("fixed", 6000)).toEqual([400, 800]);
  });
  it("never upscales: widths above the original give way to the original width", () => {
    expect(candidateWidths("full", 1200)).toEqual([750, 1080, 1200]);
    expect(candidateWidths("constrained", 1000)).toEqual([200, 400, 800, 1000]);
    expect(candidateWidths("constrained", 800)).toEqual([200, 400, 800]);
    expect(candidateWidths("fixed", 600)).toEqual([400, 600]);
    expect(candidateWidths("constrained", 50)).toEqual([50]);
    expect(candidateWidths("full", 500)).toEqual([500]);
  });
  it("rejects a width that is not positive", () => {
    expect(() => candidateWidths("full", 0)).toThrow(/positive/);
    expect(() => candidateWidths("fixed", -5)).toThrow(/positive/);
  });
  it("merges layouts into one ascending list without duplicates", () => {
    expect(widthsForLayouts(["constrained", "fixed"], 2000)).toEqual([200, 400, 800, 1600]);
    expect(widthsForLayouts(["full", "fixed"], 2000)).toEqual([400, 750, 800, 1080, 1366, 1920]);
  });
});

describe("display size", () => {
  it("is 800 for constrained, 400 for fixed, the original for full, never more than the original", () => {
    expect(displayWidth("constrained", 2000)).toBe(800);
    expect(displayWidth("fixed", 2000)).toBe(400);
    expect(displayWidth("full", 2000)).toBe(2000);
    expect(displayWidth("constrained", 300)).toBe(300);
  });
  it("keeps the aspect ratio and falls back to 4/3 when it is unknown", () => {
    expect(heightFor(800, { width: 1600, height: 1000 })).toBe(500);
    expect(heightFor(800, {})).toBe(600);
    expect(heightFor(400, { width: 0, height: 0 })).toBe(300);
    expect(pictureSize("constrained", 1600, 1000)).toEqual({ width: 800, height: 500 });
    expect(pictureSize("fixed", 600, 300)).toEqual({ width: 400, height: 200 });
    expect(pictureSize("constrained", 0, 0)).toEqual({ width: 800, height: 600 });
    expect(pictureSize("constrained", 1000, 0)).toEqual({ width: 800, height: 600 });
  });
  it("gives default sizes per layout", () => {
    expect(defaultSizes("full", 1920)).toBe("100vw");
    expect(defaultSizes("fixed", 400)).toBe("400px");
    expect(defaultSizes("constrained", 800)).toBe("(max-width: 800px) 100vw, 800px");
  });
});

describe("srcset and lookup", () => {
  it("lists candidates ascending with w descriptors", () => {
    expect(
      srcset([
        { url: "/b.webp", width: 800 },
        { url: "/a.webp", width: 200 },
      ]),
    ).toBe("/a.webp 200w, /b.webp 800w");
  });
  const out = (w: number, type: "image/webp" | "image/jpeg") => ({
    file: `h-${w}w.${type === "image/webp" ? "webp" : "jpg"}`,
    type,
    width: w,
    height: w / 2,
    bytes: 1,
  });
  const manifest: Manifest = {
    width: 2000,
    height: 1000,
    hasAlpha: false,
    format: "jpeg",
    outputs: [200, 400, 800, 1600].flatMap((w) => [out(w, "image/webp"), out(w, "image/jpeg")]),
    placeholder: "data:image/webp;base64,AA==",
  };
  it("gives the modern format first, the fallback last, and the largest fallback as src", () => {
    const s = imageSourceFor(manifest, "constrained");
    expect(s.sources.map((x) => x.type)).toEqual(["image/webp", "image/jpeg"]);
    expect(s.sources[0]!.srcset).toBe(
      "/_images/h-200w.webp 200w, /_images/h-400w.webp 400w, /_images/h-800w.webp 800w, /_images/h-1600w.webp 1600w",
    );
    expect(s.src).toBe("/_images/h-1600w.jpg");
    expect([s.width, s.height]).toEqual([1600, 800]);
  });
  it("picks only the layout's widths when they were made", () => {
    const s = imageSourceFor(manifest, "fixed");
    expect(s.sources[1]!.srcset).toBe("/_images/h-400w.jpg 400w, /_images/h-800w.jpg 800w");
    expect(s.src).toBe("/_images/h-800w.jpg");
  });
  it("falls back to every width made when the layout's widths were not", () => {
    const s = imageSourceFor(manifest, "full");
    expect(s.sources[0]!.srcset.split(", ")).toHaveLength(4);
  });
});

describe("layout policy", () => {
  it("prepares logos and photos at a fixed size, page heroes full width, everything else constrained", () => {
    expect(layoutsFor({ field: "logo" })).toEqual(["fixed"]);
    expect(layoutsFor({ field: "members[2].photo" })).toEqual(["fixed"]);
    expect(layoutsFor({ field: "hero_image" })).toEqual(["full"]);
    expect(layoutsFor({ field: "featured_image" })).toEqual(["constrained"]);
    expect(layoutsFor({ field: "slices[1].items[0].card_image" })).toEqual(["constrained"]);
    expect(layoutsFor({ field: "slices[0].primary.image" })).toEqual(["constrained"]);
    expect(mergeLayouts([["fixed"], ["constrained"], ["fixed"]])).toEqual(["constrained", "fixed"]);
    // A hero that is also an article's featured image: made at both layouts' widths.
    expect(mergeLayouts([["full"], ["constrained"]])).toEqual(["constrained", "full"]);
    expect(widthsForLayouts(mergeLayouts([["full"], ["constrained"]]), 1600)).toEqual([
      200, 400, 750, 800, 1080, 1366, 1600,
    ]);
  });
});
