// Bundles the payments service's Lambda handler (src/api/lambda.ts) into one file with its
// dependencies, zips it, and writes the CloudFormation template beside it:
//   .nzf-cache/api-lambda/lambda.mjs, api-lambda.zip, api-stack.json
// Deploy with docs/deploy.md ("The payments API"). PGlite stays out: Lambda uses PostgreSQL.
import { build } from "esbuild";
import { execFileSync } from "node:child_process";
import { mkdir, rm, writeFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));
const out = `${root}.nzf-cache/api-lambda`;
await rm(out, { recursive: true, force: true });
await mkdir(out, { recursive: true });
await build({
  absWorkingDir: root,
  entryPoints: { lambda: "src/api/lambda.ts", template: "src/api/deploy/template.ts" },
  outdir: out,
  outExtension: { ".js": ".mjs" },
  bundle: true,
  platform: "node",
  format: "esm",
  target: "node20",
  external: ["@electric-sql/pglite", "pg-native"],
  // Some dependencies are CommonJS and call require(): give the bundle one.
  banner: {
    js: "import { createRequire as nzfRequire } from 'node:module'; const require = nzfRequire(import.meta.url);",
  },
  sourcemap: "linked",
  logLevel: "warning",
});
const { apiStackTemplate } = await import(`${out}/template.mjs`);
await writeFile(`${out}/api-stack.json`, JSON.stringify(apiStackTemplate(), null, 2) + "\n");
await rm(`${out}/template.mjs`);
await rm(`${out}/template.mjs.map`, { force: true });
execFileSync("zip", ["-q", "-j", `${out}/api-lambda.zip`, `${out}/lambda.mjs`, `${out}/lambda.mjs.map`]);
console.log(`wrote ${out}/api-lambda.zip and ${out}/api-stack.json`);
