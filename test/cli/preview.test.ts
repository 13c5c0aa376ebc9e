/**
 * `nzf-build preview` through the compiled CLI in a new process, on a site built by the CLI: the
 * published dist/ served as S3 behind CloudFront serves it. The expectations come from the
 * project's own rules (the CloudFront Function's redirects, the `_headers` file the build wrote,
 * the deploy's Cache-Control), not from copies of them.
 */
import { mkdir, readFile, realpath, rm, symlink } from "node:fs/promises";
import { createServer, type Server } from "node:net";
import { join } from "node:path";
import { gunzipSync } from "node:zlib";
import { request } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { REDIRECTS } from "../../src/content/routes.js";
import { headersFor, parseHeadersFile } from "../../src/site-files/headers.js";
import { cli, projectRoot, removeTemporary, startCli, tempDir, waitUntil, type CliProcess } from "./cli-process.js";

let out: string;
let preview: CliProcess;
let base: string;
let busy: Server;
let busyPort: number;

beforeAll(async () => {
  const root = await projectRoot();
  out = join(await tempDir(), "site");
  const built = await cli(["--root", root, "--out", out], {}, 120_000);
  expect(built.code, built.output).toBe(0);
  // The port asked for is taken: preview moves on to the next free one, as watch mode does, and says so.
  busy = createServer();
  busyPort = await new Promise<number>((resolve) =>
    busy.listen(0, "127.0.0.1", () => resolve((busy.address() as { port: number }).port)),
  );
  preview = startCli(["preview", "--root", root, "--out", out, "--port", String(busyPort)]);
  base = await waitUntil(
    async () => /serving .* at (http:\/\/127\.0\.0\.1:\d+)\//.exec(preview.output())?.[1],
    "the preview's address",
  );
}, 150_000);

afterAll(async () => {
  await preview?.stop();
  busy?.close();
  await removeTemporary();
});

/** A GET without following redirects or decompressing: what the browser receives. */
function get(
  path: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; headers: Record<string, string>; body: Buffer }> {
  return new Promise((resolve, reject) => {
    request(`${base}${path}`, { headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("end", () =>
        resolve({
          status: res.statusCode!,
          headers: Object.fromEntries(Object.entries(res.headers).map(([k, v]) => [k, String(v)])),
          body: Buffer.concat(chunks),
        }),
      );
    })
      .on("error", reject)
      .end();
  });
}

const published = async (file: string) => readFile(join(await realpath(out), file));

describe("nzf-build preview", () => {
  it("moves on from a busy port to the next free one and says so", () => {
    expect(preview.output()).toContain(`port ${busyPort} is in use, using `);
    expect(new URL(base).port).not.toBe(String(busyPort));
  });

  it("applies the CloudFront Function: trailing slash and redirects as 301s keeping the query, /path/ from its index.html", async () => {
    const about = await get("/about?utm_source=mail");
    expect(about.status).toBe(301);
    expect(about.headers.location).toBe("/about/?utm_source=mail");
    for (const [from, to] of Object.entries(REDIRECTS)) {
      const old = await get(from.replace(/\/$/, ""));
      expect(old.status, from).toBe(301);
      expect(old.headers.location).toBe(to);
    }
    const page = await get("/about/");
    expect(page.status).toBe(200);
    expect(page.body.equals(await published("about/index.html"))).toBe(true);
    // Files keep their name: no slash added to a path with an extension.
    expect((await get("/sitemap.xml")).status).toBe(200);
  });

  it("sends the headers of the site's own _headers, and each object's Content-Type and Cache-Control", async () => {
    const rules = parseHeadersFile((await published("_headers")).toString("utf8"));
    const home = await get("/");
    expect(home.status).toBe(200);
    expect(home.headers["content-type"]).toBe("text/html; charset=utf-8");
    expect(home.headers["cache-control"]).toBe("no-cache");
    for (const [name, value] of Object.entries(headersFor(rules, "/")))
      if (name !== "Cache-Control") expect(home.headers[name.toLowerCase()], name).toBe(value);
    expect(home.headers["cross-origin-opener-policy"]).toBeUndefined();
    // The account pages' own policy.
    expect((await get("/account/")).headers["cross-origin-opener-policy"]).toBe("same-origin");
    // A hashed asset is cached for a year.
    const css = /href="(\/_assets\/[^"]+\.css)"/.exec(home.body.toString())?.[1];
    expect(css).toBeDefined();
    const asset = await get(css!);
    expect(asset.headers["cache-control"]).toBe("public, max-age=31536000, immutable");
    expect(asset.headers["content-type"]).toBe("text/css; charset=utf-8");
  });

  it("answers unknown paths with 404.html and status 404; _headers and _redirects are not served", async () => {
    const missing = await get("/no-such-page/");
    expect(missing.status).toBe(404);
    expect(missing.body.equals(await published("404.html"))).toBe(true);
    for (const file of ["/_headers/", "/_redirects/"]) expect((await get(file)).status, file).toBe(404);
    // A folder is no object: its index is reached through the slash only.
    expect((await get("/about/index.html")).status).toBe(200);
  });

  it("answers a server error with 500.html and status 500", async () => {
    // A file that cannot be read (a link to itself): the origin fails, the distribution shows 500.html.
    const site = await realpath(out);
    await mkdir(join(site, "broken"), { recursive: true });
    await symlink(join(site, "broken", "index.html"), join(site, "broken", "index.html"));
    try {
      const broken = await get("/broken/");
      expect(broken.status).toBe(500);
      expect(broken.body.toString()).toBe((await published("500.html")).toString());
    } finally {
      await rm(join(site, "broken"), { recursive: true, force: true });
    }
  });

  it("compresses text for a client that accepts gzip, and answers a matching ETag with 304", async () => {
    const plain = await get("/about/");
    const zipped = await get("/about/", { "accept-encoding": "gzip, br" });
    expect(zipped.headers["content-encoding"]).toBe("gzip");
    expect(gunzipSync(zipped.body).equals(plain.body)).toBe(true);
    const again = await get("/about/", { "if-none-match": plain.headers.etag! });
    expect(again.status).toBe(304);
    expect(again.body.length).toBe(0);
  });

  it("refuses a folder with no published site, naming it", async () => {
    const run = await cli(["preview", "--out", join(await tempDir(), "never-built"), "--port", "0"]);
    expect(run.code).toBe(1);
    expect(run.output).toMatch(/^\[PREVIEW_SITE_MISSING\] There is no published site at .*never-built to preview\./m);
  });
});
