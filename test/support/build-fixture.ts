/**
 * Runs the real build into a fresh temporary folder. Each call gets its own output and work folder
 * (inside .nzf-cache so the compiled templates resolve react from node_modules), so test files can
 * run in parallel; the compiled bundles in it are the run's, shared (./shared-bundles.ts).
 */
import { mkdtemp, rm, mkdir, readdir, readFile } from "node:fs/promises";
import { createHash } from "node:crypto";
import { join, resolve } from "node:path";
import { tmpdir } from "node:os";
import { build, type BuildDeps, type BuildResult } from "../../src/pipeline/build.js";
import { createBuilder, type Builder, type BuilderOptions } from "../../src/pipeline/builder.js";
import type { RenderPolicy } from "../../src/render/render-policy.js";
import { resolveConfig, type BuildConfig, type ConfigInput } from "../../src/core/config.js";
import { createMemoryLogger, type MemoryLogger } from "../../src/core/logger.js";
import { linkSharedBundles, type OwnBundles } from "./shared-bundles.js";
import { sharedImageCache } from "./shared-images.js";

export const PROJECT_ROOT = resolve(import.meta.dirname, "../..");

export interface Fixture {
  config: BuildConfig;
  logger: MemoryLogger;
  dir: string;
  /** The builder the fixture's builds share (its render workers, memories). */
  builder: Builder;
  run(deps?: Partial<BuildDeps>): Promise<BuildResult>;
  cleanup(): Promise<void>;
}

/**
 * A builder as a caller makes one, and, with `render`, rendering the way a test needs that every
 * command leaves at its default (src/render/render-policy.ts), e.g. in workers from 1 page.
 */
export interface FixtureBuilderOptions extends BuilderOptions {
  render?: Partial<RenderPolicy>;
}

export function createTestBuilder(options: FixtureBuilderOptions = {}): Builder {
  const { render, ...callerOptions } = options;
  const builder = createBuilder(callerOptions);
  return render ? { ...builder, render: { ...builder.render, ...render } } : builder;
}

/**
 * `builder` sets how the fixture's builds render (createTestBuilder). A fixture that builds the
 * project's own sources shares the run's compiled bundles (./shared-bundles.ts), unless
 * `ownBundles` (a test that corrupts a bundle entry or needs a cold compile: all families, or those listed).
 */
export async function createFixture(
  input: ConfigInput = {},
  env: NodeJS.ProcessEnv = {},
  builder: FixtureBuilderOptions = {},
  { ownBundles = false }: { ownBundles?: OwnBundles } = {},
): Promise<Fixture> {
  const dir = await mkdtemp(join(tmpdir(), "nzf-test-"));
  await mkdir(join(PROJECT_ROOT, ".nzf-cache"), { recursive: true });
  const workDir = await mkdtemp(join(PROJECT_ROOT, ".nzf-cache", "test-"));
  // Another project folder (a copy a test edits) compiles its own: its records would keep replacing the project's.
  const ownSources = input.root === undefined || resolve(input.root) === PROJECT_ROOT;
  if (ownSources) await linkSharedBundles(workDir, "project", ownBundles);
  // Processed images are the run's, shared between fixtures (./shared-images.ts), so only the first build pays for sharp.
  const imageCacheDir = sharedImageCache();
  const config = resolveConfig(
    {
      root: PROJECT_ROOT,
      out: join(dir, "dist"),
      workDir,
      imageCacheDir,
      contentDir: input.contentDir ?? join(PROJECT_ROOT, "content-cache"),
      ...input,
    },
    env,
  );
  const logger = createMemoryLogger();
  // One per fixture, as a long-running caller keeps one: its builds reuse what the last one made.
  const kept = createTestBuilder(builder);
  return {
    config,
    logger,
    dir,
    builder: kept,
    run: (deps = {}) => build(config, { logger, builder: kept, ...deps }),
    async cleanup() {
      await kept.close();
      await rm(dir, { recursive: true, force: true });
      await rm(workDir, { recursive: true, force: true });
    },
  };
}

/** The URL path of every HTML file of a built site (`index.html` → `/`, `about/index.html` → `/about/`), sorted. */
export async function sitePagePaths(dir: string): Promise<string[]> {
  const fg = (await import("fast-glob")).default;
  const files = await fg("**/*.html", { cwd: dir });
  return files
    .map((f) =>
      f === "index.html" ? "/" : f.endsWith("/index.html") ? `/${f.slice(0, -"index.html".length)}` : `/${f}`,
    )
    .sort();
}

/** Every file of a built site (relative path → sha1 of its bytes), to compare two builds byte for byte. */
export async function siteFileHashes(dir: string): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const entry of await readdir(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const file = join(entry.parentPath, entry.name);
    out[file.slice(dir.length + 1)] = createHash("sha1")
      .update(await readFile(file))
      .digest("hex");
  }
  return out;
}
