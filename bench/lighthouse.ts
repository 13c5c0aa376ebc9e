/**
 * Lighthouse scores (mobile, the default form factor and throttling) for the home, calculate, a
 * pay page and the account page of a built site, served on loopback as `nzf-build preview` serves it
 * (src/server/preview-server.ts: S3 behind CloudFront, with the generated `_headers`, CSP included,
 * and gzip), in the same Chromium the browser tests use. Target: 100 for
 * performance, accessibility, best practices and SEO.
 *
 * How it measures, following Lighthouse's own advice on variability (docs/variability.md there):
 * - one warm-up run first, discarded: Chromium's first page after launch paints up to a second
 *   late while its compositor starts, which no donor's already-running browser does;
 * - five runs per page, the median reported, every run printed;
 * - a bare control page (a heading and a paragraph, no CSS, no script, no image) scored the same
 *   way: what this host alone costs. Lighthouse's mobile figures multiply the host's own main-thread
 *   time by 4, so on a busy 2-core machine even that page loses points.
 *
 * `lighthouse` (v12 supports Node 20) is a dev dependency, imported dynamically so the CLI bundle
 * never loads it; the function says how to add it when it is missing. SEO notes: build with `--site-url` set to the
 * served origin for the canonical audit to compare like with like; the tag manager's host is
 * blocked (no internet here), which is what a donor with a blocker sees.
 */
import { existsSync } from "node:fs";
import { resolveChromium } from "../test/support/chromium-path.js";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startPreviewServer } from "../src/server/preview-server.js";
import { startStaticServer } from "../src/server/static-server.js";

export const LIGHTHOUSE_PATHS = ["/", "/calculate/", "/pay/zakat/", "/account/"];
/** The path the control page is reported under. */
export const CONTROL_PATH = "(control)";
const CONTROL_PAGE = `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Control page</title><meta name="description" content="A bare page that measures the host, not the site."></head><body><main><h1>Control page</h1><p>A heading and a paragraph: no stylesheet, no script, no image.</p></main></body></html>\n`;
const CATEGORIES = ["performance", "accessibility", "best-practices", "seo"] as const;
type Category = (typeof CATEGORIES)[number];

export interface LighthouseScores {
  path: string;
  /** 0–100 per category; null when Lighthouse could not score it. */
  scores: Record<Category, number | null>;
  /** The lab metrics (FCP, LCP, TBT, CLS, SI) as Lighthouse displays them. */
  metrics: Record<string, string>;
  /** Weighted audits that did not pass, to say what keeps a score under 100. */
  failing: string[];
  /** Performance score of every run, when the page was scored more than once. */
  runs?: number[];
  /**
   * Lighthouse's measure of the host's speed for this run. Its mobile CPU throttling (4x) assumes a
   * host of about 1,000–2,000; a busy machine measures lower and its simulated TBT grows with it.
   */
  benchmarkIndex?: number;
}

export interface LighthouseOptions {
  /** The built site (dist/). */
  distDir: string;
  paths?: string[];
  chromePath?: string;
  /**
   * Runs per page; the run with the median performance score is reported. Lighthouse's mobile
   * figures are simulated from the observed main-thread tasks, so a busy machine moves them by
   * several points from one run to the next.
   */
  runs?: number;
  /** Also score the bare control page (see the header); its result comes last, as CONTROL_PATH. */
  control?: boolean;
}

async function chromePath(explicit?: string): Promise<string> {
  return explicit && existsSync(explicit) ? explicit : resolveChromium();
}

// Dynamic imports through a variable: the project type-checks and bundles without lighthouse installed.
async function load<T>(name: string): Promise<T> {
  try {
    return (await import(/* @vite-ignore */ name)) as T;
  } catch (error) {
    throw new Error(
      `The benchmark needs the "${name}" package: \`npm install --save-dev lighthouse@12\` (it brings chrome-launcher). Cause: ${(error as Error).message}`,
    );
  }
}

interface LighthouseResult {
  lhr: {
    environment?: { benchmarkIndex?: number };
    categories: Record<string, { score: number | null; auditRefs?: { id: string; weight: number }[] } | undefined>;
    audits: Record<string, { score: number | null; displayValue?: string; title: string }>;
    runtimeError?: { message: string };
  };
}
type LighthouseFn = (url: string, flags: Record<string, unknown>) => Promise<LighthouseResult | undefined>;

