/**
 * Watch mode takes each rebuild into the open page without reloading it (src/client/dev/): a
 * stylesheet edit swaps the stylesheet, a template edit morphs the page's HTML, an island edit
 * mounts that island again; a half-filled donation form keeps what was typed through all three.
 * A page that reloaded would lose the mark the test leaves on its window.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cp, mkdtemp, readFile, rm, symlink, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { tmpdir } from "node:os";
import type { Browser, Page } from "playwright-core";
import { PROJECT_ROOT } from "../support/build-fixture.js";
import { isolatedContext, launchBrowser, watchProblems, type PageProblems } from "../support/browser.js";
import { resolveConfig } from "../../src/core/config.js";
import { createMemoryLogger } from "../../src/core/logger.js";
import { startWaitableWatch, type WaitableWatchSession } from "../support/watch-session.js";

let root: string;
let workDir: string | undefined;
let session: WaitableWatchSession;
let browser: Browser;
let page: Page;
let problems: PageProblems;
const logger = createMemoryLogger();

beforeAll(async () => {
  // A copy of the project's sources and the sample, so the test can edit them.
  root = await mkdtemp(join(tmpdir(), "nzf-watch-updates-"));
  for (const dir of ["templates", "src", "assets", "content-cache/sample"])
    await cp(join(PROJECT_ROOT, dir), join(root, dir), { recursive: true });
  await cp(join(PROJECT_ROOT, "package-lock.json"), join(root, "package-lock.json"));
  await symlink(join(PROJECT_ROOT, "node_modules"), join(root, "node_modules"));
  workDir = await mkdtemp(join(PROJECT_ROOT, ".nzf-cache", "test-watch-updates-"));
  const config = resolveConfig(
    { root, out: join(root, "dist"), workDir, imageCacheDir: join(PROJECT_ROOT, ".nzf-cache", "images"), sample: true },
    {},
  );
  // The donation form is offered when the build has a payments API (nothing is paid here: no request reaches it).
  const publicConfig = { payments: { apiUrl: "http://127.0.0.1:9", publishableKey: "pk_test_standin0000" } };
  session = await startWaitableWatch(config, { logger, port: 0, buildDeps: { publicConfig } });
  browser = await launchBrowser();
  page = await (await isolatedContext(browser)).newPage();
  problems = watchProblems(page);
  page.on("request", (request) => {
    if (request.resourceType() === "fetch" && request.url() === page.url()) updateFetches++;
  });
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await session?.stop();
  await rm(root, { recursive: true, force: true });
  if (workDir) await rm(workDir, { recursive: true, force: true });
});

async function edit(file: string, change: (text: string) => string): Promise<void> {
  await session.settled();
  const path = join(root, file);
  const before = await readFile(path, "utf8");
  const after = change(before);
  expect(after).not.toBe(before);
  const built = session.nextBuild();
  await writeFile(path, after);
  const result = await built;
  expect(result instanceof Error ? result.message : "built").toBe("built");
}

/** The live client's in-place updates, counted from the page: each fetches the open page again (a reload navigates). */
let updateFetches = 0;
const marked = () => page.evaluate(() => (window as unknown as { typedBefore?: boolean }).typedBefore === true);

describe("nzf-build --watch updates the open page in place", { timeout: 120_000 }, () => {
  it("a stylesheet edit applies the new style and keeps the typed form values", async () => {
    await page.goto(`${session.url}/pay/zakat/`);
    await page.getByLabel("First name").fill("Aisha");
    await page.getByLabel("Amount (AUD)").fill("321");
    await page.evaluate(() => ((window as unknown as { typedBefore: boolean }).typedBefore = true));
    const h1 = page.locator("h1").first();
    expect(await h1.evaluate((e) => getComputedStyle(e).letterSpacing)).not.toBe("3px");

    await edit("templates/styles/site.css", (css) => `${css}\nh1 {\n  letter-spacing: 3px;\n}\n`);
    await page.waitForFunction(
      () => getComputedStyle(document.querySelector("h1")!).letterSpacing === "3px",
      undefined,
      {
        timeout: 30_000,
      },
    );

    expect(await marked()).toBe(true);
    expect(await page.getByLabel("First name").inputValue()).toBe("Aisha");
    expect(await page.getByLabel("Amount (AUD)").inputValue()).toBe("321");
    expect(await page.getByLabel("Amount (AUD)").evaluate((e) => e === document.activeElement)).toBe(true);
    // The old stylesheet is gone: one stylesheet, the new one.
    expect(await page.locator('link[rel="stylesheet"]').count()).toBe(1);
  });

  it("a template edit swaps the page's HTML, keeping the typed values and the focus", async () => {
    const before = updateFetches;
    await edit("templates/pages/donation.tsx", (t) =>
      t.replace('<p className="don-jump">', '<p className="don-jump" data-edited="yes">'),
    );
    await page.waitForSelector('.don-jump[data-edited="yes"]', { state: "attached", timeout: 30_000 });
    await expect.poll(() => updateFetches).toBeGreaterThan(before);

    expect(await marked()).toBe(true);
    expect(await page.getByLabel("First name").inputValue()).toBe("Aisha");
    expect(await page.getByLabel("Amount (AUD)").inputValue()).toBe("321");
    expect(await page.getByLabel("Amount (AUD)").evaluate((e) => e === document.activeElement)).toBe(true);
  });

  it("an island edit mounts that island again with what was typed, the rest of the page untouched", async () => {
    // The payment fee offered follows the amount in the island's state (321, not the 250 it starts with).
    const fee = await page.locator('label[for$="-don-coverFees"]').textContent();
    expect(fee).not.toContain("$4.63");
    // The same element after the update (not one made anew) keeps a property set on it now.
    await page.locator(".don-jump").evaluate((e) => Object.assign(e, { keptNode: true }));
    await edit("src/client/donation/words/en.ts", (t) =>
      t.replace('firstName: "First name"', 'firstName: "Given name"'),
    );
    await page.getByLabel("Given name").waitFor({ timeout: 30_000 });

    expect(await marked()).toBe(true);
    expect(await page.locator(".don-jump").evaluate((e) => (e as unknown as { keptNode?: boolean }).keptNode)).toBe(
      true,
    );
    // The label can change a frame before the remounted island has put back what was typed.
    await expect.poll(() => page.getByLabel("Given name").inputValue()).toBe("Aisha");
    // The remounted island's state has the typed amount: the amount it would give follows it.
    await expect.poll(() => page.getByLabel("Amount (AUD)").inputValue()).toBe("321");
    await expect.poll(() => page.locator('label[for$="-don-coverFees"]').textContent()).toBe(fee);
    await page.waitForFunction(
      () => document.querySelector('[data-island="donation"]')?.getAttribute("data-hydrated") === "true",
    );
    expect(problems.pageErrors).toEqual([]);
    expect(problems.consoleErrors).toEqual([]);
  });
});
