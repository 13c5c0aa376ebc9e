// Compiles the CLI (src/) into lib/nzf-build.mjs with esbuild. Runs on `npm install` (prepare)
// so `bin/nzf-build` works straight after install; templates are bundled by the build itself.
import { build } from "esbuild";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));
await build({
  absWorkingDir: root,
  // worker-boot is its own entry so the launcher can start render workers before it loads the CLI
  // (src/render/worker-boot.ts); the CLI shares the same module instance through a common chunk.
  entryPoints: { "nzf-build": "src/cli/main.ts", "nzf-bench": "bench/main.ts", "worker-boot": "src/render/worker-boot.ts" },
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
