/**
 * `npm run bench`: prints the figures the issues ask for. Sections: site (build throughput and
 * rebuild latency), js (JavaScript shipped per page), images (sharp pipeline), lighthouse.
 * `npm run bench -- site js` runs only those sections.
 */
import { fileURLToPath } from "node:url";
import { mkdir } from "node:fs/promises";
import { join } from "node:path";
import { benchSite } from "./site.js";

const root = fileURLToPath(new URL("..", import.meta.url));
const all = ["site", "js", "images", "lighthouse"];
const wanted = process.argv.slice(2).filter((a) => !a.startsWith("-"));
const sections = wanted.length ? wanted : all;

await mkdir(join(root, ".nzf-cache"), { recursive: true });
console.log(`bench   node ${process.version}, ${(await import("node:os")).availableParallelism()} cores; sections: ${sections.join(", ")}`);
for (const section of sections) {
  const started = performance.now();
  if (section === "site") await benchSite({ root });
  else if (section === "js") await (await import("./js.js")).benchJs({ root });
  else if (section === "images") await (await import("./images.js")).benchImages({ workDir: join(root, ".nzf-cache/bench") });
  else if (section === "lighthouse") await (await import("./lighthouse-section.js")).benchLighthouse({ root });
  else console.log(`bench   unknown section "${section}" (choose from ${all.join(", ")})`);
  console.log(`bench   ${section} took ${((performance.now() - started) / 1000).toFixed(1)} s`);
}
