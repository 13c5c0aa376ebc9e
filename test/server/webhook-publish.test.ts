/**
 * An editor's publish reaches the site, through the compiled CLI's webhook server over HTTP: the
 * webhook is a hint, never the truth (issue 36).
 */
import { readFile, stat } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PROJECT_ROOT } from "../support/build-fixture.js";
import {
  cli,
  freePort,
  projectRoot,
  removeTemporary,
  startCli,
  tempDir,
  waitForHttp,
  waitUntil,
} from "../cli/cli-process.js";
import { startContentStub, STUB_TOKEN, stopContentStubs } from "../cli/stub-content.js";

const SECRET = "publish-test-secret";

interface Status {
  queue: { state: string; builds: { id: number; ok: boolean; pagesRebuilt?: number; error?: string }[] };
}

beforeAll(async () => {
  const lib = await stat(join(PROJECT_ROOT, "lib", "nzf-build.mjs")).catch(() => null);
  expect(lib, "lib/ is missing: run npm run compile").not.toBeNull();
});

afterAll(async () => {
  await stopContentStubs();
  await removeTemporary();
});

describe("a webhook that names the wrong document", () => {
  it("still rebuilds the page the editor published, and later fetches see the edit", async () => {
    const stub = await startContentStub();
    const root = await projectRoot();
    const out = join(await tempDir(), "site");
    const port = await freePort();
    const env = {
      NZF_WEBHOOK_SECRET: SECRET,
      PRISMIC_REPOSITORY: "nzf-test",
      PRISMIC_ENDPOINT: stub.endpoint,
      PRISMIC_ACCESS_TOKEN: STUB_TOKEN,
    };
    const hook = startCli(["webhook", "--root", root, "--out", out, "--port", String(port)], env);
    const base = `http://127.0.0.1:${port}`;
    const status = async () => (await (await fetch(`${base}/status`)).json()) as Status;
    const finished = (count: number) =>
      waitUntil(
        async () => {
          const { queue } = await status();
          return queue.builds.length >= count && queue.state === "idle" ? queue : undefined;
        },
        `build ${count}`,
        60_000,
      );
    try {
      await waitForHttp(`${base}/health`, hook);
      expect((await finished(1)).builds[0]!.ok).toBe(true);
      const faqPage = join(out, "faq", "index.html");
      expect(await readFile(faqPage, "utf8")).toContain("Frequently asked questions");

      // The editor publishes an FAQ edit...
      const documents = stub.documentsAt(stub.ref);
      const faq = documents.find((d) => d.type === "faq_page")!;
      const other = documents.find((d) => d.type === "about_page")!;
      const edited = JSON.parse(
        JSON.stringify(faq).replace("Frequently asked questions", "Questions donors ask us most"),
      ) as typeof faq;
      edited.last_publication_date = new Date()
        .toISOString()
        .replace(/\.\d+Z$/, "+0000") as typeof faq.last_publication_date;
      const ref = stub.setDocuments(documents.map((d) => (d.id === faq.id ? edited : d)));

      // ...and the webhook that arrives names another document.
      const answer = await fetch(`${base}/webhook`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({
          type: "api-update",
          secret: SECRET,
          domain: "nzf-test",
          masterRef: ref,
          documents: [other.id],
        }),
      });
      expect(answer.status).toBe(200);
      const after = await finished(2);
      expect(after.builds[0]).toMatchObject({ ok: true });
      expect(after.builds[0]!.pagesRebuilt).toBeGreaterThan(0);
      expect(await readFile(faqPage, "utf8")).toContain("Questions donors ask us most");

      // A later full trigger and `nzf-build fetch` find the snapshot already holds the edit.
      await fetch(`${base}/webhook`, {
        method: "POST",
        headers: { "content-type": "application/json", "x-nzf-webhook-secret": SECRET },
        body: JSON.stringify({ type: "api-update" }),
      });
      expect((await finished(3)).builds[0]).toMatchObject({ ok: true, pagesRebuilt: 0 });
    } finally {
      await hook.stop();
    }
    const fetched = await cli(["fetch", "--root", root], env);
    expect(fetched.code, fetched.output).toBe(0);
    expect(fetched.output).toContain("unchanged at ref");
    const snapshot = JSON.parse(await readFile(join(root, "content-cache", "nzf-test", "snapshot.json"), "utf8")) as {
      documents: { type: string; data: unknown }[];
    };
    const faqData = JSON.stringify(snapshot.documents.find((d) => d.type === "faq_page")!.data);
    expect(faqData).toContain("Questions donors ask us most");
    expect(faqData).not.toContain("Frequently asked questions");
  }, 120_000);
});
