/**
 * `npm run bench`: prints the figures the issues ask for. Sections: site (build throughput and
 * rebuild latency), js (JavaScript shipped per page), images (sharp pipeline), lighthouse, deploy
 * (S3 deploy time for one changed document), pages (is every file still byte for byte the same).
 * `npm run bench -- site js` runs only those sections; `npm run bench -- --help` lists them.
 */
import { fileURLToPath } from "node:url";
import { mkdir } from "node:fs/promises";
import { join } from "node:path";
import { benchSite } from "./site.js";

const root = fileURLToPath(new URL("..", import.meta.url));
const SECTIONS: Record<string, string> = {
  site: "build throughput and rebuild latency on a synthetic 2,000-document repository, in one process and by the CLI",
  js: "JavaScript shipped per page, and the framework chunk",
  images: "the sharp image pipeline",
  lighthouse: "Lighthouse scores on mobile (needs Chromium)",
  scale:
    "2,000 and 20,000 synthetic documents by the CLI in a new process, into memory and onto disk: wall time, CPU, peak memory, and the ratio",
  hugo: "the 2,000-document CLI build beside Hugo building 2,000 Markdown pages, both into memory (needs hugo on the PATH)",
  pages:
    "every file the CLI writes for the sample and the 2,000-document repository, hashed and compared with the last run",
  deploy: "nzf-build deploy against a local S3 (s3rver): first deploy, no change, one changed document",
  publish:
    "the webhook server, 2,000 documents: one changed document from the webhook to the last object in a local S3 and the invalidation recorded (p50 of 10)",
  watch:
    "watch mode on the sample by the CLI: from saving a content field, a page template and the shared layout to the new HTML served (median of 10)",
  api: "the payments service on PGlite with the Stripe stand-in: p50/p99 of POST /donations and of the webhook, requests/s with 50 clients, nothing lost",
};
const all = Object.keys(SECTIONS);
const args = process.argv.slice(2);
if (args.includes("--help") || args.includes("-h")) {
  console.log(
    `Usage: npm run bench [-- <section>...]\n\nRuns every section, or only those named, and prints the figures.\n\nSections:`,
  );
  for (const [name, what] of Object.entries(SECTIONS)) console.log(`  ${name.padEnd(11)} ${what}`);
  console.log(`\nNZF_LIGHTHOUSE_RUNS=<n> sets the number of Lighthouse runs (default 5).`);
  console.log(`NZF_WATCH_RUNS=<n> sets the number of runs of each watch edit (default 10).`);
  process.exit(0);
}
// Checked before anything runs: a typo must not cost a six-minute run of the wrong sections.
const unknown = args.filter((a) => a.startsWith("-") || !all.includes(a));
if (unknown.length) {
  console.error(
    `bench   unknown ${unknown.length === 1 ? "argument" : "arguments"} ${unknown.map((a) => `"${a}"`).join(", ")}; the sections are ${all.join(", ")} (npm run bench -- --help)`,
  );
  process.exit(1);
}
const sections = args.length ? args : all;

await mkdir(join(root, ".nzf-cache"), { recursive: true });
console.log(
  `bench   node ${process.version}, ${(await import("node:os")).availableParallelism()} cores; sections: ${sections.join(", ")}`,
);
for (const section of sections) {
  const started = performance.now();
  if (section === "site") await benchSite({ root });
  else if (section === "js") await (await import("./js.js")).benchJs({ root });
  else if (section === "images")
    await (await import("./images.js")).benchImages({ workDir: join(root, ".nzf-cache/bench") });
  else if (section === "lighthouse") await (await import("./lighthouse-section.js")).benchLighthouse({ root });
  else if (section === "scale") await (await import("./scale.js")).benchScale({ root });
  else if (section === "hugo") await (await import("./hugo.js")).benchHugo({ root });
  else if (section === "pages") await (await import("./pages.js")).benchPages({ root });
  else if (section === "deploy") await (await import("./deploy.js")).benchDeploy({ root });
  else if (section === "publish") await (await import("./publish.js")).benchPublish({ root });
  else if (section === "watch") await (await import("./watch.js")).benchWatch({ root });
  else if (section === "api") await (await import("./api.js")).benchApi({ root });
  console.log(`bench   ${section} took ${((performance.now() - started) / 1000).toFixed(1)} s`);
}
