/**
 * The Lighthouse section of `npm run bench`: builds the sample site (with a user pool, so /account/
 * has its sign-in island as in production) and scores the home, calculate, zakat and account pages
 * on mobile (see bench/lighthouse.ts), after a discarded warm-up run, five runs each, the median
 * reported (`NZF_LIGHTHOUSE_RUNS=1` for one), then the bare control page.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { join } from "node:path";
import { tmpdir } from "node:os";
import { build } from "../src/pipeline/build.js";
import { resolveConfig } from "../src/core/config.js";
import { silentLogger } from "../src/core/logger.js";
import { formatScores, runLighthouse } from "./lighthouse.js";
import { BENCH_PUBLIC_CONFIG } from "./account.js";

export async function benchLighthouse(options: { root: string; print?: (l: string) => void }): Promise<void> {
  const print = options.print ?? ((l: string) => console.log(l));
  const out = await mkdtemp(join(tmpdir(), "nzf-bench-lh-"));
  const workDir = await mkdtemp(join(options.root, ".nzf-cache", "bench-lh-"));
  try {
    const config = resolveConfig(
      { root: options.root, out, workDir, imageCacheDir: join(options.root, ".nzf-cache/images"), sample: true },
      {},
    );
    await build(config, { logger: silentLogger, publicConfig: BENCH_PUBLIC_CONFIG });
    const results = await runLighthouse({
      distDir: out,
      runs: Number(process.env.NZF_LIGHTHOUSE_RUNS) || 5,
      control: true,
    }).catch((error: Error) => {
      // No Chromium here: say so and let the other sections' figures stand.
      print(`lighthouse skipped: ${error.message}`);
      return null;
    });
    if (results) print(formatScores(results).replace(/^/gm, "lighthouse "));
  } finally {
    await rm(out, { recursive: true, force: true });
    await rm(workDir, { recursive: true, force: true });
  }
}
