/**
 * Loading the one-shot templates bundle through V8's code cache (src/bundle/code-cache.ts): the
 * module's exports either way, a cache kept once asked and used by the next load, and a damaged
 * cache never handed to V8.
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadWithCodeCache } from "../../src/bundle/code-cache.js";

let dir: string;
let file: string;
const MODULE = `"use strict";
const { join } = require("node:path");
function greet(name) { return "Salaam, " + name; }
module.exports = { greet, joined: join("a", "b"), file: __filename };
`;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "nzf-code-cache-"));
  file = join(dir, "entry-0123456789ab.cjs");
  await writeFile(file, MODULE);
});
afterEach(() => rm(dir, { recursive: true, force: true }));

const caches = async () => (await readdir(dir)).filter((name) => name.endsWith(".v8cache")).sort();
type Greeter = { greet(name: string): string; joined: string; file: string };

describe("a CommonJS module loaded through V8's code cache", () => {
  it("gives its exports, keeps a cache once asked, and the next load starts from it", async () => {
    const first = loadWithCodeCache<Greeter>(file);
    expect(first.exports.greet("Aisha")).toBe("Salaam, Aisha");
    expect(first.exports.joined).toBe(join("a", "b"));
    expect(first.exports.file).toBe(file);
    expect(first.fromCache).toBe(false);
    expect(await caches()).toEqual([]);
    first.keep();
    const [cache] = await caches();
    expect(cache).toMatch(/^entry-0123456789ab\.cjs\.\d+\.v8cache$/);
    // A cache record: the header names the payload's hash and length.
    expect((await readFile(join(dir, cache!))).subarray(0, 19).toString()).toBe("nzf-cache 1 sha256:");

    const second = loadWithCodeCache<Greeter>(file);
    expect(second.fromCache).toBe(true);
    expect(second.exports.greet("Omar")).toBe("Salaam, Omar");
  });

  it("compiles again when the cache is damaged, and replaces it", async () => {
    loadWithCodeCache<Greeter>(file).keep();
    const [cache] = await caches();
    const bytes = await readFile(join(dir, cache!));
    bytes[bytes.length - 10] ^= 0xff;
    await writeFile(join(dir, cache!), bytes);
    const damaged = loadWithCodeCache<Greeter>(file);
    expect(damaged.fromCache).toBe(false);
    expect(damaged.exports.greet("Zayd")).toBe("Salaam, Zayd");
    damaged.keep();
    expect(loadWithCodeCache<Greeter>(file).fromCache).toBe(true);
  });

  it("drops the caches of the folder's older modules when it keeps one", async () => {
    const older = join(dir, "entry-aaaaaaaaaaaa.cjs");
    await writeFile(older, MODULE);
    loadWithCodeCache<Greeter>(older).keep();
    expect(await caches()).toHaveLength(1);
    loadWithCodeCache<Greeter>(file).keep();
    expect(await caches()).toEqual([expect.stringMatching(/^entry-0123456789ab\.cjs\./)]);
  });
});
