/**
 * The import graph between the folders of src/ (each top-level folder one node, with the folders
 * inside it; a file directly in src/ is a node of its own) and templates/, read from the import and export statements of the source files.
 * Used by imports.test.ts; `npx vitest run test/architecture` prints the edges of any cycle it finds.
 */
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve, sep } from "node:path";
import { fileURLToPath } from "node:url";

export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
const SOURCE = /\.(ts|tsx|mts|mjs|js)$/;
/** import/export ... from "x", bare import "x", and import("x"). */
const SPECIFIER =
  /(?:^|[;\s}])(?:import|export)\s+(?:type\s+)?(?:[^'"`;]*?\sfrom\s*)?["']([^"']+)["']|\bimport\(\s*["']([^"']+)["']\s*\)/gm;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === "node_modules" ? [] : sourceFiles(path);
    return SOURCE.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) ? [path] : [];
  });
}

/** The folder a file belongs to: `render` for src/render/x.ts, `templates` for templates/**, null outside. */
export function folderOf(file: string): string | null {
  const parts = relative(ROOT, file).split(sep);
  if (parts[0] === "templates") return "templates";
  if (parts[0] !== "src") return null;
  return parts.length === 2 ? parts[1]!.replace(SOURCE, "") : parts[1]!;
}

/** Specifiers a file imports (comments are not stripped: a quoted import in a comment counts). */
export function importsOf(text: string): string[] {
  return [...text.matchAll(SPECIFIER)].map((m) => (m[1] ?? m[2])!);
}

export interface FolderEdge {
  from: string;
  to: string;
  /** One file and specifier behind the edge, for the message. */
  example: string;
}

export function folderEdges(): FolderEdge[] {
  const edges = new Map<string, FolderEdge>();
  for (const file of [...sourceFiles(join(ROOT, "src")), ...sourceFiles(join(ROOT, "templates"))]) {
    const from = folderOf(file);
    if (from === null) continue;
    for (const specifier of importsOf(readFileSync(file, "utf8"))) {
      if (!specifier.startsWith(".")) continue;
      const to = folderOf(resolve(dirname(file), specifier));
      if (to === null || to === from) continue;
      const key = `${from} ${to}`;
      if (!edges.has(key)) edges.set(key, { from, to, example: `${relative(ROOT, file)} imports ${specifier}` });
    }
  }
  return [...edges.values()].sort((a, b) => (a.from + a.to).localeCompare(b.from + b.to));
}

/** Pairs of folders that import each other, directly or through others: each strongly connected group of two or more. */
export function folderCycles(edges: FolderEdge[]): string[][] {
  const next = new Map<string, string[]>();
  for (const e of edges) next.set(e.from, [...(next.get(e.from) ?? []), e.to]);
  const nodes = [...new Set(edges.flatMap((e) => [e.from, e.to]))].sort();
  // Tarjan's algorithm.
  let counter = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const groups: string[][] = [];
  const visit = (node: string): void => {
    index.set(node, counter);
    low.set(node, counter++);
    stack.push(node);
    onStack.add(node);
    for (const to of next.get(node) ?? []) {
      if (!index.has(to)) {
        visit(to);
        low.set(node, Math.min(low.get(node)!, low.get(to)!));
      } else if (onStack.has(to)) low.set(node, Math.min(low.get(node)!, index.get(to)!));
    }
    if (low.get(node) === index.get(node)) {
      const group: string[] = [];
      let member: string;
      do {
        member = stack.pop()!;
        onStack.delete(member);
        group.push(member);
      } while (member !== node);
      if (group.length > 1) groups.push(group.sort());
    }
  };
  for (const node of nodes) if (!index.has(node)) visit(node);
  return groups.sort((a, b) => a.join().localeCompare(b.join()));
}
