/**
 * Watch mode in a real browser: a template edit shows up in the open page by itself;
 * a syntax error shows in the terminal and the browser while the last good site stays served; the
 * next good save recovers; a content edit rewrites only the pages that show it.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cp, mkdtemp, readFile, rm, symlink, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { tmpdir } from "node:os";
import type { Browser, Page } from "playwright-core";
import { PROJECT_ROOT } from "../support/build-fixture.js";
import { launchBrowser } from "../support/browser.js";
import { resolveConfig } from "../../src/core/config.js";
import { createMemoryLogger } from "../../src/core/logger.js";
import { type BuildOutcome, startWaitableWatch, type WaitableWatchSession } from "../support/watch-session.js";
import { readSnapshot, writeSnapshot } from "../../src/content/snapshot.js";

let root: string;
let workDir: string | undefined;
let session: WaitableWatchSession;
let config: ReturnType<typeof resolveConfig>;
let browser: Browser;
let page: Page;
const logger = createMemoryLogger();

beforeAll(async () => {
  // A copy of the project's sources, so the test can edit templates without touching the real ones.
  root = await mkdtemp(join(tmpdir(), "nzf-watch-"));
  for (const dir of ["templates", "src", "assets", "content-cache/sample"])
    await cp(join(PROJECT_ROOT, dir), join(root, dir), { recursive: true });
  await cp(join(PROJECT_ROOT, "package-lock.json"), join(root, "package-lock.json"));
  await symlink(join(PROJECT_ROOT, "node_modules"), join(root, "node_modules"));
  workDir = await mkdtemp(join(PROJECT_ROOT, ".nzf-cache", "test-watch-"));
  config = resolveConfig(
    { root, out: join(root, "dist"), workDir, imageCacheDir: join(PROJECT_ROOT, ".nzf-cache", "images"), sample: true },
    {},
  );
  session = await startWaitableWatch(config, { logger, port: 0 });
  browser = await launchBrowser();
  page = await browser.newPage();
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await session?.stop();
  await rm(root, { recursive: true, force: true });
  if (workDir) await rm(workDir, { recursive: true, force: true });
});

/**
 * Saves the way some editors do, truncating the file and then writing it, with a pause longer than
 * the debounce between the two, so a rebuild starts on the empty file. The next good save must
 * still win: watch mode answers with the build that saw the whole save. The rebuild of the empty
 * file is not that one: it may end before the second write (it fails fast, 43–60 ms at load 9
 * against the 100 ms pause), and then it missed no change it could have seen; waiting from before
 * the first write took it for the answer. So the wait starts just before the second write: a build
 * that starts later reads it, or sees it saved while it ran and is followed by one more. (Not after
 * the write: a rebuild may start before writeFile has returned, and none would follow it.)
 */
async function saveAndWait(file: string, change: (text: string) => string): Promise<BuildOutcome> {
  await session.settled();
  const path = join(root, file);
  const text = change(await readFile(path, "utf8"));
  await writeFile(path, "");
  await new Promise((r) => setTimeout(r, 100));
  const next = session.nextBuild();
  await writeFile(path, text);
  return next;
}

describe("nzf-build --watch", { timeout: 90_000 }, () => {
  it("serves the site and shows a template edit in the open page without a reload", async () => {
    await page.goto(`${session.url}/ramadan-calendars/`);
    await expect(page.locator("h1").textContent()).resolves.toBe("Ramadan calendars");
    const result = await saveAndWait("templates/pages/static-pages.tsx", (t) =>
      t.replace("<h1>Ramadan calendars</h1>", "<h1>Ramadan calendars 1448</h1>"),
    );
    expect(result).not.toBeInstanceOf(Error);
    // Rebuild latency is measured by `npm run bench`, not here; this only proves the page updates by itself.
    await page.waitForFunction(
      () => document.querySelector("h1")?.textContent === "Ramadan calendars 1448",
      undefined,
      { timeout: 30_000 },
    );
  });

  it("shows a syntax error in the terminal and the browser, keeps serving, and recovers on the next good save", async () => {
    const broken = await saveAndWait("templates/pages/static-pages.tsx", (t) =>
      t.replace("<h1>Ramadan calendars 1448</h1>", "<h1>Ramadan calendars 1448</h2>"),
    );
    expect(broken).toBeInstanceOf(Error);
    // The terminal names the file and line (templates are bundled for the server and, for previews, the browser).
    expect(
      logger.lines.some((l) => l.level === "error" && /_BUNDLE_FAILED\].*\n.*static-pages\.tsx:\d+/s.test(l.message)),
    ).toBe(true);
    await page.waitForSelector("#nzf-build-error", { timeout: 10_000 });
    expect(await page.locator("#nzf-build-error").textContent()).toContain("static-pages.tsx");
    // The last good site is still served.
    const res = await fetch(`${session.url}/ramadan-calendars/`);
    expect(await res.text()).toContain("Ramadan calendars 1448");

    const fixed = await saveAndWait("templates/pages/static-pages.tsx", (t) =>
      t.replace("<h1>Ramadan calendars 1448</h2>", "<h1>Ramadan calendars 1449</h1>"),
    );
    expect(fixed).not.toBeInstanceOf(Error);
    await page.waitForFunction(
      () => document.querySelector("h1")?.textContent === "Ramadan calendars 1449",
      undefined,
      { timeout: 10_000 },
    );
    expect(await page.locator("#nzf-build-error").count()).toBe(0);
  });

  it("a content edit rewrites only the pages that show the changed document", async () => {
    const file = join(root, "content-cache/sample/snapshot.json");
    const snapshot = await readSnapshot(file);
    const partner = snapshot.documents.find((d) => d.type === "partner")!;
    (partner.data as { summary: string }).summary = "A summary edited under watch.";
    await session.settled();
    const next = session.nextBuild();
    await writeSnapshot(file, { ...snapshot, ref: snapshot.ref + "w" });
    const result = await next;
    if (result instanceof Error) throw result;
    // The partner's page and /programs/ (which lists partners); nothing else shows it.
    expect(result.pagesRebuilt).toBe(2);
    expect(await (await fetch(`${session.url}/partner/${partner.uid}/`)).text()).toContain(
      "A summary edited under watch.",
    );
  });

  it("an open page reloads itself when watch mode comes back on the same port (a restart after nzf-build recompiled itself)", async () => {
    await session.settled();
    // The content edit above may still be reloading the page: a navigation it aborts is tried again.
    await page.goto(`${session.url}/ramadan-calendars/`).catch(() => page.goto(`${session.url}/ramadan-calendars/`));
    await page.waitForFunction(() => document.querySelector("h1")?.textContent === "Ramadan calendars 1449");
    await page.evaluate(() => ((window as unknown as { beforeRestart: boolean }).beforeRestart = true));
    const port = session.port;
    // The worst order, every time (it made this test fail once under load): the page reloads into
    // "Building…" as soon as the new server listens, and that page's script connects only after the
    // first build has sent its reload, so it must find out for itself that the site is ready.
    let restarted = () => {};
    const afterFirstBuild = new Promise<void>((resolve) => {
      restarted = resolve;
    });
    await page.route("**/__nzf/reload.js", async (route) => {
      await afterFirstBuild;
      await route.continue();
    });
    await session.stop();
    session = await startWaitableWatch(config, { logger, port });
    restarted();
    expect(session.port).toBe(port);
    // A reload gives a new window without the mark.
    await page.waitForFunction(() => !(window as unknown as { beforeRestart?: boolean }).beforeRestart, undefined, {
      timeout: 30_000,
    });
    expect(await page.locator("h1").textContent()).toBe("Ramadan calendars 1449");
  });
});
