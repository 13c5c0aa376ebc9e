import { describe, expect, it } from "vitest";
import {
  MAX_INVALIDATION_PATHS,
  planDeploy,
  RETIRED_GRACE_MS,
  type LocalFile,
  type RemoteObject,
} from "../../src/deploy/plan.js";

const file = (key: string, hash = `h-${key}`): LocalFile => ({ key, hash });
const remote = (entries: [string, RemoteObject][]) => new Map(entries);

describe("planDeploy", () => {
  it("orders uploads: files pages use, then pages, then the service worker; skips _headers and _redirects", () => {
    const plan = planDeploy(
      [
        file("sw.js"),
        file("about/index.html"),
        file("_islands/a-1.js"),
        file("index.html"),
        file("icons/i.png"),
        file("_headers"),
        file("_redirects"),
      ],
      new Map(),
    );
    expect(plan.uploads.map((u) => u.key)).toEqual([
      "_islands/a-1.js",
      "icons/i.png",
      "about/index.html",
      "index.html",
      "sw.js",
    ]);
    expect(plan.uploads.map((u) => u.phase)).toEqual(["assets", "assets", "pages", "pages", "worker"]);
  });

  it("keeps what the bucket has with the same hash, replaces an object without one", () => {
    const plan = planDeploy(
      [file("a/index.html"), file("b/index.html")],
      remote([
        ["a/index.html", { hash: "h-a/index.html" }],
        ["b/index.html", { hash: null }],
      ]),
    );
    expect(plan.kept).toBe(1);
    expect(plan.uploads.map((u) => u.key)).toEqual(["b/index.html"]);
    expect(plan.invalidations).toEqual(["/b/", "/b/index.html"]);
  });

  it("deletes a removed page at once, but marks a hashed file first and deletes it after the grace period", () => {
    const now = Date.UTC(2026, 10, 24);
    const plan = planDeploy(
      [file("index.html")],
      remote([
        ["index.html", { hash: "h-index.html" }],
        ["old/index.html", { hash: "x" }],
        ["_islands/new-retire.js", { hash: "x" }],
        ["_islands/waiting.js", { hash: "x", retiredAt: now - RETIRED_GRACE_MS + 1 }],
        ["_images/expired.webp", { hash: "x", retiredAt: now - RETIRED_GRACE_MS }],
      ]),
      now,
    );
    expect(plan.deletions).toEqual(["_images/expired.webp", "old/index.html"]);
    expect(plan.retire).toEqual(["_islands/new-retire.js"]);
    // Hashed files are never invalidated; the removed page is.
    expect(plan.invalidations).toEqual(["/old/", "/old/index.html"]);
  });

  it("uploads a retired file again when the site uses it again (clearing the mark)", () => {
    const plan = planDeploy(
      [file("_islands/back.js")],
      remote([["_islands/back.js", { hash: "h-_islands/back.js", retiredAt: 1 }]]),
    );
    expect(plan.uploads.map((u) => u.key)).toEqual(["_islands/back.js"]);
    expect(plan.invalidations).toEqual([]);
  });

  it("invalidates nothing when nothing changed, and everything in one path past the limit", () => {
    expect(planDeploy([file("index.html")], remote([["index.html", { hash: "h-index.html" }]])).invalidations).toEqual(
      [],
    );
    const many = Array.from({ length: MAX_INVALIDATION_PATHS }, (_, i) => file(`p${i}/index.html`));
    expect(planDeploy(many, new Map()).invalidations).toEqual(["/*"]);
  });

  it("sets Content-Type and Cache-Control per docs/deploy.md", () => {
    const plan = planDeploy(
      [
        file("_assets/s-1.css"),
        file("manifest.webmanifest"),
        file("_preview/preview.js"),
        file("icons/a.png"),
        file("robots.txt"),
      ],
      new Map(),
    );
    const by = Object.fromEntries(plan.uploads.map((u) => [u.key, [u.contentType, u.cacheControl]]));
    expect(by).toEqual({
      "_assets/s-1.css": ["text/css; charset=utf-8", "public, max-age=31536000, immutable"],
      "manifest.webmanifest": ["application/manifest+json", "public, max-age=0, must-revalidate"],
      "_preview/preview.js": ["text/javascript; charset=utf-8", "public, max-age=0, must-revalidate"],
      "icons/a.png": ["image/png", "public, max-age=86400"],
      "robots.txt": ["text/plain; charset=utf-8", "no-cache"],
    });
  });
});
