/**
 * The site files of a real sample build: manifest and icons (read back with sharp), the offline
 * page, the service worker (precache list, determinism), robots.txt and the headers file.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readFile, stat } from "node:fs/promises";
import { join } from "node:path";
import sharp from "sharp";
import { build } from "../../src/pipeline/build.js";
import { createFixture, type Fixture } from "../support/build-fixture.js";
import { cloudFrontPolicyFile } from "../../src/pipeline/site-files-stage.js";
import { parseHeadersFile, headersFor } from "../../src/site-files/headers.js";

let fixture: Fixture;
const dist = (...parts: string[]) => join(fixture.config.outDir, ...parts);

beforeAll(async () => {
  fixture = await createFixture({ sample: true });
  await fixture.run();
}, 180_000);

afterAll(async () => {
  await fixture?.cleanup();
});

describe("web app manifest and icons", () => {
  it("has the foundation's theme colour, display and start URL, and icons that exist at their stated sizes", async () => {
    const manifest = JSON.parse(await readFile(dist("manifest.webmanifest"), "utf8"));
    expect(manifest.theme_color).toBe("#663399");
    expect(manifest.display).toBe("minimal-ui");
    expect(manifest.start_url).toBe("/");
    expect(manifest.name).toBe("National Zakat Foundation");
    expect(manifest.short_name.length).toBeLessThanOrEqual(12);
    const purposes = manifest.icons.map((i: { purpose: string }) => i.purpose);
    expect(purposes).toContain("maskable");
    for (const icon of manifest.icons as { src: string; sizes: string; type: string }[]) {
      const meta = await sharp(dist(icon.src)).metadata();
      expect(`${meta.width}x${meta.height}`).toBe(icon.sizes);
      expect(`image/${meta.format}`).toBe(icon.type);
    }
    expect(manifest.icons.map((i: { sizes: string }) => i.sizes)).toEqual(
      expect.arrayContaining(["192x192", "512x512"]),
    );
  });

  it("the maskable icon is full-bleed purple (no transparent corners) and the touch icon is 180 px", async () => {
    const { data, info } = await sharp(dist("icons/maskable-512.png")).raw().toBuffer({ resolveWithObject: true });
    // Top-left pixel: #663399, opaque.
    expect([...data.subarray(0, info.channels)]).toEqual([0x66, 0x33, 0x99, 255].slice(0, info.channels));
    const touch = await sharp(dist("apple-touch-icon.png")).metadata();
    expect([touch.width, touch.height, touch.hasAlpha && touch.channels === 4]).toEqual([
      180,
      180,
      touch.hasAlpha && touch.channels === 4,
    ]);
    const corner = await sharp(dist("apple-touch-icon.png")).ensureAlpha().raw().toBuffer();
    expect(corner[3]).toBe(255);
  });

  it("favicon.ico is an ICO holding a 32 px PNG, and every page links the manifest and icons", async () => {
    const ico = await readFile(dist("favicon.ico"));
    expect([ico.readUInt16LE(0), ico.readUInt16LE(2), ico.readUInt16LE(4), ico[6], ico[7]]).toEqual([0, 1, 1, 32, 32]);
    const png = ico.subarray(ico.readUInt32LE(18));
    expect(png.length).toBe(ico.readUInt32LE(14));
    expect((await sharp(png).metadata()).width).toBe(32);
    const home = await readFile(dist("index.html"), "utf8");
    for (const link of [
      'rel="manifest" href="/manifest.webmanifest"',
      'rel="apple-touch-icon" href="/apple-touch-icon.png"',
      'href="/favicon.ico"',
    ])
      expect(home).toContain(link);
    // An SVG icon is drawn in a document of its own on the page's main thread: a long task on mobile.
    expect(home).not.toMatch(/<link rel="icon"[^>]*svg/);
  });
});

describe("service worker", () => {
  it("precaches the island bundles, the stylesheet, the offline page and the 404 page, with no HTML page besides those", async () => {
    const sw = await readFile(dist("sw.js"), "utf8");
    const urls = [...sw.matchAll(/"url":"([^"]+)"/g)].map((m) => m[1]!);
    expect(urls).toEqual(expect.arrayContaining(["offline.html", "404.html", "manifest.webmanifest"]));
    expect(urls.some((u) => /^_assets\/site-[0-9a-f]+\.css$/.test(u))).toBe(true);
    expect(urls.some((u) => /^_islands\/faq-filter-\w+\.js$/.test(u))).toBe(true);
    expect(urls.some((u) => /^_islands\/chunks\//.test(u))).toBe(true);
    expect(urls.filter((u) => u.endsWith(".html")).sort()).toEqual(["404.html", "offline.html"]);
    // Hashed bundles carry no revision; the offline page does.
    expect(sw).toMatch(
      /"revision":"[0-9a-f]{32}","url":"offline\.html"|"url":"offline\.html","revision":"[0-9a-f]{32}"/,
    );
    expect(sw).not.toContain("self.__WB_MANIFEST");
    expect(sw).toContain("nzf-pages");
    expect(sw).toContain("nzf-images");
  });

  it("the offline page has the site frame and says the donor is offline", async () => {
    const html = await readFile(dist("offline.html"), "utf8");
    expect(html).toContain("<title>You are offline | National Zakat Foundation</title>");
    expect(html).toMatch(/<main id="main"[^>]*><div[^>]*><h1>You are offline<\/h1>/);
    expect(html).toContain('class="site-header"');
    expect(html).not.toContain("We could not find that page");
  });

  it("the same input gives a byte-identical sw.js (and headers file)", async () => {
    const second = { ...fixture.config, outDir: join(fixture.dir, "dist-2") };
    await build(second, { logger: fixture.logger });
    for (const file of [
      "sw.js",
      "_headers",
      "manifest.webmanifest",
      "sitemap.xml",
      "favicon.ico",
      "icons/icon-512.png",
    ]) {
      const [a, b] = await Promise.all([readFile(dist(file)), readFile(join(second.outDir, file))]);
      expect(a.equals(b), file).toBe(true);
    }
  }, 120_000);
});

describe("robots.txt and headers", () => {
  it("robots.txt links the sitemap and keeps crawlers out of preview and account", async () => {
    const robots = await readFile(dist("robots.txt"), "utf8");
    expect(robots.split("\n")).toEqual(
      expect.arrayContaining([
        "User-agent: *",
        "Disallow: /preview/",
        "Disallow: /account/",
        "Sitemap: https://nzf.org.au/sitemap.xml",
      ]),
    );
  });

  it("_headers sends the security headers everywhere and long caching only for hashed files", async () => {
    const rules = parseHeadersFile(await readFile(dist("_headers"), "utf8"));
    const page = headersFor(rules, "/about/");
    expect(page["Strict-Transport-Security"]).toMatch(/^max-age=\d{8,}; includeSubDomains$/);
    expect(page["X-Content-Type-Options"]).toBe("nosniff");
    expect(page["Referrer-Policy"]).toBe("strict-origin-when-cross-origin");
    expect(page["Content-Security-Policy"]).toContain("frame-ancestors 'none'");
    expect(page["Cache-Control"]).toBeUndefined();
    expect(headersFor(rules, "/_islands/chunks/x.js")["Cache-Control"]).toContain("immutable");
    expect(headersFor(rules, "/sw.js")["Cache-Control"]).toBe("no-cache");
    expect(headersFor(rules, "/sw.js")["Content-Security-Policy"]).toBe(page["Content-Security-Policy"]);
  });

  it("isolates the account pages' window, and only theirs (a public page arrives without a new renderer process)", async () => {
    const rules = parseHeadersFile(await readFile(dist("_headers"), "utf8"));
    expect(headersFor(rules, "/account/")["Cross-Origin-Opener-Policy"]).toBe("same-origin");
    expect(headersFor(rules, "/account/")["Content-Security-Policy"]).toBe(
      headersFor(rules, "/")["Content-Security-Policy"],
    );
    for (const path of ["/", "/pay/zakat/", "/calculate/", "/about/"])
      expect(headersFor(rules, path)["Cross-Origin-Opener-Policy"]).toBeUndefined();
  });

  it("writes the same policy for CloudFront outside dist/", async () => {
    const file = cloudFrontPolicyFile(fixture.config);
    expect(file.startsWith(fixture.config.outDir)).toBe(false);
    const policy = JSON.parse(await readFile(file, "utf8"));
    const rules = parseHeadersFile(await readFile(dist("_headers"), "utf8"));
    expect(policy.SecurityHeadersConfig.ContentSecurityPolicy.ContentSecurityPolicy).toBe(
      headersFor(rules, "/")["Content-Security-Policy"],
    );
    expect(policy.SecurityHeadersConfig.FrameOptions.FrameOption).toBe("DENY");
    expect(policy.CustomHeadersConfig.Items.map((i: { Header: string }) => i.Header)).toContain("Permissions-Policy");
    // CloudFront rejects a CSP longer than 1783 characters.
    expect(policy.SecurityHeadersConfig.ContentSecurityPolicy.ContentSecurityPolicy.length).toBeLessThanOrEqual(1783);
    await expect(stat(dist("cloudfront-response-headers-policy.json"))).rejects.toThrow();
    const header = (p: { CustomHeadersConfig: { Items: { Header: string; Value: string }[] } }, name: string) =>
      p.CustomHeadersConfig.Items.find((i) => i.Header === name)?.Value;
    expect(header(policy, "Cross-Origin-Opener-Policy")).toBeUndefined();
    // The account pages' behaviour: the same policy plus the header _headers gives them.
    const account = JSON.parse(await readFile(cloudFrontPolicyFile(fixture.config, { account: true }), "utf8"));
    expect(account.Name).not.toBe(policy.Name);
    expect(account.SecurityHeadersConfig).toEqual(policy.SecurityHeadersConfig);
    expect(header(account, "Cross-Origin-Opener-Policy")).toBe(
      headersFor(rules, "/account/")["Cross-Origin-Opener-Policy"],
    );
    expect(header(account, "Permissions-Policy")).toBe(header(policy, "Permissions-Policy"));
  });
});
