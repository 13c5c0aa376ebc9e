/**
 * Watch mode's browser script (src/client/dev/live-client.ts), bundled by esbuild when watch mode
 * starts and served at /__nzf/reload.js by src/watch/live-reload.ts. It is nzf-build's own code,
 * not the site's: it is read from this installation (beside src/watch/ when run from the sources,
 * under src/ beside lib/ when compiled), and no site build bundles it (src/bundle/island-bundle.ts
 * bundles src/client/islands/ and entries/ only; test/watch/dev-client.test.ts checks a build).
 */
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";

const ENTRY = "client/dev/live-client.ts";

/** The dev client's entry: from the sources (src/watch/../client), or from the compiled CLI (lib/../src). */
export function devClientEntry(): string {
  for (const relative of [`../${ENTRY}`, `../src/${ENTRY}`]) {
    const file = fileURLToPath(new URL(relative, import.meta.url));
    if (existsSync(file)) return file;
  }
  throw new Error(`watch mode's browser script (src/${ENTRY}) is missing from this installation`);
}

/** The dev client as one browser module. */
export async function bundleDevClient(): Promise<string> {
  const result = await build({
    entryPoints: [devClientEntry()],
    bundle: true,
    write: false,
    format: "esm",
    platform: "browser",
    target: "es2022",
    logLevel: "silent",
    legalComments: "none",
  });
  return result.outputFiles[0]!.text;
}
