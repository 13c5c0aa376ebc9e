/**
 * Image stage benchmark (issue 3). Call from bench/main.ts:
 *
 *   import { benchImages } from "./images.js";
 *   await benchImages();            // 500 photos; benchImages({ count: 50 }) for a quick look
 *
 * Prints: images per second for a cold image stage and for a bare sharp loop doing the same
 * transforms (decode per output, no cache, same concurrency), their ratio (target ≥ 90 %), seconds
 * for a warm stage (target < 1 s, zero sharp operations), and the bytes a typical article ships at
 * 390 px and 1440 px viewports and of a full-width page hero. The 2000 px source photos are drawn once into
 * .nzf-cache/bench/images and reused.
 */
import { mkdir, readFile, rm, stat, writeFile } from "node:fs/promises";
import { availableParallelism } from "node:os";
import { join, resolve } from "node:path";
import pLimit from "p-limit";
import type { PrismicDocument } from "@prismicio/client";
import { silentLogger } from "../src/core/logger.js";
import { runImageStage, sharpOperationCount } from "../src/images/image-stage.js";
import { JPEG, WEBP, PLACEHOLDER_WEBP } from "../src/images/formats.js";
import { candidateWidths, PLACEHOLDER_BLUR, PLACEHOLDER_WIDTH } from "../src/images/sizes.js";
import type { ImageSource } from "../src/template-kit/types.js";

export interface BenchImagesOptions {
  count?: number;
  /** Defaults to `.nzf-cache/bench` under the current folder. */
  workDir?: string;
  print?: (line: string) => void;
}

export interface BenchImagesResult {
  count: number;
  coldImagesPerSecond: number;
  bareImagesPerSecond: number;
  warmSeconds: number;
  warmSharpOperations: number;
  articleBytes: Record<string, number>;
}

const WIDTH = 2000;
const HEIGHT = 1334;

