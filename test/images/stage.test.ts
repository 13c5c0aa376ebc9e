/**
 * The image stage against a real local HTTP server serving generated images of every kind the issue
 * names: files written, their dimensions and formats, the Picture HTML, a warm run doing no sharp
 * work, only used outputs published, and errors that name the document.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import sharp from "sharp";
import { renderToStaticMarkup } from "react-dom/server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { PrismicDocument } from "@prismicio/client";
import { NzfAggregateError, NzfError } from "../../src/core/errors.js";
import { createMemoryLogger } from "../../src/core/logger.js";
import { runImageStage, sharpOperationCount, type ImageStageResult } from "../../src/images/image-stage.js";
import { createElement } from "react";
import { ImagePreloadContext, Picture, type PictureProps } from "../../templates/components/picture.js";
import type { ImagePreload } from "../../src/template-kit/types.js";
import { fixtureImages } from "../fixtures/images/generate.js";

let server: Server;
let base: string;
let images: Record<string, { bytes: Buffer; type: string }>;
const requests: string[] = [];
/** When each request for flaky.jpg arrived (performance.now()). */
const flakyTimes: number[] = [];
let flakyFailures = 0;
let dir: string;

beforeAll(async () => {
  images = await fixtureImages();
  dir = await mkdtemp(join(tmpdir(), "nzf-images-"));
  server = createServer((req, res) => {
    const name = decodeURIComponent(new URL(req.url!, "http://x").pathname.slice(1));
    requests.push(name);
    if (name === "flaky.jpg") flakyTimes.push(performance.now());
    if (name === "flaky.jpg" && flakyFailures < 2) {
      flakyFailures += 1;
      res.writeHead(503).end("busy");
      return;
    }
    const image = images[name];
    if (!image) return void res.writeHead(404).end("not found");
    res.writeHead(200, { "content-type": image.type }).end(image.bytes);
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise((r) => server.close(r));
  await rm(dir, { recursive: true, force: true });
});

const img = (name: string, extra: Record<string, unknown> = {}) => ({
  url: `${base}/${name}?auto=format,compress&w=300`,
  alt: `Alt of ${name}`,
  dimensions: { width: 1, height: 1 },
  ...extra,
});
const doc = (id: string, data: Record<string, unknown>) =>
  ({ id, type: "page", uid: id, lang: "en-au", data }) as unknown as PrismicDocument;

function goodDocuments(): PrismicDocument[] {
  return [
    // big.jpg is a page hero (full width) and an image in the content (constrained).
    doc("home", {
      featured_image: img("photo.jpg", { alt: null }),
      hero_image: img("big.jpg"),
      slices: [{ slice_type: "image", primary: { image: img("big.jpg") } }],
    }),
    doc("about", {
      logo: img("alpha.png"),
      photo: img("tiny.jpg"),
      body: [{ type: "image", ...img("rotated.jpg") }],
      empty_image: {},
    }),
    doc("media", { a: img("anim.gif"), b: img("still.gif"), c: img("logo.svg"), d: img("flaky.jpg") }),
  ];
}

/** The fixture server is a local address: listed by its address, as an operator would list one. */
const policy = () => ({ hosts: [new URL(base).host] });
const deps = () => ({ logger: createMemoryLogger() });
const outputsOf = (r: ImageStageResult, stem: string) => r.files.filter((f) => f.to.includes(stem));

describe("image stage on generated fixtures", () => {
  let first: ImageStageResult;
  let cacheDir: string;

  beforeAll(async () => {
    cacheDir = join(dir, "cache");
    first = await runImageStage(goodDocuments(), { cacheDir, policy: policy() }, deps());
  }, 180_000);

  it("processes every image, retrying the flaky one with the foundation's backoff", () => {
    expect(first.count).toBe(9);
    expect(first.stats.made).toBe(9);
    expect(requests.filter((r) => r === "flaky.jpg")).toHaveLength(3);
    // At least 100 ms, then 200 ms (plus up to 100 ms of jitter) between the attempts; a timer may
    // fire a millisecond early by the clock read here.
    const [one, two, three] = flakyTimes;
    expect(two! - one!).toBeGreaterThanOrEqual(99);
    expect(three! - two!).toBeGreaterThanOrEqual(199);
    // imgix parameters dropped: the original was requested once per URL.
    expect(requests.filter((r) => r === "photo.jpg")).toHaveLength(1);
  });

  async function metaOf(url: string | undefined) {
    const file = first.files.find((f) => "/" + f.to === url)!;
    return sharp(await readFile(file.from)).metadata();
  }

  it("makes a constrained photo at 0.25/0.5/1/2 × 800, capped at the original, in WebP and JPEG", async () => {
    const s = first.lookup.get(`${base}/photo.jpg?w=10`, "constrained")!;
    expect(s.sources.map((x) => x.type)).toEqual(["image/webp", "image/jpeg"]);
    const webp = s.sources[0]!.srcset.split(", ").map((c) => c.split(" "));
    expect(webp.map(([, w]) => w)).toEqual(["200w", "400w", "800w", "1200w"]);
    for (const [url, w] of webp) {
      const m = await metaOf(url);
      expect(m.format).toBe("webp");
      expect(`${m.width}w`).toBe(w);
      expect(m.height).toBe(Math.round((m.width! * 2) / 3));
    }
    const fallback = await metaOf(s.src);
    expect([fallback.format, fallback.width, fallback.height]).toEqual(["jpeg", 1200, 800]);
    expect(fallback.exif).toBeUndefined();
  });

  it("offers a constrained 6000 px image at no more than its 2x width", async () => {
    const s = first.lookup.get(`${base}/big.jpg`, "constrained")!;
    expect(s.sources[1]!.srcset).toMatch(/ 200w, .* 400w, .* 800w, .* 1600w$/);
    expect((await metaOf(s.src)).width).toBe(1600);
  });

  it("makes a page hero at the breakpoints 750, 1080, 1366, 1920 besides its constrained widths", async () => {
    const full = first.lookup.get(`${base}/big.jpg`, "full")!;
    const webp = full.sources[0]!.srcset.split(", ").map((c) => c.split(" "));
    expect(webp.map(([, w]) => w)).toEqual(["750w", "1080w", "1366w", "1920w"]);
    for (const [url, w] of webp) expect(`${(await metaOf(url)).width}w`).toBe(w);
    expect((await metaOf(full.src)).width).toBe(1920);
    // The 6000 px original is the same file for both layouts: one set of outputs, 8 widths × 2 formats.
    expect(outputsOf(first, full.src.slice(9, 25))).toHaveLength(16);
    const html = renderToStaticMarkup(
      createElement(Picture, {
        image: { url: `${base}/big.jpg`, alt: "Hero", width: 6000, height: 4000 },
        images: first.lookup,
        layout: "full",
      }),
    );
    expect(html).toContain(`<source type="image/webp" srcSet="${full.sources[0]!.srcset}" sizes="100vw"/>`);
  });

  it("keeps a 50 px image at 50 px (no upscaling)", () => {
    const s = first.lookup.get(`${base}/tiny.jpg`, "fixed")!;
    expect(s.sources.map((x) => x.srcset)).toEqual([
      expect.stringMatching(/^\S+\.webp 50w$/),
      expect.stringMatching(/^\S+\.jpg 50w$/),
    ]);
  });

  it("keeps transparency: PNG fallback, WebP with alpha, no placeholder behind it", async () => {
    const s = first.lookup.get(`${base}/alpha.png`, "fixed")!;
    expect(s.sources.map((x) => x.type)).toEqual(["image/webp", "image/png"]);
    const png = await metaOf(s.src);
    expect([png.format, png.width, png.hasAlpha]).toEqual(["png", 600, true]);
    expect((await metaOf(s.sources[0]!.srcset.split(" ")[0])).hasAlpha).toBe(true);
    expect(s.sources[1]!.srcset).toMatch(/ 400w, .* 600w$/);
    expect(s.placeholder).toBeUndefined();
  });

  it("rotates by EXIF orientation and strips the orientation tag", async () => {
    const s = first.lookup.get(`${base}/rotated.jpg`)!;
    const m = await metaOf(s.src);
    expect([m.width, m.height, m.orientation]).toEqual([200, 300, undefined]);
  });

  it("draws SVG into WebP + PNG at 1600 px, publishes animated GIF as it is, and a still GIF as WebP + PNG", async () => {
    const svg = first.lookup.get(`${base}/logo.svg`)!;
    expect(svg.sources.map((x) => x.type)).toEqual(["image/webp", "image/png"]);
    expect([svg.src.endsWith("-1600w.png"), svg.width, svg.height, svg.placeholder]).toEqual([
      true,
      1600,
      800,
      undefined,
    ]);
    expect(first.files.some((f) => f.to.endsWith(".svg"))).toBe(false);
    const anim = first.lookup.get(`${base}/anim.gif`)!;
    expect(anim.src).toMatch(/\.gif$/);
    expect((await metaOf(anim.src)).pages).toBe(2);
    const still = first.lookup.get(`${base}/still.gif`)!;
    expect(still.sources.map((x) => x.type)).toEqual(["image/webp", "image/png"]);
    const corner = await sharp(await readFile(first.files.find((f) => "/" + f.to === still.src)!.from))
      .raw()
      .toBuffer({ resolveWithObject: true });
    expect([corner.info.channels, corner.data[3]]).toEqual([4, 0]);
  });

  it("inlines a small blurred placeholder 100 px wide", async () => {
    const s = first.lookup.get(`${base}/photo.jpg`)!;
    expect(s.placeholder).toMatch(/^data:image\/webp;base64,/);
    expect(s.placeholder!.length).toBeLessThan(2000);
    const m = await sharp(Buffer.from(s.placeholder!.split(",")[1]!, "base64")).metadata();
    expect([m.width, m.height]).toEqual([100, 67]);
  });

  it("renders a picture with sources, sizes, dimensions, alt and loading hints", () => {
    const html = renderToStaticMarkup(
      createElement(Picture, {
        image: { url: `${base}/photo.jpg?auto=format`, alt: null, width: 1200, height: 800 },
        images: first.lookup,
        sizes: "(max-width: 900px) 100vw, 50vw",
        priority: true,
      }),
    );
    const s = first.lookup.get(`${base}/photo.jpg`)!;
    expect(html).toContain(
      `<source type="image/webp" srcSet="${s.sources[0]!.srcset}" sizes="(max-width: 900px) 100vw, 50vw"/>`,
    );
    expect(html).toMatch(
      /<img class="nzf-image" src="\/_images\/[0-9a-f]{16}-1200w\.jpg" srcSet="[^"]+ 1200w" sizes="\(max-width: 900px\) 100vw, 50vw" width="800" height="533" alt="" loading="eager" decoding="auto" fetchPriority="high"\/>/,
    );
    expect(html).toContain(
      `<img class="nzf-placeholder" src="${s.placeholder}" width="800" height="533" alt="" aria-hidden="true"/>`,
    );
    expect(html).not.toMatch(/style=|onload=/i);

    const lazy = renderToStaticMarkup(
      createElement(Picture, {
        image: { url: `${base}/alpha.png`, alt: "NZF logo", width: 600, height: 300 },
        images: first.lookup,
        layout: "fixed",
      }),
    );
    expect(lazy).toMatch(/width="400" height="200" alt="NZF logo" loading="lazy" decoding="async"\/>/);
    expect(lazy).toContain('sizes="400px"');
    expect(lazy).not.toContain("fetchPriority");
    expect(lazy).not.toContain("nzf-placeholder");
  });

  it("renders nothing for a missing image field", () => {
    expect(renderToStaticMarkup(createElement(Picture, { image: undefined, images: first.lookup }))).toBe("");
  });

  it("notes the first main image for the document head to preload: its first format's srcset and the same sizes", () => {
    const noted: { first?: ImagePreload } = {};
    const picture = (props: Omit<PictureProps, "images">) => createElement(Picture, { images: first.lookup, ...props });
    renderToStaticMarkup(
      createElement(
        ImagePreloadContext.Provider,
        { value: noted },
        // A lazy image first: not the main image, not preloaded.
        picture({ image: { url: `${base}/alpha.png`, alt: "NZF logo", width: 600, height: 300 }, layout: "fixed" }),
        picture({
          image: { url: `${base}/photo.jpg`, alt: null, width: 1200, height: 800 },
          sizes: "(max-width: 900px) 100vw, 50vw",
          priority: true,
        }),
        picture({ image: { url: `${base}/still.gif`, alt: null, width: 300, height: 200 }, priority: true }),
      ),
    );
    const photo = first.lookup.get(`${base}/photo.jpg`)!;
    expect(photo.sources.length).toBeGreaterThan(1);
    expect(noted.first).toEqual({
      srcset: photo.sources[0]!.srcset,
      sizes: "(max-width: 900px) 100vw, 50vw",
      type: photo.sources[0]!.type,
    });
    // An image with no srcset (an animated GIF, published as it is) is left to the <img> itself.
    const single: { first?: ImagePreload } = {};
    renderToStaticMarkup(
      createElement(
        ImagePreloadContext.Provider,
        { value: single },
        picture({ image: { url: `${base}/anim.gif`, alt: null, width: 120, height: 60 }, priority: true }),
      ),
    );
    expect(single.first).toBeUndefined();
  });

  it("runs no sharp operation and no download the second time, and lists only the outputs in use", async () => {
    const opsBefore = sharpOperationCount();
    const requestsBefore = requests.length;
    const second = await runImageStage(goodDocuments(), { cacheDir, policy: policy() }, deps());
    expect(sharpOperationCount()).toBe(opsBefore);
    expect(second.stats).toMatchObject({ made: 0, cached: 9, sharpOperations: 0 });
    expect(requests.length).toBe(requestsBefore);
    expect(second.files).toEqual(first.files);

    const fewer = await runImageStage(goodDocuments().slice(0, 1), { cacheDir, policy: policy() }, deps());
    // The publish step removes published images the new site does not list (test/publish/publish.test.ts).
    const listed = fewer.files.map((f) => f.to);
    expect(listed.every((file) => file.startsWith("_images/"))).toBe(true);
    // photo: 4 widths × 2 formats; big: (4 constrained + 4 full) × 2.
    expect(listed).toHaveLength(24);
    expect(second.files.length).toBeGreaterThan(24);
    expect(outputsOf(fewer, ".svg")).toHaveLength(0);
  });
});

describe("image stage errors", () => {
  it("reports every bad image together, each naming its document and field", async () => {
    const documents = [
      doc("broken", { hero_image: img("corrupt.jpg") }),
      doc("cut", { slices: [{ primary: { image: img("truncated.jpg") } }] }),
      doc("gone", { hero_image: img("missing.jpg") }),
      doc("zero", { hero_image: img("photo.jpg", { dimensions: { width: 0, height: -3 } }) }),
      doc("fine", { hero_image: img("tiny.jpg") }),
    ];
    const error = await runImageStage(documents, { cacheDir: join(dir, "bad-cache"), policy: policy() }, deps()).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(NzfAggregateError);
    const errors = (error as NzfAggregateError).errors;
    const bySubject = Object.fromEntries(errors.map((e) => [e.subject, e]));
    expect(Object.keys(bySubject).sort()).toEqual([
      "document broken, field hero_image",
      "document cut, field slices[0].primary.image",
      "document gone, field hero_image",
      "document zero, field hero_image",
    ]);
    expect(bySubject["document broken, field hero_image"]!.message).toMatch(
      /^Something went wrong fetching the image metadata/,
    );
    expect(bySubject["document broken, field hero_image"]!.code).toBe("IMAGE_METADATA");
    expect(bySubject["document cut, field slices[0].primary.image"]!.code).toBe("IMAGE_METADATA");
    expect(bySubject["document gone, field hero_image"]!.code).toBe("IMAGE_DOWNLOAD");
    expect(bySubject["document gone, field hero_image"]!.message).toMatch(
      /missing\.jpg could not be downloaded after 1 attempt: HTTP 404/,
    );
    expect(bySubject["document zero, field hero_image"]!.code).toBe("IMAGE_DIMENSIONS");
    expect(bySubject["document zero, field hero_image"]!.message).toMatch(/must be positive.*0×-3/);
    expect(errors.every((e) => e instanceof NzfError)).toBe(true);
  }, 60_000);
});
