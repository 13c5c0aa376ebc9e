/**
 * A deliberate hydration mismatch, with the real island bundle in Chromium: an island whose server
 * render and browser render differ is built by bundleClient (esbuild, React's production build),
 * its server markup comes from the same <Island> the templates use, and hydrating it must log a
 * console error naming the island. That console error is what fails the other browser tests on any
 * mismatch (watchProblems in test/support/browser.ts). An island whose renders agree logs nothing.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cp, mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { pathToFileURL } from "node:url";
import { createElement, type ComponentType } from "react";
import { renderToString } from "react-dom/server";
import type { Browser } from "playwright-core";
import { PROJECT_ROOT } from "../support/build-fixture.js";
import { startStaticServer, type StaticServer } from "../../src/server/static-server.js";
import { isolatedContext, launchBrowser, watchProblems } from "../support/browser.js";
import { bundleClient } from "../../src/bundle/island-bundle.js";
import { createIslandCollector, Island, IslandCollectorContext } from "../../src/template-kit/islands.js";

/** Differs between the server (no window) and the browser: a hydration mismatch. */
const MISMATCH = `export default function Mismatch({ label }: { label: string }) {
  return <p>{label}: {typeof window === "undefined" ? "rendered on the server" : "rendered in the browser"}</p>;
}
`;
const MATCHING = `import { useState } from "react";
export default function Matching({ label }: { label: string }) {
  const [count, setCount] = useState(0);
  return <button type="button" onClick={() => setCount(count + 1)}>{label} {count}</button>;
}
`;

let root: string;
let server: StaticServer;
let browser: Browser;

/** A page with one island, as the build writes it: the island's markup and props, and its module script. */
async function page(name: string, props: { label: string }, script: string): Promise<string> {
  const component = (
    (await import(pathToFileURL(join(root, "src/client/islands", `${name}.tsx`)).href)) as {
      default: ComponentType<{ label: string }>;
    }
  ).default;
  const body = renderToString(
    createElement(
      IslandCollectorContext.Provider,
      { value: createIslandCollector() },
      createElement(Island<{ label: string }>, { name, component, props }),
    ),
  );
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${name}</title><script type="module" src="${script}"></script></head><body><main>${body}</main></body></html>`;
}

beforeAll(async () => {
  // Inside the project, so the islands resolve react from its node_modules, as the site's do.
  await mkdir(join(PROJECT_ROOT, ".nzf-cache"), { recursive: true });
  root = await mkdtemp(join(PROJECT_ROOT, ".nzf-cache", "hydration-"));
  const client = join(root, "src/client");
  await mkdir(join(client, "islands"), { recursive: true });
  // The site's own hydration code.
  await writeFile(
    join(client, "hydrate.ts"),
    `export * from ${JSON.stringify(join(PROJECT_ROOT, "src/client/hydrate.ts"))};\n`,
  );
  await writeFile(join(client, "islands/mismatch.tsx"), MISMATCH);
  await writeFile(join(client, "islands/matching.tsx"), MATCHING);
  const { bundle } = await bundleClient({ root, cacheDir: join(root, "cache") });
  const dist = join(root, "dist");
  for (const file of bundle.files) {
    await mkdir(dirname(join(dist, "_islands", file.path)), { recursive: true });
    await cp(file.from, join(dist, "_islands", file.path));
  }
  await writeFile(
    join(dist, "mismatch.html"),
    await page("mismatch", { label: "Mismatch" }, bundle.islands.mismatch!.src),
  );
  await writeFile(
    join(dist, "matching.html"),
    await page("matching", { label: "Matching" }, bundle.islands.matching!.src),
  );
  server = await startStaticServer({ root: dist });
  browser = await launchBrowser();
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await server?.stop();
  if (root) await rm(root, { recursive: true, force: true });
});

describe("a hydration mismatch in Chromium", () => {
  it("is reported as a console error naming the island, which fails the browser tests", async () => {
    const context = await isolatedContext(browser);
    const tab = await context.newPage();
    const seen = watchProblems(tab);
    await tab.goto(server.url + "/mismatch.html");
    await tab.waitForSelector('[data-island="mismatch"][data-hydrated="true"]');
    // React rendered the island again in the browser.
    expect(await tab.locator("p").textContent()).toBe("Mismatch: rendered in the browser");
    expect(seen.consoleErrors).toEqual([
      expect.stringContaining(`Island "mismatch" (i0): the server's HTML and the browser's first render differ`),
    ]);
    // React's production error, with its code, comes with it (#418: hydration failed).
    expect(seen.consoleErrors[0]).toMatch(/react\.dev\/errors\/418|Hydration failed/);
    await context.close();
  });

  it("an island whose renders agree hydrates without a word, and works", async () => {
    const context = await isolatedContext(browser);
    const tab = await context.newPage();
    const seen = watchProblems(tab);
    await tab.goto(server.url + "/matching.html");
    await tab.waitForSelector('[data-island="matching"][data-hydrated="true"]');
    await tab.getByRole("button", { name: "Matching 0" }).click();
    await tab.getByRole("button", { name: "Matching 1" }).waitFor();
    expect([...seen.consoleErrors, ...seen.pageErrors, ...seen.failedRequests]).toEqual([]);
    await context.close();
  });
});
