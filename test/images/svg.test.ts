/**
 * SVGs from the content are drawn into pixels, never published as SVG: what an attacker's SVG can
 * carry (a script, event handlers, a foreign object, references to files of the build host or to a
 * local server) leaves nothing in the output and reaches nothing while drawn.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  encodeAll,
  MAX_INPUT_PIXELS,
  outputTypes,
  passThroughType,
  readSourceInfo,
  svgDensity,
} from "../../src/images/process.js";

const run = <T>(fn: () => Promise<T>) => fn();
let dir: string;
let server: Server;
const heard: string[] = [];
let origin: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "nzf-svg-"));
  // A bright red file on the build host: its pixels must not appear in the drawing.
  await writeFile(
    join(dir, "secret.png"),
    await sharp({ create: { width: 50, height: 50, channels: 3, background: "#ff0000" } })
      .png()
      .toBuffer(),
  );
  server = createServer((req, res) => {
    heard.push(req.url!);
    res.writeHead(200, { "content-type": "image/png" }).end();
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.close();
  await rm(dir, { recursive: true, force: true });
});

describe("an attacker's SVG", () => {
  it("is drawn into WebP and PNG with no script, no markup and none of what it references", async () => {
    const svg = Buffer.from(`<?xml version="1.0"?>
<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="100" height="50" onload="alert(1)">
  <script>fetch("${origin}/script")</script>
  <rect width="100" height="50" fill="#0000ff"/>
  <image x="0" y="0" width="50" height="50" href="file://${join(dir, "secret.png")}"/>
  <image x="50" y="0" width="50" height="50" xlink:href="${origin}/remote.png"/>
  <foreignObject width="100" height="50"><body xmlns="http://www.w3.org/1999/xhtml"><img src="${origin}/foreign.png"/></body></foreignObject>
</svg>`);
    const info = await readSourceInfo(svg, run);
    expect(passThroughType(info)).toBeUndefined();
    expect([info.format, info.width, info.height]).toEqual(["svg", 1600, 800]);
    const made = await encodeAll(svg, info, { widths: [400, 1600], types: outputTypes(info) }, run);
    expect(made.outputs.map((o) => `${o.type} ${o.width}x${o.height}`)).toEqual([
      "image/webp 400x200",
      "image/png 400x200",
      "image/webp 1600x800",
      "image/png 1600x800",
    ]);
    for (const out of made.outputs) {
      expect(out.bytes.includes("script")).toBe(false);
      expect(out.bytes.includes("<svg")).toBe(false);
    }
    // Every pixel is the blue rectangle: the secret file's red was not drawn.
    const png = made.outputs.find((o) => o.type === "image/png" && o.width === 400)!;
    const { data, info: raw } = await sharp(png.bytes).raw().toBuffer({ resolveWithObject: true });
    let red = 0;
    for (let i = 0; i < data.length; i += raw.channels) if (data[i]! > 200 && data[i + 2]! < 50) red += 1;
    expect(red).toBe(0);
    expect(heard).toEqual([]);
  });

  it("declaring an enormous size is drawn within a quarter of the pixel cap", async () => {
    expect(svgDensity(120, 60)).toBeCloseTo(960);
    const huge = Buffer.from(
      '<svg xmlns="http://www.w3.org/2000/svg" width="100000" height="100000"><rect width="100%" height="100%"/></svg>',
    );
    const info = await readSourceInfo(huge, run);
    expect(info.width * info.height).toBeLessThanOrEqual(MAX_INPUT_PIXELS / 4 + 2 * info.width);
  });
});
