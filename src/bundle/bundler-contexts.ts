/**
 * esbuild build contexts kept between builds by a long-running process (watch mode, the benchmark).
 * A context's rebuild parses again only the files that changed, so a template edit rebuilds the
 * template bundle and the editor-preview bundle (which contains the templates) in a fraction of a
 * full build's time. An undisposed context keeps Node running, so the owner disposes them when it
 * stops; one-shot builds (the CLI, tests) pass none and run plain esbuild builds.
 */
import type { BuildContext, BuildOptions, BuildResult } from "esbuild";

export class BundlerContexts {
  private readonly contexts = new Map<string, { key: string; context: BuildContext }>();

  /** Builds with the context kept under `slot`, made again when the options changed. */
  async build(slot: string, options: BuildOptions): Promise<BuildResult> {
    // Plugins are functions: their names stand for them in the key.
    const key = JSON.stringify({ ...options, plugins: options.plugins?.map((p) => p.name) });
    let kept = this.contexts.get(slot);
    if (kept?.key !== key) {
      await kept?.context.dispose();
      this.contexts.delete(slot);
      const { context } = await import("esbuild");
      kept = { key, context: await context(options) };
      this.contexts.set(slot, kept);
    }
    return kept.context.rebuild();
  }

  /**
   * Cancels the rebuild running under `slot`, if any: it fails with esbuild's "The build was
   * canceled" and the context stays usable (watch mode gives up the editor-preview bundle for a save).
   */
  async cancel(slot: string): Promise<void> {
    await this.contexts.get(slot)?.context.cancel();
  }

  async dispose(): Promise<void> {
    const all = [...this.contexts.values()];
    this.contexts.clear();
    await Promise.all(all.map((kept) => kept.context.dispose()));
  }
}

/** One esbuild build: through a kept context when the caller has contexts, otherwise a plain build. */
export async function runEsbuild(
  contexts: BundlerContexts | undefined,
  slot: string,
  options: BuildOptions,
): Promise<BuildResult> {
  if (contexts) return contexts.build(slot, options);
  const { build } = await import("esbuild");
  return build(options);
}
