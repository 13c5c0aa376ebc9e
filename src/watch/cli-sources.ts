/**
 * Which sources are nzf-build itself. Most of src/ is compiled into lib/ by `npm run compile`
 * (scripts/compile-cli.mjs, which lists them in lib/cli-sources.json); a change there does nothing
 * to a running nzf-build until it is recompiled and started again. The rest (templates/, the
 * browser code in src/client/, the render worker) is bundled by every build, so a rebuild picks it up.
 */
import { existsSync, readFileSync, realpathSync } from "node:fs";
import { basename, dirname, join, resolve } from "node:path";

export interface Installation {
  /** The folder with bin/, lib/, scripts/ and src/. */
  root: string;
  /** Paths relative to root of the sources compiled into lib/. */
  sources: ReadonlySet<string>;
  /** Whether it can recompile itself (a checkout with scripts/compile-cli.mjs). */
  compilable: boolean;
}

/** The nzf-build this process runs, when it was started by its launcher (bin/nzf-build), else null. */
export function currentInstallation(argv: string[] = process.argv): Installation | null {
  const launcher = argv[1];
  if (!launcher || basename(launcher) !== "nzf-build") return null;
  let root: string;
  try {
    root = resolve(dirname(realpathSync(launcher)), "..");
  } catch {
    return null;
  }
  const sources = readCliSources(root);
  if (!sources) return null;
  return { root, sources, compilable: existsSync(join(root, "scripts", "compile-cli.mjs")) };
}

export function readCliSources(root: string): Set<string> | null {
  try {
    const list = JSON.parse(readFileSync(join(root, "lib", "cli-sources.json"), "utf8")) as unknown;
    return Array.isArray(list) ? new Set(list.filter((f): f is string => typeof f === "string")) : null;
  } catch {
    return null;
  }
}

/** Tests and editor files are not part of anything a build or the CLI uses. */
export function isIgnoredSource(file: string): boolean {
  return /\.test\.tsx?$|(^|\/)__tests__\//.test(file);
}
