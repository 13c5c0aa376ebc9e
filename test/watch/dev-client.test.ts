/**
 * Watch mode's browser script (src/client/dev/) is for the dev server alone: it bundles, and a
 * production build of the sample has none of it, in no page and no file.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { sharedSampleSite, type SharedSite } from "../support/shared-site.js";
import { bundleDevClient } from "../../src/watch/dev-client.js";
import { createLiveReload } from "../../src/watch/live-reload.js";

/** Strings only the dev client and its tag have: its event stream, its script's address, its reload notice. */
const DEV_MARKS = ["/__nzf/events", "/__nzf/reload.js", "nzf-build: reloading the page"];

let site: SharedSite;
beforeAll(async () => {
  site = await sharedSampleSite();
}, 180_000);

async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries.filter((e) => e.isFile()).map((e) => join(e.parentPath, e.name));
}

describe("the dev client", () => {
  it("bundles into one module that listens to watch mode's events", async () => {
    const code = await bundleDevClient();
    expect(code).toContain("/__nzf/events");
    expect(code).toContain("nzf-build: reloading the page");
    expect(code).not.toMatch(/^\s*import\s/m);
    // And the dev server adds its tag to the pages it sends (the script is bundled only when asked for).
    expect(createLiveReload().inject("<body><p>x</p></body>")).toContain(
      '<script type="module" src="/__nzf/reload.js"></script>',
    );
  });

  it("never reaches a production build: no file of the sample's site has any of it", async () => {
    const files = await filesUnder(site.outDir);
    const texts = files.filter((f) => /\.(html|js|css|json|webmanifest|txt|xml)$|_headers$|_redirects$/.test(f));
    expect(texts.some((f) => f.endsWith("index.html"))).toBe(true);
    expect(texts.some((f) => f.endsWith(".js"))).toBe(true);
    const found: string[] = [];
    for (const file of texts) {
      const text = await readFile(file, "utf8");
      for (const mark of DEV_MARKS) if (text.includes(mark)) found.push(`${file}: ${mark}`);
    }
    expect(found).toEqual([]);
  });
});
