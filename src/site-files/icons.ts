/**
 * App icons from one source logo (assets/logo.svg), rendered with sharp: the manifest's 192 and 512
 * icons, a maskable 512 (the mark inside the 80 % safe zone on a full-bleed purple square, so
 * Android's circle or squircle masks never cut it), the 180 px apple-touch-icon, favicon.ico (a
 * 32 px PNG inside an ICO container, which every browser reads). No SVG favicon: a browser draws one
 * in a document of its own on the page's main thread (a task in Lighthouse's mobile trace of
 * /pay/zakat/), and the 32 px favicon is sharp at 16 px on a 2x screen.
 * The names are fixed (browsers and crawlers ask for /favicon.ico and /apple-touch-icon.png by
 * name); the host serves them with revalidation rather than as immutable files (see headers.ts).
 */
import { readFile } from "node:fs/promises";
import { cacheKey, hashBytes, readJsonEntry, writeJsonEntry } from "../cache/entry.js";
import { join } from "node:path";
import { NzfError } from "../core/errors.js";

export const THEME_COLOUR = "#663399";

export interface IconFile {
  /** URL path, e.g. `/icons/icon-192.png`. */
  url: string;
  bytes: Buffer;
}

export const ICON_URLS = {
  icon192: "/icons/icon-192.png",
  icon512: "/icons/icon-512.png",
  maskable512: "/icons/maskable-512.png",
  appleTouch: "/apple-touch-icon.png",
  favicon: "/favicon.ico",
} as const;

/** An ICO file holding one PNG image (allowed since Windows Vista; every current browser reads it). */
export function pngToIco(png: Buffer, size: number): Buffer {
  const header = Buffer.alloc(6 + 16);
  header.writeUInt16LE(0, 0); // reserved
  header.writeUInt16LE(1, 2); // type: icon
  header.writeUInt16LE(1, 4); // one image
  header.writeUInt8(size >= 256 ? 0 : size, 6);
  header.writeUInt8(size >= 256 ? 0 : size, 7);
  header.writeUInt8(0, 8); // no palette
  header.writeUInt8(0, 9);
  header.writeUInt16LE(1, 10); // colour planes
  header.writeUInt16LE(32, 12); // bits per pixel
  header.writeUInt32LE(png.length, 14);
  header.writeUInt32LE(22, 18); // image data offset
  return Buffer.concat([header, png]);
}

export async function renderIcons(logoFile: string): Promise<IconFile[]> {
  let svg: Buffer;
  try {
    svg = await readFile(logoFile);
  } catch (error) {
    throw new NzfError("INTERNAL", `The source logo ${logoFile} could not be read, so no app icons can be made.`, {
      subject: logoFile,
      hint: "Restore assets/logo.svg (a square SVG) from git.",
      cause: error,
    });
  }
  const { default: sharp } = await import("sharp");
  // A high density rasterises the SVG sharply before downscaling.
  const square = (size: number) =>
    sharp(svg, { density: 300 }).resize(size, size).png({ compressionLevel: 9 }).toBuffer();
  const mark = await sharp(svg, { density: 300 }).resize(320, 320).png().toBuffer();
  const maskable = await sharp({ create: { width: 512, height: 512, channels: 4, background: THEME_COLOUR } })
    .composite([{ input: mark, gravity: "centre" }])
    .png({ compressionLevel: 9 })
    .toBuffer();
  // iOS paints transparent corners black, so the touch icon is flattened onto the purple.
  const appleTouch = await sharp(svg, { density: 300 })
    .resize(180, 180)
    .flatten({ background: THEME_COLOUR })
    .png({ compressionLevel: 9 })
    .toBuffer();
  const [icon192, icon512, favicon32] = await Promise.all([square(192), square(512), square(32)]);
  return [
    { url: ICON_URLS.icon192, bytes: icon192 },
    { url: ICON_URLS.icon512, bytes: icon512 },
    { url: ICON_URLS.maskable512, bytes: maskable },
    { url: ICON_URLS.appleTouch, bytes: appleTouch },
    { url: ICON_URLS.favicon, bytes: pngToIco(favicon32, 32) },
  ];
}

/**
 * The icons, rendered once per logo: kept in the work folder by the logo's hash, so builds after the
 * first do no sharp work for icons.
 */
export async function cachedIcons(logoFile: string, workDir: string): Promise<IconFile[]> {
  const logo = await readFile(logoFile).catch(() => Buffer.from(""));
  // Keyed by the set of icons too, so a change to that set is not hidden by icons saved before it.
  const file = join(workDir, "icons", `icons-${cacheKey("icons", hashBytes(logo), ICON_URLS)}.json`);
  const saved = await readJsonEntry<{ url: string; bytes: string }[]>(file, "icons");
  if (Array.isArray(saved) && saved.every((icon) => typeof icon?.url === "string" && typeof icon.bytes === "string")) {
    return saved.map((icon) => ({ ...icon, bytes: Buffer.from(icon.bytes, "base64") }) as unknown as IconFile);
  }
  const icons = await renderIcons(logoFile);
  await writeJsonEntry(
    file,
    icons.map((icon) => ({ ...icon, bytes: Buffer.from(icon.bytes).toString("base64") })),
  );
  return icons;
}
