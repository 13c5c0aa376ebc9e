/**
 * The static server compresses text with gzip when the browser accepts it (as CloudFront does) and
 * leaves images and clients without gzip alone: the Lighthouse bench's simulated network charges
 * the bytes it receives.
 */
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { request } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gunzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startStaticServer, type StaticServer } from "../../src/server/static-server.js";

let dir: string;
let server: StaticServer;
const html = `<!doctype html><title>t</title>${"<p>zakat</p>".repeat(500)}`;
const png = Buffer.from("89504e470d0a1a0a0000000d49484452", "hex");

/** A raw GET (fetch would decompress for us and hide what was sent). */
function get(
  path: string,
  headers: Record<string, string>,
): Promise<{ status: number; headers: Record<string, unknown>; body: Buffer }> {
  return new Promise((resolve, reject) => {
    request(server.url + path, { headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
    })
      .on("error", reject)
      .end();
  });
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "nzf-static-"));
  await writeFile(join(dir, "index.html"), html);
  await writeFile(join(dir, "404.html"), "<!doctype html><title>Not found</title>");
  await writeFile(join(dir, "logo.png"), png);
  server = await startStaticServer({ root: dir });
});
afterAll(async () => {
  await server.stop();
  await rm(dir, { recursive: true, force: true });
});

describe("static server compression", () => {
  it("sends HTML gzipped to a browser that accepts gzip, and the bytes unpack to the file", async () => {
    const res = await get("/", { "accept-encoding": "gzip, deflate, br" });
    expect(res.status).toBe(200);
    expect(res.headers["content-encoding"]).toBe("gzip");
    expect(res.headers.vary).toBe("accept-encoding");
    expect(res.body.length).toBeLessThan(html.length / 10);
    expect(gunzipSync(res.body).toString()).toBe(html);
  });

  it("sends the file as it is to a client that does not accept gzip", async () => {
    const res = await get("/", {});
    expect(res.headers["content-encoding"]).toBeUndefined();
    expect(res.body.toString()).toBe(html);
  });

  it("does not compress images, and compresses the 404 page it serves for unknown paths", async () => {
    const image = await get("/logo.png", { "accept-encoding": "gzip" });
    expect(image.headers["content-encoding"]).toBeUndefined();
    expect(image.body.equals(png)).toBe(true);
    const missing = await get("/nowhere/", { "accept-encoding": "gzip" });
    expect(missing.status).toBe(404);
    expect(gunzipSync(missing.body).toString()).toContain("Not found");
  });
});

describe("server errors", () => {
  it("answer 500 with the site's own 500.html, and the server keeps serving", async () => {
    await writeFile(join(dir, "500.html"), "<!doctype html><title>Something went wrong</title>");
    let fail = true;
    const failing = await startStaticServer({
      root: dir,
      intercept: () => {
        if (fail) throw new Error("a handler broke");
        return false;
      },
    });
    try {
      const res = await fetch(`${failing.url}/`);
      expect(res.status).toBe(500);
      expect(res.headers.get("content-type")).toContain("text/html");
      expect(await res.text()).toContain("Something went wrong");
      fail = false;
      expect((await fetch(`${failing.url}/`)).status).toBe(200);
    } finally {
      await failing.stop();
    }
  });
});
