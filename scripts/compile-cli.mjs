// Compiles the CLI (src/) into lib/nzf-build.mjs with esbuild. Runs on `npm install` (prepare)
// so `bin/nzf-build` works straight after install; templates are bundled by the build itself.
import { build } from "esbuild";
import { createHash } from "node:crypto";
import { readFile, writeFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));
const result = await build({
  absWorkingDir: root,
  metafile: true,
  entryPoints: {
    "nzf-build": "src/cli/main.ts",
    "nzf-bench": "bench/main.ts",
  },
  outdir: "lib",
  outExtension: { ".js": ".mjs" },
  bundle: true,
  splitting: true,
  platform: "node",
  format: "esm",
  target: "node20.19",
  packages: "external",
  sourcemap: "linked",
  logLevel: "warning",
  jsx: "automatic",
});

// The compiled code's identity (lib/build-id), part of every site build's key (src/pipeline/build.ts): after
// an update of nzf-build itself, the next build renders and writes the site files again instead of
// finding "nothing changed" and keeping, say, the old headers policy.
const hash = createHash("sha1");
for (const file of Object.keys(result.metafile.outputs)
  .filter((f) => f.endsWith(".mjs"))
  .sort())
  hash.update(file).update(await readFile(new URL(file, `file://${root}/`)));
await writeFile(new URL("lib/build-id", `file://${root}/`), hash.digest("hex") + "\n");

// The sources compiled into the CLI (lib/cli-sources.json): watch mode recompiles and restarts itself
// when one of these changes, and rebuilds the site for any other change (src/watch/cli-sources.ts).
const sources = new Set();
for (const [file, output] of Object.entries(result.metafile.outputs)) {
  if (!file.endsWith(".mjs") || file === "lib/nzf-bench.mjs") continue;
  for (const input of Object.keys(output.inputs)) if (input.startsWith("src/")) sources.add(input);
}
await writeFile(
  new URL("lib/cli-sources.json", `file://${root}/`),
  JSON.stringify([...sources].sort(), null, 1) + "\n",
);
