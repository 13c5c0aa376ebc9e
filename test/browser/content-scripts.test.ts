/**
 * Scripts an editor or a compromised CMS puts in the content do not run for a donor (issue 35), in
 * real Chromium, with the Content-Security-Policy removed (the local static server sends none): an
 * oEmbed whose HTML carries `<script>`, `onerror` and an iframe, and an SVG image with a script and
 * an `onload`. Each would call a listener on the loopback address and mark the window; neither may.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { readdir } from "node:fs/promises";
import { join } from "node:path";
import type { PrismicDocument } from "@prismicio/client";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readSnapshot } from "../../src/content/snapshot.js";
import { startStaticServer, type StaticServer } from "../../src/server/static-server.js";
import { createFixture, PROJECT_ROOT, type Fixture } from "../support/build-fixture.js";
import { isolatedContext, launchBrowser } from "../support/browser.js";
import { startPrismicStub, type PrismicStub } from "../support/prismic-stub.js";

const ABOUT_ID = "rtcALtqZMPAR2xS2";
let listener: Server;
const heard: string[] = [];
let beacon: string;
let images: Server;
let stub: PrismicStub;
let fixture: Fixture;
let site: StaticServer;
let sampleImages: StaticServer;
let browser: Browser;

const payload = (tag: string) => `window.__pwned=(window.__pwned||[]).concat("${tag}");fetch("${beacon}/${tag}")`;

beforeAll(async () => {
  listener = createServer((req, res) => {
    heard.push(req.url!);
    res.writeHead(204, { "access-control-allow-origin": "*" }).end();
  });
  await new Promise<void>((r) => listener.listen(0, "127.0.0.1", r));
  beacon = `http://127.0.0.1:${(listener.address() as AddressInfo).port}`;
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="300" height="150" onload='${payload("svg-onload")}'>
  <script>${payload("svg-script")}</script><rect width="300" height="150" fill="#2a9d8f"/></svg>`;
  images = createServer((req, res) => res.writeHead(200, { "content-type": "image/svg+xml" }).end(svg));
  await new Promise<void>((r) => images.listen(0, "127.0.0.1", r));
  const imageHost = `127.0.0.1:${(images.address() as AddressInfo).port}`;

  // The sample's own images from a local server too (this machine has no network).
  sampleImages = await startStaticServer({ root: join(PROJECT_ROOT, "content-cache/sample/images") });
  const sample = await readSnapshot(join(PROJECT_ROOT, "content-cache/sample/snapshot.json"));
  const documents = (
    JSON.parse(
      JSON.stringify(sample.documents).replaceAll("https://images.prismic.io/nzf-sample/", `${sampleImages.url}/`),
    ) as PrismicDocument[]
  ).map((doc) => {
    if (doc.id !== ABOUT_ID) return doc;
    const embed = {
      type: "embed",
      oembed: {
        type: "rich",
        embed_url: "https://evil.example/post",
        title: "A post",
        provider_name: "Evil",
        html: `<script>${payload("embed-script")}</script><img src="x" onerror='${payload("embed-onerror")}'><iframe src="${beacon}/embed-iframe"></iframe>`,
      },
    };
    const picture = {
      type: "image",
      url: `http://${imageHost}/logo.svg`,
      alt: "Logo",
      copyright: null,
      dimensions: { width: 300, height: 150 },
    };
    return {
      ...doc,
      data: { ...doc.data, body: [...(doc.data.body as unknown[]), embed, picture] },
    } as PrismicDocument;
  });
  stub = await startPrismicStub({ documents, repository: "nzf-test" });
  fixture = await createFixture({
    fetch: true,
    repository: "nzf-test",
    endpoint: stub.endpoint,
    imageHosts: imageHost,
  });
  fixture.config.contentDir = join(fixture.dir, "content-cache");
  await fixture.run({ sleep: async () => {} });
  site = await startStaticServer({ root: fixture.config.outDir });
  browser = await launchBrowser();
}, 240_000);

afterAll(async () => {
  await browser?.close();
  await site?.stop();
  await sampleImages?.stop();
  await stub?.stop();
  await fixture?.cleanup();
  for (const server of [listener, images]) server?.close();
});

describe("scripts in the content, in Chromium without a CSP", () => {
  it("the oEmbed's and the SVG's scripts do not run on the page, nor in any published image opened alone", async () => {
    const context = await isolatedContext(browser, { viewport: { width: 1280, height: 800 } });
    const page = await context.newPage();
    const response = await page.goto(`${site.url}/about/`);
    expect(response?.headers()["content-security-policy"]).toBeUndefined();
    await page.waitForLoadState("networkidle");
    expect(await page.evaluate(() => (window as { __pwned?: string[] }).__pwned)).toBeUndefined();
    // The embed is a link card to the embedded page; the SVG a picture drawn into pixels.
    await expect(page.locator(".embed-card a").getAttribute("href")).resolves.toBe("https://evil.example/post");
    const logo = page.locator('img[alt="Logo"]');
    await expect(logo.getAttribute("src")).resolves.toMatch(/^\/_images\/[0-9a-f]{16}-\d+w\.png$/);
    expect(await logo.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true);

    const published = await readdir(join(fixture.config.outDir, "_images"));
    expect(published.filter((name) => name.endsWith(".svg"))).toEqual([]);
    for (const name of published.filter((n) => n.endsWith(".png")).slice(0, 20)) {
      await page.goto(`${site.url}/_images/${name}`);
      expect(await page.evaluate(() => (window as { __pwned?: string[] }).__pwned)).toBeUndefined();
    }
    await page.goto(`${site.url}/about/`);
    await page.waitForLoadState("networkidle");
    expect(await page.evaluate(() => (window as { __pwned?: string[] }).__pwned)).toBeUndefined();
    expect(heard).toEqual([]);
    await context.close();
  }, 120_000);
});
