/**
 * The servers' compressed-body cache (src/server/compressed-bodies.ts): a body is compressed once
 * while its bytes are unchanged, a changed file is never served stale (rewritten in place or by
 * rename, with the same size and modification time), and its memory stays within its budget.
 */
import { randomBytes } from "node:crypto";
import { mkdtemp, rename, rm, stat, utimes, writeFile } from "node:fs/promises";
import { request } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gunzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createCompressedBodies } from "../../src/server/compressed-bodies.js";
import { startPreviewServer } from "../../src/server/preview-server.js";
import { startStaticServer, type StaticServer } from "../../src/server/static-server.js";

/** A raw GET or HEAD (fetch would decompress for us and hide what was sent). */
function get(url: string, method = "GET"): Promise<{ status: number; headers: Record<string, unknown>; body: Buffer }> {
  return new Promise((resolve, reject) => {
    request(url, { method, headers: { "accept-encoding": "gzip" } }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
    })
      .on("error", reject)
      .end();
  });
}

/** Text of `size` characters that differs by `word`, so two versions have the same length. */
const script = (word: string) => `console.log("${word}");\n${"// zakat al-fitr\n".repeat(400)}`;

describe("the compressed-body cache", () => {
  it("compresses the same bytes once, and other bytes again", () => {
    const cache = createCompressedBodies();
    const first = cache.gzip(script("one!"));
    expect(cache.gzip(Buffer.from(script("one!"))), "the very buffer kept").toBe(first);
    const other = cache.gzip(script("two!"));
    expect(other).not.toBe(first);
    expect(gunzipSync(other).toString()).toBe(script("two!"));
    expect(gunzipSync(first).toString()).toBe(script("one!"));
  });

  it("keeps its compressed bytes within the budget, dropping the least recently served first", () => {
    const cache = createCompressedBodies(8_000);
    // Random hex: about 330 bytes each once compressed, 60 of them far over the budget.
    const bodies = Array.from({ length: 60 }, () => randomBytes(300).toString("hex"));
    const often = cache.gzip(bodies[0]!);
    const packed = bodies.map((body) => {
      const gz = cache.gzip(body);
      expect(cache.gzip(bodies[0]!), "served often: stays").toBe(often);
      return gz;
    });
    // From the most recently served back: the ones still kept (a lookup of a kept body moves it
    // to the front and drops nothing; the first one compressed again ends the count).
    let keptBytes = often.length;
    let kept = 0;
    for (let i = bodies.length - 1; i > 0 && cache.gzip(bodies[i]!) === packed[i]; i--) {
      keptBytes += packed[i]!.length;
      kept++;
    }
    expect(kept).toBeGreaterThan(5);
    expect(kept).toBeLessThan(59);
    expect(keptBytes).toBeLessThanOrEqual(8_000);
    expect(cache.gzip(bodies[1]!), "long dropped: compressed again").not.toBe(packed[1]);
  });

  it("does not keep a body larger than an eighth of its budget", () => {
    const cache = createCompressedBodies(1_000);
    const big = Array.from({ length: 400 }, (_, i) => `${i * 7919}`).join(",");
    const first = cache.gzip(big);
    expect(gunzipSync(first).toString()).toBe(big);
    expect(cache.gzip(big)).not.toBe(first);
  });
});

describe.each([
  ["static server", (root: string) => startStaticServer({ root }), "/app.js"],
  ["preview server", (root: string) => startPreviewServer({ root, host: "127.0.0.1", port: 0 }), "/app.js"],
])("the %s never serves a changed file stale", (_name, start, path) => {
  let dir: string;
  let server: StaticServer;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), "nzf-compressed-"));
    await writeFile(join(dir, "404.html"), "<!doctype html><title>Not found</title>");
    server = await start(dir);
  });
  afterAll(async () => {
    await server.stop();
    await rm(dir, { recursive: true, force: true });
  });

  it("rewritten in place or by rename, with the same size and modification time", async () => {
    const file = join(dir, "app.js");
    await writeFile(file, script("one!"));
    const { mtime } = await stat(file);
    const first = await get(server.url + path);
    expect(first.headers["content-encoding"]).toBe("gzip");
    expect(gunzipSync(first.body).toString()).toBe(script("one!"));
    expect(gunzipSync((await get(server.url + path)).body).toString()).toBe(script("one!"));

    await writeFile(file, script("two!")); // in place, as an editor saves
    await utimes(file, mtime, mtime);
    expect(gunzipSync((await get(server.url + path)).body).toString()).toBe(script("two!"));

    await writeFile(join(dir, "next.js"), script("tri!")); // by rename, as a publish does
    await utimes(join(dir, "next.js"), mtime, mtime);
    await rename(join(dir, "next.js"), file);
    expect(gunzipSync((await get(server.url + path)).body).toString()).toBe(script("tri!"));
  });

  it("answers HEAD with the same headers and no body", async () => {
    const head = await get(server.url + path, "HEAD");
    expect(head.status).toBe(200);
    expect(head.headers["content-encoding"]).toBe("gzip");
    expect(head.body.length).toBe(0);
  });
});
