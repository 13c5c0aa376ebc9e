/**
 * JavaScript shipped per page of the sample site, gzip: the pages that matter to donors, each island
 * page against its budget in all, each island's own code against its budget, which pages load
 * nothing but the page loader, and how many files carry React (one).
 */
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { join } from "node:path";
import { tmpdir } from "node:os";
import { gzipSync } from "node:zlib";
import { pageScriptUrls } from "./page-script-urls.js";
import fg from "fast-glob";
import { build } from "../src/pipeline/build.js";
import { resolveConfig } from "../src/core/config.js";
import { silentLogger } from "../src/core/logger.js";
import { measureCalculatorJs } from "./calculator.js";
import { measureDonationJs } from "./donation.js";
import { BENCH_PUBLIC_CONFIG, formatAccountJs, measureAccountJs } from "./account.js";
import { ISLAND_PAGE_BUDGET_GZIP, measurePageJs, reactFiles } from "./page-js.js";

/** Every module script a page loads, with the chunks they import (as modulepreload lists them). */
async function pageScripts(dist: string, file: string): Promise<string[]> {
  return pageScriptUrls(await readFile(join(dist, file), "utf8"));
}

export async function benchJs(options: { root: string; print?: (l: string) => void }): Promise<void> {
  const print = options.print ?? ((l: string) => console.log(l));
  const out = await mkdtemp(join(tmpdir(), "nzf-bench-js-"));
  const workDir = await mkdtemp(join(options.root, ".nzf-cache", "bench-js-"));
  try {
    const config = resolveConfig(
      { root: options.root, out, workDir, imageCacheDir: join(options.root, ".nzf-cache/images"), sample: true },
      {},
    );
    await build(config, { logger: silentLogger });
    const gz = async (url: string) => gzipSync(await readFile(join(out, url))).length;
    const pages = await fg("**/*.html", { cwd: out });
    const withNone: string[] = [];
    for (const page of [
      "index.html",
      "about/index.html",
      "calculate/index.html",
      "pay/zakat/index.html",
      "account/index.html",
      "faq/index.html",
    ]) {
      const scripts = await pageScripts(out, page);
      const sizes = await Promise.all(scripts.map(gz));
      const total = sizes.reduce((a, b) => a + b, 0);
      print(
        `js      /${page.replace(/index\.html$/, "")}: ${(total / 1024).toFixed(1)} KB gzip in ${scripts.length} files${scripts.length ? ` (${scripts.map((u, i) => `${u.split("/").pop()} ${(sizes[i]! / 1024).toFixed(1)}`).join(", ")})` : ""}`,
      );
    }
    const islands = (await fg("src/client/islands/*.tsx", { cwd: options.root })).map((f) =>
      f
        .split("/")
        .pop()!
        .replace(/\.tsx$/, ""),
    );
    const isIsland = (url: string) => islands.some((name) => url.startsWith(`/_islands/${name}-`));
    for (const page of pages) if (!(await pageScripts(out, page)).some(isIsland)) withNone.push(page);
    print(
      `js      ${withNone.length} of ${pages.length} pages load no island and no framework (only the page loader: picture fade, service-worker registration, tag manager, preview loader)`,
    );
    const kb = (n: number) => `${(n / 1024).toFixed(1)} KB`;
    const withIsland = pages.filter((p) => !withNone.includes(p)).sort();
    const measured = await Promise.all(
      withIsland.map(async (page) => ({
        path: `/${page.replace(/index\.html$/, "")}`,
        m: await measurePageJs(out, page),
      })),
    );
    const over = measured.filter(({ m }) => !m.withinBudget).map(({ path, m }) => `${path} ${kb(m.totalGzip)}`);
    const largest = measured.sort((a, b) => b.m.totalGzip - a.m.totalGzip)[0];
    if (largest)
      print(
        `js      island pages, all JavaScript loaded up front: at most ${kb(largest.m.totalGzip)} gzip (${largest.path}; budget ${kb(ISLAND_PAGE_BUDGET_GZIP)}); over budget: ${over.length ? over.join(", ") : "none"}`,
      );
    const react = await reactFiles(out);
    print(
      `js      files with React in them: ${react.length} (${react.join(", ")}; one is right: a second would be a duplicate)`,
    );
    const calc = await measureCalculatorJs(out);
    print(
      `js      /calculate/ calculator's own code: ${kb(calc.calculatorGzip)} gzip (budget 15 KB) on top of the shared React chunk ${kb(calc.reactGzip)}`,
    );
    const donation = await measureDonationJs(out);
    print(
      `js      /pay/zakat/ before the donor proceeds: the form's own code ${kb(donation.formGzip)} gzip (budget 15 KB) on top of React ${kb(donation.reactGzip)}; ` +
        `loaded only on "Continue to payment": ${(donation.deferredGzip / 1024).toFixed(1)} KB plus Stripe.js from Stripe`,
    );
    // The account page with a user pool configured, so the island (not the "unavailable" text) is measured.
    const withPool = resolveConfig(
      {
        root: options.root,
        out: out + "-account",
        workDir,
        imageCacheDir: join(options.root, ".nzf-cache/images"),
        sample: true,
      },
      {},
    );
    await build(withPool, { logger: silentLogger, publicConfig: BENCH_PUBLIC_CONFIG });
    for (const line of formatAccountJs(await measureAccountJs(out + "-account"))) print(line);
    await rm(out + "-account", { recursive: true, force: true });
  } finally {
    await rm(out, { recursive: true, force: true });
    await rm(workDir, { recursive: true, force: true });
  }
}
