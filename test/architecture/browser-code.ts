/**
 * Which source files may run in a browser, as the folder READMEs declare it, and what the browser
 * bundles actually pull in. Used by browser-bundles.test.ts.
 *
 * A folder README marks its browser code on a line that starts `Runs in browsers:`, followed by
 * `everything here` or the files (backticked, relative to the folder; `name/` for a subfolder).
 * `templates/` has no README: the editor preview renders every template in the browser.
 */
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { build, type Metafile, type Plugin } from "esbuild";
import { authStandIn } from "../../src/bundle/auth-stand-in.js";

export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "../..");

/** The server's error catalogue: browser code shares its codes (src/core/coded-error.ts), never its hints. */
export const SERVER_CATALOGUE = "src/core/errors.ts";

const MARK = /^Runs in browsers[^:]*:(.*)$/;

/** Project paths (`src/zakat/`, `src/core/retry.ts`) that may run in a browser, from the READMEs. */
export function declaredBrowserCode(): string[] {
  const declared = ["templates/"];
  for (const folder of readdirSync(join(ROOT, "src"), { withFileTypes: true })) {
    if (!folder.isDirectory()) continue;
    let readme: string;
    try {
      readme = readFileSync(join(ROOT, "src", folder.name, "README.md"), "utf8");
    } catch {
      continue;
    }
    const mark = readme
      .split(/\n\s*\n/)
      .map((paragraph) => MARK.exec(paragraph.replace(/\s+/g, " ")))
      .find((m) => m !== null);
    if (!mark) continue;
    const text = mark[1]!;
    const base = `src/${folder.name}/`;
    if (/^\s*everything here/.test(text)) declared.push(base);
    else for (const [, name] of text.matchAll(/`([^`]+)`/g)) declared.push(base + name);
  }
  return declared;
}

export function isDeclared(input: string, declared: string[]): boolean {
  return declared.some((d) => (d.endsWith("/") ? input.startsWith(d) : input === d));
}

export interface BrowserBundle {
  name: string;
  metafile: Metafile;
}

/**
 * The browser builds (the three of src/bundle/island-bundle.ts and the service worker's), resolved as
 * they are resolved there (platform browser, the auth stand-in in the preview), for their import
 * graph only: nothing is written.
 */
export async function browserBundles(): Promise<BrowserBundle[]> {
  const names = (dir: string) =>
    readdirSync(join(ROOT, dir))
      .filter((f) => /\.tsx?$/.test(f))
      .map((f) => `${dir}/${f}`);
  const runs: { name: string; entryPoints: string[]; plugins: Plugin[] }[] = [
    { name: "islands", entryPoints: [...names("src/client/islands"), "src/client/hydrate.ts"], plugins: [] },
    { name: "scripts", entryPoints: names("src/client/entries"), plugins: [] },
    { name: "preview", entryPoints: ["src/preview-app/entry.ts"], plugins: [authStandIn(ROOT)] },
    { name: "service worker", entryPoints: ["src/site-files/worker/sw-source.ts"], plugins: [] },
  ];
  return Promise.all(
    runs.map(async (run) => {
      const result = await build({
        absWorkingDir: ROOT,
        entryPoints: run.entryPoints,
        plugins: run.plugins,
        bundle: true,
        splitting: true,
        format: "esm",
        platform: "browser",
        outdir: join(ROOT, ".nzf-cache/architecture-browser"),
        write: false,
        metafile: true,
        jsx: "automatic",
        logLevel: "silent",
        define: { "process.env.NODE_ENV": '"production"' },
      });
      return { name: run.name, metafile: result.metafile };
    }),
  );
}

/** How `input` got into the bundle: the chain of imports from an entry point, for the message. */
export function importChain(metafile: Metafile, input: string): string[] {
  const importedBy = new Map<string, string>();
  for (const [file, about] of Object.entries(metafile.inputs))
    for (const imp of about.imports) if (!importedBy.has(imp.path)) importedBy.set(imp.path, file);
  const chain = [input];
  for (let at = importedBy.get(input); at !== undefined && !chain.includes(at); at = importedBy.get(at))
    chain.unshift(at);
  return chain;
}