export async function runLighthouse(options: LighthouseOptions): Promise<LighthouseScores[]> {
  const { default: lighthouse } = await load<{ default: LighthouseFn }>("lighthouse");
  const launcher = await load<{
    launch(o: { chromePath: string; chromeFlags: string[] }): Promise<{ port: number; kill(): Promise<void> | void }>;
  }>("chrome-launcher");
  const server = await startPreviewServer({ root: options.distDir, host: "127.0.0.1", port: 0 });
  const chrome = await launcher.launch({
    chromePath: await chromePath(options.chromePath),
    chromeFlags: [
      "--headless=new",
      "--no-sandbox",
      "--disable-gpu",
      "--disable-dev-shm-usage",
      "--no-first-run",
      "--disable-background-networking",
    ],
  });
  const controlDir = options.control ? await mkdtemp(join(tmpdir(), "nzf-lh-control-")) : null;
  const control = controlDir
    ? await writeFile(join(controlDir, "index.html"), CONTROL_PAGE).then(() => startStaticServer({ root: controlDir }))
    : null;
  const score = (origin: string, path: string) =>
    // A loaded machine sometimes makes Lighthouse give up on a run (a protocol timeout): try that run once more.
    scorePage(lighthouse, origin, path, chrome.port).catch(() => scorePage(lighthouse, origin, path, chrome.port));
  const pages = (options.paths ?? LIGHTHOUSE_PATHS).map((path) => ({ origin: server.url, path, report: path }));
  if (control) pages.push({ origin: control.url, path: "/", report: CONTROL_PATH });
  const results: LighthouseScores[] = [];
  try {
    await score(pages[0]!.origin, pages[0]!.path); // the warm-up run, discarded (see the header)
    for (const page of pages) {
      const perPage: LighthouseScores[] = [];
      for (let i = 0; i < Math.max(1, options.runs ?? 1); i++)
        perPage.push({ ...(await score(page.origin, page.path)), path: page.report });
      const sorted = [...perPage].sort((a, b) => (a.scores.performance ?? 0) - (b.scores.performance ?? 0));
      const median = sorted[Math.floor((sorted.length - 1) / 2)]!;
      results.push(perPage.length > 1 ? { ...median, runs: perPage.map((r) => r.scores.performance ?? 0) } : median);
    }
  } finally {
    await chrome.kill();
    await server.stop();
    await control?.stop();
    if (controlDir) await rm(controlDir, { recursive: true, force: true });
  }
  return results;
}

async function scorePage(
  lighthouse: LighthouseFn,
  origin: string,
  path: string,
  port: number,
): Promise<LighthouseScores> {
  const run = await lighthouse(origin + path, {
    port,
    output: "json",
    logLevel: "error",
    onlyCategories: [...CATEGORIES],
    blockedUrlPatterns: ["*googletagmanager.com*", "*google-analytics.com*"],
  });
  if (!run) throw new Error(`Lighthouse returned nothing for ${path}`);
  if (run.lhr.runtimeError) throw new Error(`Lighthouse failed on ${path}: ${run.lhr.runtimeError.message}`);
  const scores = Object.fromEntries(
    CATEGORIES.map((c) => {
      const score = run.lhr.categories[c]?.score;
      return [c, typeof score === "number" ? Math.round(score * 100) : null];
    }),
  ) as Record<Category, number | null>;
  const audits = run.lhr.audits;
  const metrics = Object.fromEntries(
    [
      "first-contentful-paint",
      "largest-contentful-paint",
      "total-blocking-time",
      "cumulative-layout-shift",
      "speed-index",
    ].map((id) => [id, audits[id]?.displayValue ?? "–"]),
  );
  const failing = CATEGORIES.flatMap((c) =>
    (run.lhr.categories[c]?.auditRefs ?? [])
      .filter((ref) => ref.weight > 0 && (audits[ref.id]?.score ?? 1) < 1)
      .map((ref) => `${c}: ${audits[ref.id]!.title}`),
  );
  return { path, scores, metrics, failing, benchmarkIndex: run.lhr.environment?.benchmarkIndex };
}

/** One line per page, e.g. `/calculate/  perf 100  a11y 100  bp 100  seo 100`. */
export function formatScores(results: LighthouseScores[]): string {
  const short: Record<Category, string> = {
    performance: "perf",
    accessibility: "a11y",
    "best-practices": "bp",
    seo: "seo",
  };
  return results
    .map(
      (r) =>
        `${r.path.padEnd(14)}${CATEGORIES.map((c) => `${short[c]} ${r.scores[c] ?? "–"}`.padEnd(10)).join("")}` +
        ` (FCP ${r.metrics["first-contentful-paint"]}, LCP ${r.metrics["largest-contentful-paint"]}, TBT ${r.metrics["total-blocking-time"]}, CLS ${r.metrics["cumulative-layout-shift"]})` +
        (r.runs ? ` median of ${r.runs.length} runs (perf ${r.runs.join(", ")})` : "") +
        (r.benchmarkIndex ? `, host benchmark index ${Math.round(r.benchmarkIndex)}` : "") +
        (r.failing.length ? `\n  below 100: ${r.failing.join("; ")}` : ""),
    )
    .join("\n");
}
