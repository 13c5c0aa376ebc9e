/**
 * The line each rebuild logs with --verbose (src/watch/watch.ts, breakdownOf), which
 * `npm run bench -- watch` reads to print where a save's time went.
 */
import { describe, expect, it } from "vitest";
import { breakdownOf } from "../../src/watch/watch.js";
import type { BuildResult } from "../../src/pipeline/build.js";

const result = {
  stages: { templates: 41.4, render: 20.6, publish: 2 },
  pagesRendered: 68,
  bodiesReused: 61,
  pagesRebuilt: 1,
} as unknown as BuildResult;

describe("a rebuild's breakdown", () => {
  it("names when the change was seen, the quiet, each stage, the build and the pages", () => {
    expect(breakdownOf(result, 1_000, 1_016, 80.4)).toBe(
      "breakdown seen=1000 quiet=16 templates=41 render=21 publish=2 build=80 rendered=68 bodiesReused=61 written=1",
    );
  });

  it("counts no quiet for a build no change started (the one after changes made during a build)", () => {
    expect(breakdownOf(result, null, 5_000, 10)).toMatch(/^breakdown seen=5000 quiet=0 /);
  });
});
