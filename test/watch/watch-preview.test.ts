/**
 * Watch mode makes the editor-preview bundle after the pages are served (src/watch/watch.ts,
 * publishPreview): a template edit's HTML does not wait for it, yet the rebuild publishes the
 * preview with the edit before it ends, and a preview that does not compile fails the rebuild.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cp, mkdtemp, readdir, readFile, rm, symlink, writeFile } from "node:fs/promises";
import { get } from "node:http";
import { join } from "node:path";
import { tmpdir } from "node:os";
import { PROJECT_ROOT } from "../support/build-fixture.js";
import { resolveConfig, type BuildConfig } from "../../src/core/config.js";
import { createMemoryLogger } from "../../src/core/logger.js";
import { type BuildOutcome, startWaitableWatch, type WaitableWatchSession } from "../support/watch-session.js";
import { sharedImageCache } from "../support/shared-images.js";

let root: string;
let workDir: string | undefined;
let config: BuildConfig;
let session: WaitableWatchSession;
const logger = createMemoryLogger();

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), "nzf-watch-preview-"));
  for (const dir of ["templates", "src", "assets", "content-cache/sample"])
    await cp(join(PROJECT_ROOT, dir), join(root, dir), { recursive: true });
  await cp(join(PROJECT_ROOT, "package-lock.json"), join(root, "package-lock.json"));
  await symlink(join(PROJECT_ROOT, "node_modules"), join(root, "node_modules"));
  workDir = await mkdtemp(join(PROJECT_ROOT, ".nzf-cache", "test-watch-preview-"));
  config = resolveConfig(
    { root, out: join(root, "dist"), workDir, imageCacheDir: sharedImageCache(), sample: true },
    {},
  );
  session = await startWaitableWatch(config, { logger, port: 0 });
}, 180_000);

afterAll(async () => {
  await session?.stop();
  await rm(root, { recursive: true, force: true });
  if (workDir) await rm(workDir, { recursive: true, force: true });
});

async function save(file: string, change: (text: string) => string): Promise<BuildOutcome> {
  await session.settled();
  const path = join(root, file);
  const before = await readFile(path, "utf8");
  const after = change(before);
  expect(after).not.toBe(before);
  const built = session.nextBuild();
  await writeFile(path, after);
  return built;
}

/** The served preview bundle: its fixed-address entry and every chunk. */
async function servedPreview(): Promise<string> {
  const dir = join(config.outDir, "_preview");
  const chunks = await readdir(join(dir, "chunks")).catch(() => [] as string[]);
  const texts = await Promise.all([
    readFile(join(dir, "preview.js"), "utf8"),
    ...chunks.map((c) => readFile(join(dir, "chunks", c), "utf8")),
  ]);
  return texts.join("\n");
}

describe("the editor-preview bundle in watch mode", { timeout: 120_000 }, () => {
  it("is published with a template edit by the end of the rebuild that served the page", async () => {
    expect(await servedPreview()).not.toContain("Ramadan calendars 1450");
    const result = await save("templates/pages/static-pages.tsx", (t) =>
      t.replace("<h1>Ramadan calendars</h1>", "<h1>Ramadan calendars 1450</h1>"),
    );
    expect(result instanceof Error ? result.message : "built").toBe("built");
    const html = await (await fetch(`${session.url}/ramadan-calendars/`)).text();
    expect(html).toContain("Ramadan calendars 1450");
    // The browser's copy of the templates, which renders a preview, has the edit too.
    expect(await servedPreview()).toContain("Ramadan calendars 1450");
  });

  it("fails the rebuild on a preview that does not compile, keeps serving, and recovers", async () => {
    const broken = await save("src/preview-app/dialogs.tsx", (t) => `${t}\nexport const broken = (;\n`);
    expect(broken).toBeInstanceOf(Error);
    expect(String((broken as Error).message)).toMatch(/dialogs\.tsx/);
    expect(logger.lines.some((l) => l.level === "error" && l.message.includes("dialogs.tsx"))).toBe(true);
    expect((await fetch(`${session.url}/ramadan-calendars/`)).status).toBe(200);
    const fixed = await save("src/preview-app/dialogs.tsx", (t) =>
      t.replace("\nexport const broken = (;\n", "").replace("Fetching preview", "Fetching your preview"),
    );
    expect(fixed instanceof Error ? fixed.message : "built").toBe("built");
    expect(await servedPreview()).toContain("Fetching your preview");
  });
});

describe("the served site in watch mode", () => {
  it("says a refused request in the terminal, beside the builds", async () => {
    const status = await new Promise<number>((resolve, reject) => {
      // A target longer than the servers take (http-guard.ts: 4,096 characters).
      get(`${session.url}/${"a".repeat(5000)}`, (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      }).on("error", reject);
    });
    expect(status).toBe(414);
    expect(logger.lines).toContainEqual(
      expect.objectContaining({ level: "warn", message: expect.stringMatching(/^static server: refused GET \(414\)/) }),
    );
  });
});
