/**
 * The page frame (layout, head) is rendered once per layout variant and reused by every page that
 * has it (src/render/render-page.ts, through the tracking session's memo). Proof that sharing it
 * changes nothing: a build whose frames are shared (in the render threads) gives the same files and
 * the same dependency records as one that renders the frame for every page (in this thread, with
 * the memo taken away here: the templates then compute each value for each page).
 */
import { afterAll, describe, expect, it, vi } from "vitest";
import { join } from "node:path";
import { createFixture, siteFileHashes, type Fixture } from "../support/build-fixture.js";
import { readCacheJson } from "../support/cache-entry.js";

const frames = vi.hoisted(() => ({ shared: true, sessionsWithoutMemo: 0 }));

vi.mock("../../src/render/dependencies.js", async (importOriginal) => {
  const original = await importOriginal<typeof import("../../src/render/dependencies.js")>();
  return {
    ...original,
    createTrackingSession: (...args: Parameters<typeof original.createTrackingSession>) => {
      const session = original.createTrackingSession(...args);
      if (frames.shared) return session;
      frames.sessionsWithoutMemo++;
      return { ...session, memo: undefined };
    },
  };
});

const fixtures: Fixture[] = [];
afterAll(async () => {
  for (const f of fixtures) await f.cleanup();
});

describe("the layout rendered once per variant", { timeout: 120_000 }, () => {
  it("gives the same pages and the same dependency records as rendering it for every page", async () => {
    const shared = await createFixture({}, {}, { render: { workersFromPages: 1 } });
    const each = await createFixture({}, {}, { render: { workersFromPages: Number.POSITIVE_INFINITY } });
    fixtures.push(shared, each);
    expect((await shared.run()).renderedInWorkers).toBeGreaterThan(50);
    frames.shared = false;
    try {
      expect((await each.run()).renderedInWorkers).toBe(0);
      expect(frames.sessionsWithoutMemo).toBeGreaterThan(0);
    } finally {
      frames.shared = true;
    }
    expect(await siteFileHashes(shared.config.outDir)).toEqual(await siteFileHashes(each.config.outDir));
    const recordOf = async (f: Fixture) => (await readCacheJson(join(f.config.workDir, "last-build.json"))).pages;
    const pages = await recordOf(shared);
    expect(Object.keys(pages).length).toBeGreaterThan(50);
    // Every framed page depends on its language's global document, read through the shared layout.
    expect(pages["about/index.html"].deps).toEqual(
      expect.arrayContaining([expect.stringMatching(/^list:global\|en-au$/)]),
    );
    expect(pages).toEqual(await recordOf(each));
  });
});
