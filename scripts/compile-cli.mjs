// Compiles the CLI (src/) into lib/nzf-build.mjs with esbuild. Runs on `npm install` (prepare)
// so `bin/nzf-build` works straight after install; templates are bundled by the build itself.
import { build } from "esbuild";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));
await build({
  absWorkingDir: root,
  entryPoints: { "nzf-build": "src/cli/main.ts", "nzf-bench": "bench/main.ts" },
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
