/**
 * How the render service (src/render/render-service.ts) hands out batches: each worker holds two, so a
 * worker that dies takes two batches with it. Every page must still come back exactly once, either
 * rendered by a worker or returned for the build's thread to render.
 */
import { afterAll, expect, it } from "vitest";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { identityOf } from "../../src/core/fs.js";
import { RenderService } from "../../src/render/render-service.js";
import type { PageEntry } from "../../src/render/pages.js";
import { PROJECT_ROOT } from "../support/build-fixture.js";

let dir = "";
const service = new RenderService();
afterAll(async () => {
  await service.close();
  await rm(dir, { recursive: true, force: true });
});

/** Templates whose worker stops dead on the page `/stop/`, as a crash in native code would. */
const STOPPING_TEMPLATES = `
import { isMainThread } from "node:worker_threads";
export const TEMPLATES = {};
export function renderBody(input) {
  if (!isMainThread && input.page.path === "/stop/") process.exit(3);
  return { html: "<p>" + input.page.path + "</p>", islands: [], islandCount: 0, meta: { title: input.page.path } };
}
export function renderFrame(input, body) {
  return { before: "<!doctype html><html lang=en><title>t</title><main>", after: "</main></html>", islands: body.islands };
}
export function renderPage() { throw new Error("not used"); }
`;

const page = (path: string): PageEntry => ({
  path,
  file: `${path.slice(1)}index.html`,
  template: "any",
  lang: "en-au",
  indexable: true,
  alternates: [],
});

it("returns every batch a dead worker held, and no page twice", { timeout: 60_000 }, async () => {
  dir = await mkdtemp(join(PROJECT_ROOT, ".nzf-cache", "test-batches-"));
  const templateFile = join(dir, "templates.mjs");
  await writeFile(templateFile, STOPPING_TEMPLATES);
  const snapshotFile = join(PROJECT_ROOT, "content-cache", "sample", "snapshot.json");
  // The first page of the first batch: the worker that takes it was handed its second batch in the
  // same moment, so it holds both when it stops (a later page raced the hand-out of the next batch).
  const pages = Array.from({ length: 400 }, (_, i) => page(i === 0 ? "/stop/" : `/p${i}/`));
  const rendered: string[] = [];
  const { notRendered } = await service.render(
    pages,
    {
      root: PROJECT_ROOT,
      workDir: dir,
      count: 2,
      init: {
        templateFile,
        snapshot: { file: snapshotFile, identity: (await identityOf(snapshotFile))! },
        manifests: [],
        site: { siteUrl: "https://example.org", lang: "en-au" } as never,
        assets: {} as never,
      },
    },
    (entry, result) => {
      expect(result.ok).toBe(true);
      rendered.push(entry.path);
    },
  );
  const returned = notRendered.map((entry) => entry.path);
  expect(returned).toContain("/stop/");
  // The stopped worker's queued batch came back too: more than the one batch it was rendering.
  expect(returned.length).toBeGreaterThan(32);
  expect(new Set(rendered).size).toBe(rendered.length);
  expect([...rendered, ...returned].sort()).toEqual(pages.map((p) => p.path).sort());
  // The other worker went on: most pages were rendered in workers.
  expect(rendered.length).toBeGreaterThan(300);
});
