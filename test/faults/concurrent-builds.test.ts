/**
 * Two nzf-build processes on one project (a webhook server's build beside a CLI build, say) share
 * the project's .nzf-cache/: neither may crash or corrupt the other (issue 36). The two are built
 * for different site URLs, which the browser bundles carry: in each round at least one compiles
 * the islands again while the other compiles or reuses them, and both link the bundles from the
 * shared folder into their sites at the same time.
 */
import { readFile, readdir, stat } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PROJECT_ROOT } from "../support/build-fixture.js";
import { cli, projectRoot, removeTemporary, tempDir } from "../cli/cli-process.js";

const ROUNDS = 4;

beforeAll(async () => {
  const lib = await stat(join(PROJECT_ROOT, "lib", "nzf-build.mjs")).catch(() => null);
  expect(lib, "lib/ is missing: run npm run compile").not.toBeNull();
});
afterAll(removeTemporary);

describe("two builds of one project at once", () => {
  it(`both succeed ${ROUNDS} times in a row, and each site has every island it names`, async () => {
    const root = await projectRoot();
    for (let round = 1; round <= ROUNDS; round++) {
      const dir = await tempDir();
      const outs = [join(dir, "a"), join(dir, "b")];
      const runs = await Promise.all(
        outs.map((out, i) =>
          cli(["build", "--root", root, "--out", out, "--site-url", `https://${"ab"[i]}.example`], {}, 120_000),
        ),
      );
      for (const run of runs) {
        expect(run.code, `round ${round}:\n${run.output}`).toBe(0);
        expect(run.output).not.toContain("ENOENT");
      }
      for (const out of outs) {
        const islands = await readdir(join(out, "_islands"));
        const home = await readFile(join(out, "index.html"), "utf8");
        for (const src of home.matchAll(/\/_islands\/([^"'?]+\.js)/g))
          expect(islands, `${out}: ${src[1]}`).toContain(src[1]!.split("/")[0]);
      }
    }
  }, 600_000);
});
