/**
 * Where in the templates a render failed. The compiled template module has a source map beside it
 * (`<module>.cjs.map` or `.mjs.map`, sources relative to the project: src/bundle/template-bundle.ts); a failure
 * reads it and maps the error's stack frames back to the first one in the project's own code, so
 * the build names `templates/pages/x.tsx:49:7` instead of a line of a bundle. Nothing is read
 * until a page fails: source maps cost nothing when every page renders. Runs in render workers too.
 */
import { readFileSync, statSync } from "node:fs";
import { SourceMap } from "node:module";
import { fileURLToPath } from "node:url";

export interface SourceLocation {
  /** Relative to the project, e.g. `templates/pages/collections.tsx`. */
  file: string;
  line: number;
  column: number;
}

const maps = new Map<string, SourceMap | null>();

/** The module's map, by its modification time: a comment-only edit rewrites the map of an unchanged module. */
function mapFor(moduleFile: string): SourceMap | null {
  const mapFile = `${moduleFile}.map`;
  let key: string;
  try {
    key = `${mapFile}@${statSync(mapFile).mtimeMs}`;
  } catch {
    return null;
  }
  let map = maps.get(key);
  if (map === undefined) {
    try {
      map = new SourceMap(JSON.parse(readFileSync(mapFile, "utf8")));
    } catch {
      map = null;
    }
    maps.set(key, map);
  }
  return map;
}

// `    at Body (file:///…/entry-abc.mjs:1234:56)`, `    at file:///…/entry-abc.mjs:1234:56`, or a plain
// path where the module was loaded by another loader (vitest's, or the code cache's: entry-abc.cjs).
const FRAME = /((?:file:\/\/)?\/[^\s()]+?\.[cm]js):(\d+):(\d+)\)?\s*$/;

/** The first frame of the error's stack in the project's own sources (not node_modules), or null. */
export function templateLocationOf(error: unknown): SourceLocation | null {
  const stack = error instanceof Error && typeof error.stack === "string" ? error.stack : "";
  for (const line of stack.split("\n")) {
    const frame = FRAME.exec(line);
    if (!frame) continue;
    let file: string;
    try {
      file = frame[1]!.startsWith("file:") ? fileURLToPath(frame[1]!) : frame[1]!;
    } catch {
      continue;
    }
    const entry = mapFor(file)?.findEntry(Number(frame[2]) - 1, Number(frame[3]) - 1) as
      | { originalSource?: string; originalLine?: number; originalColumn?: number }
      | undefined;
    if (!entry?.originalSource || entry.originalSource.includes("node_modules/")) continue;
    return { file: entry.originalSource, line: (entry.originalLine ?? 0) + 1, column: (entry.originalColumn ?? 0) + 1 };
  }
  return null;
}

/** `TypeError: Cannot read …`: the error as a person reads it, name included. */
export function errorText(error: unknown): string {
  if (error instanceof Error)
    return error.name && error.name !== "Error" ? `${error.name}: ${error.message}` : error.message;
  return String(error);
}
