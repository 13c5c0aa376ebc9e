// Regenerates the sample snapshot: bundles generate.ts with esbuild (no TypeScript runner is
// installed) into a temporary module, imports it and writes content-cache/sample/snapshot.json.
//
//   node scripts/sample/generate.mjs
import { build } from "esbuild";
import { mkdtemp, rm, symlink } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const root = resolve(here, "..", "..");
const temp = await mkdtemp(join(tmpdir(), "nzf-sample-"));
try {
  const outfile = join(temp, "generate.mjs");
  await build({
    entryPoints: [join(here, "generate.ts")],
    bundle: true,
    platform: "node",
    format: "esm",
    target: "node20",
    packages: "external",
    outfile,
    logLevel: "warning",
  });
  // The bundle lives in a temporary folder; its external imports (sharp) resolve through a
  // node_modules link to the repository's.
  await symlink(join(root, "node_modules"), join(temp, "node_modules"), "dir");
  const { writeSampleSnapshot } = await import(pathToFileURL(outfile).href);
  const { file, snapshot } = await writeSampleSnapshot(root);
  const types = new Set(snapshot.documents.map((d) => d.type));
  console.log(`Wrote ${snapshot.documents.length} documents of ${types.size} types to ${file} (ref ${snapshot.ref})`);
} finally {
  await rm(temp, { recursive: true, force: true });
}