/** A photo-like 2000 px JPEG, different for every seed (gradients, shapes, a little texture). */
function photoSvg(seed: number): string {
  const r = (n: number) => ((seed * 9301 + n * 49297) % 233280) / 233280;
  const hue = (n: number) => Math.floor(r(n) * 360);
  const shapes = Array.from(
    { length: 12 },
    (_, i) =>
      `<ellipse cx="${Math.floor(r(i + 3) * WIDTH)}" cy="${Math.floor(r(i + 40) * HEIGHT)}" rx="${80 + Math.floor(r(i + 7) * 500)}" ry="${60 + Math.floor(r(i + 11) * 300)}" fill="hsl(${hue(i + 5)},55%,55%)" opacity="0.55"/>`,
  ).join("");
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${WIDTH}" height="${HEIGHT}">
    <defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="hsl(${hue(1)},60%,35%)"/><stop offset="1" stop-color="hsl(${hue(2)},70%,70%)"/></linearGradient>
    </defs><rect width="100%" height="100%" fill="url(#g)"/>${shapes}</svg>`;
}

async function ensurePhotos(dir: string, count: number, print: (l: string) => void): Promise<string[]> {
  await mkdir(dir, { recursive: true });
  const names = Array.from({ length: count }, (_, i) => `photo-${String(i).padStart(4, "0")}.jpg`);
  const missing: string[] = [];
  for (const n of names)
    if (
      !(await stat(join(dir, n)).then(
        () => true,
        () => false,
      ))
    )
      missing.push(n);
  if (missing.length) {
    print(`images  drawing ${missing.length} source photos (${WIDTH}×${HEIGHT}) once into ${dir}`);
    const sharp = (await import("sharp")).default;
    // Film-grain-like texture, made once and laid over every photo (an SVG noise filter per photo is 30× slower).
    const grain = Buffer.alloc((WIDTH * HEIGHT) / 4);
    let x = 12345;
    for (let i = 0; i < grain.length; i++) grain[i] = ((x = (x * 1103515245 + 12345) & 0x7fffffff) >>> 23) & 0x3f;
    const texture = await sharp(grain, { raw: { width: WIDTH / 2, height: HEIGHT / 2, channels: 1 } })
      .resize(WIDTH, HEIGHT)
      .toColourspace("srgb")
      .ensureAlpha(0.25)
      .png()
      .toBuffer();
    const limit = pLimit(availableParallelism());
    const draw = async (n: string) => {
      const base = await sharp(Buffer.from(photoSvg(Number(n.slice(6, 10)) + 1)))
        .png()
        .toBuffer();
      await writeFile(
        join(dir, n),
        await sharp(base)
          .composite([{ input: texture, blend: "overlay" }])
          .jpeg({ quality: 88 })
          .toBuffer(),
      );
    };
    await Promise.all(missing.map((n) => limit(() => draw(n))));
  }
  return names;
}

/** What a browser picks from a srcset: the smallest candidate covering slot × DPR, else the largest. */
export function pickCandidate(srcset: string, slotCssPx: number, dpr: number): string {
  const candidates = srcset.split(", ").map((c) => {
    const [url, w] = c.split(" ");
    return { url: url!, width: Number(w!.slice(0, -1)) };
  });
  const need = slotCssPx * dpr;
  return (candidates.find((c) => c.width >= need) ?? candidates[candidates.length - 1]!).url;
}

/** The bare loop: every output decoded and encoded independently, no hashing, no cache, no files. */
async function bareLoop(dir: string, names: string[]): Promise<number> {
  const sharp = (await import("sharp")).default;
  const limit = pLimit(availableParallelism());
  const started = performance.now();
  await Promise.all(
    names.map((n) =>
      limit(async () => {
        const bytes = await readFile(join(dir, n));
        for (const w of candidateWidths("constrained", WIDTH)) {
          await sharp(bytes).rotate().resize({ width: w }).webp(WEBP).toBuffer();
          await sharp(bytes).rotate().resize({ width: w }).jpeg(JPEG).toBuffer();
        }
        await sharp(bytes)
          .rotate()
          .resize({ width: PLACEHOLDER_WIDTH })
          .blur(PLACEHOLDER_BLUR)
          .webp(PLACEHOLDER_WEBP)
          .toBuffer();
      }),
    ),
  );
  return (performance.now() - started) / 1000;
}

export async function benchImages(options: BenchImagesOptions = {}): Promise<BenchImagesResult> {
  const count = options.count ?? 500;
  const print = options.print ?? ((l: string) => console.log(l));
  const work = resolve(options.workDir ?? ".nzf-cache/bench");
  const photos = join(work, "images");
  const names = await ensurePhotos(photos, count, print);
  const cacheDir = join(work, "image-cache");
  await rm(cacheDir, { recursive: true, force: true });

  // A typical article: a featured image and two images in its body; the rest are other articles.
  const url = (n: string) => `https://images.prismic.io/nzf-bench/${n}?auto=format,compress`;
  const image = (n: string) => ({ url: url(n), alt: "", dimensions: { width: WIDTH, height: HEIGHT } });
  const documents = names.map((n, i) => ({
    id: `article-${i}`,
    type: "article",
    lang: "en-au",
    data: { featured_image: image(n), body: [{ type: "paragraph", text: "…", spans: [] }] },
  })) as unknown as PrismicDocument[];
  // A page whose hero is the first article's photo, as on the sample site: that photo is also made
  // at the full-width breakpoints.
  documents.push({
    id: "hero-page",
    type: "page",
    lang: "en-au",
    data: { hero_image: image(names[0]!) },
  } as unknown as PrismicDocument);
  // Every original is in the local folder: nothing is downloaded.
  const stageOptions = { localDir: photos, cacheDir, policy: { repository: "nzf-bench", hosts: [] } };

  const coldStart = performance.now();
  const cold = await runImageStage(documents, stageOptions, { logger: silentLogger });
  const coldSeconds = (performance.now() - coldStart) / 1000;
  const bareSeconds = await bareLoop(photos, names);
  const opsBefore = sharpOperationCount();
  const warmStart = performance.now();
  await runImageStage(documents, stageOptions, { logger: silentLogger });
  const warmSeconds = (performance.now() - warmStart) / 1000;
  const warmSharpOperations = sharpOperationCount() - opsBefore;

  // Bytes of the article's three images (featured + two in the body) in WebP, as a browser picks them.
  const articleImages = names.slice(0, 3).map((n) => cold.lookup.get(url(n), "constrained") as ImageSource);
  const sizeOf = new Map<string, number>();
  for (const f of cold.files) sizeOf.set("/" + f.to, (await stat(f.from)).size);
  const articleBytes: Record<string, number> = {};
  for (const [label, viewport, dpr] of [
    ["390px@3x", 390, 3],
    ["390px@2x", 390, 2],
    ["1440px@1x", 1440, 1],
    ["1440px@2x", 1440, 2],
  ] as const) {
    // sizes="(max-width: 800px) 100vw, 800px" (the article template's)
    const slot = Math.min(viewport, 800);
    articleBytes[label] = articleImages.reduce(
      (sum, s) => sum + sizeOf.get(pickCandidate(s.sources[0]!.srcset, slot, dpr))!,
      0,
    );
  }

  // The hero's bytes (WebP) as a browser picks it with the hero's sizes (templates/components/blocks.tsx):
  // 358 px shown on a 390 px phone, 548 px on a desktop.
  const hero = cold.lookup.get(url(names[0]!), "full") as ImageSource;
  const heroBytes: Record<string, number> = {};
  for (const [label, slot, dpr] of [
    ["390px@3x", 358, 3],
    ["1280px@1x", 548, 1],
    ["1440px@2x", 548, 2],
  ] as const) {
    heroBytes[label] = sizeOf.get(pickCandidate(hero.sources[0]!.srcset, slot, dpr))!;
  }

  const cores = availableParallelism();
  const result: BenchImagesResult = {
    count,
    coldImagesPerSecond: count / coldSeconds,
    bareImagesPerSecond: count / bareSeconds,
    warmSeconds,
    warmSharpOperations,
    articleBytes,
  };
  print(
    `images  ${count} photos ${WIDTH} px, ${cores} cores, ${cold.files.length} files (${cold.stats.sharpOperations} sharp operations)`,
  );
  print(`images  cold stage   ${result.coldImagesPerSecond.toFixed(2)} images/s (${coldSeconds.toFixed(1)} s)`);
  print(
    `images  bare sharp   ${result.bareImagesPerSecond.toFixed(2)} images/s (${bareSeconds.toFixed(1)} s)  → stage at ${((100 * result.coldImagesPerSecond) / result.bareImagesPerSecond).toFixed(0)} % of the bare loop (target ≥ 90 %)`,
  );
  print(`images  warm stage   ${warmSeconds.toFixed(2)} s, ${warmSharpOperations} sharp operations (target < 1 s, 0)`);
  print(
    `images  article (3 images, WebP) ${Object.entries(articleBytes)
      .map(([k, v]) => `${k} ${(v / 1024).toFixed(0)} KiB`)
      .join(", ")}`,
  );
  print(
    `images  hero (full width, WebP) ${Object.entries(heroBytes)
      .map(([k, v]) => `${k} ${(v / 1024).toFixed(0)} KiB`)
      .join(", ")} from ${hero.sources[0]!.srcset.split(", ")
      .map((c) => c.split(" ")[1])
      .join(" ")}`,
  );
  return result;
}
