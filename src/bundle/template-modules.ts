/**
 * Which module of templates/ each page template comes from, read from the entry's source: its
 * `import { … } from "./pages/….js"` lines and its `TEMPLATES` table. With it, an edit of one page
 * template renders again only the bodies of that template's pages (src/bundle/template-bundle.ts,
 * bodyHashOf), not every page's. Read, not run: a form this reader does not follow (a spread, a
 * computed key, an import under another form) gives no answer for the templates it concerns, and
 * their bodies then depend on every page module, as before.
 */

/** Template name → the module it is imported from (project-relative, as esbuild names its inputs). */
export type TemplateModules = ReadonlyMap<string, string>;

const IDENTIFIER = /^[A-Za-z_$][\w$]*$/;

/**
 * Reads the entry's source. `entry` is its project-relative path; `imports` the project files it
 * imports as esbuild resolved them (its metafile), so "./pages/home.js" is matched to
 * "templates/pages/home.tsx".
 */
export function templateModulesOf(entry: string, source: string, imports: readonly string[]): TemplateModules {
  const found = new Map<string, string>();
  const bindings = importedBindings(entry, source, imports);
  const table = templatesTable(source);
  if (!table) return found;
  for (const [name, binding] of table) {
    const module = bindings.get(binding);
    if (module) found.set(name, module);
  }
  return found;
}

/** Local name → project file, for the named imports of project files (a name bound twice is dropped). */
function importedBindings(entry: string, source: string, imports: readonly string[]): Map<string, string> {
  const bindings = new Map<string, string>();
  const twice = new Set<string>();
  const dir = entry.slice(0, entry.lastIndexOf("/") + 1);
  for (const match of source.matchAll(/^import\s+(?:type\s+)?\{([^}]*)\}\s*from\s*["']([^"']+)["'];?/gm)) {
    if (/^import\s+type\b/.test(match[0])) continue;
    const module = resolveImport(dir, match[2]!, imports);
    if (!module) continue;
    for (const part of match[1]!.split(",")) {
      const spec = part.trim();
      if (!spec || spec.startsWith("type ")) continue;
      const [, local = ""] = /^(?:[\w$]+\s+as\s+)?([\w$]+)$/.exec(spec) ?? [];
      if (!IDENTIFIER.test(local)) continue;
      if (bindings.has(local)) twice.add(local);
      bindings.set(local, module);
    }
  }
  for (const name of twice) bindings.delete(name);
  return bindings;
}

/** The imported file among `imports` a relative specifier names ("./pages/home.js" → "templates/pages/home.tsx"). */
function resolveImport(dir: string, specifier: string, imports: readonly string[]): string | null {
  if (!specifier.startsWith("./")) return null;
  const stem = normalize(dir + specifier.slice(2)).replace(/\.(?:js|jsx|ts|tsx|mjs)$/, "");
  const matches = imports.filter((file) => file.replace(/\.(?:js|jsx|ts|tsx|mjs)$/, "") === stem);
  return matches.length === 1 ? matches[0]! : null;
}

function normalize(path: string): string {
  const parts: string[] = [];
  for (const part of path.split("/")) {
    if (part === "..") parts.pop();
    else if (part !== ".") parts.push(part);
  }
  return parts.join("/");
}

/**
 * The entries of `export const TEMPLATES … = { … };` as [template name, local binding], or null when
 * the table is not there or holds anything but `name`, `name: binding` or `"name": binding`.
 */
function templatesTable(source: string): [string, string][] | null {
  const start = /\bexport\s+const\s+TEMPLATES\b[^=]*=\s*\{/.exec(source);
  if (!start) return null;
  const body = source.slice(start.index + start[0].length);
  const end = body.indexOf("}");
  if (end === -1) return null;
  const entries: [string, string][] = [];
  for (const part of body.slice(0, end).split(",")) {
    const entry = part.replace(/\/\/.*$/gm, "").trim();
    if (!entry) continue;
    const pair = /^(?:([\w$]+)|"([^"\\]+)"|'([^'\\]+)')\s*(?::\s*([\w$]+))?$/.exec(entry);
    if (!pair) return null;
    const name = pair[1] ?? pair[2] ?? pair[3]!;
    const binding = pair[4] ?? pair[1];
    if (!binding) return null;
    entries.push([name, binding]);
  }
  return entries;
}
