/**
 * Secrets an editor pastes into the content stop the build before anything is published (issue 35):
 * a GitHub token, a Google API key, a Slack token and a PEM private key in one page of the sample,
 * one of them split by the editor's formatting. Each is named by kind and file, never by value.
 */
import { generateKeyPairSync } from "node:crypto";
import { mkdir, mkdtemp, rm, symlink } from "node:fs/promises";
import { existsSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { readSnapshot, writeSnapshot } from "../../src/content/snapshot.js";
import { createFixture, PROJECT_ROOT, type Fixture } from "../support/build-fixture.js";

// Made at run time, so this file holds no token a scanner of the repository would flag.
const GITHUB = ["ghp", "_", "R8mKq2Xv7LbN4sTc9WdE1fYh6JpA3uZg0QoV"].join("");
const GOOGLE = ["AI", "za", "SyD4k9Lm2Qx8Vb7Nc3Wf6Hj1Tp5Rs0Ue-Yg"].join("");
const SLACK = ["xo", "xb-", "263984702123-1946825738241-Xk4qP9vL2mN7bR3tW8cY6dF1"].join("");
const PEM = generateKeyPairSync("rsa", { modulusLength: 1024 }).privateKey.export({ type: "pkcs1", format: "pem" });

let dir: string;
let fixture: Fixture;

afterAll(async () => {
  await fixture?.cleanup();
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe("secrets in the content", () => {
  it("stop the build, each named by kind and file, and nothing is published", async () => {
    dir = await mkdtemp(join(tmpdir(), "nzf-secrets-"));
    const content = join(dir, "content-cache");
    await mkdir(join(content, "sample"), { recursive: true });
    await symlink(join(PROJECT_ROOT, "content-cache/sample/images"), join(content, "sample/images"));
    const snapshot = await readSnapshot(join(PROJECT_ROOT, "content-cache/sample/snapshot.json"));
    const about = snapshot.documents.find((d) => d.type === "about_page")!;
    const paragraph = (text: string, spans: unknown[] = []) => ({ type: "paragraph", text, spans });
    (about.data as { body: unknown[] }).body.push(
      // The token split by bold type: <strong> lands in its middle.
      paragraph(`Deploy token ${GITHUB}`, [{ type: "strong", start: 20, end: 30 }]),
      paragraph(`Maps key ${GOOGLE}`),
      paragraph(`Slack ${SLACK}`),
      { type: "preformatted", text: String(PEM), spans: [] },
    );
    await writeSnapshot(join(content, "sample/snapshot.json"), snapshot);
    fixture = await createFixture({ sample: true, contentDir: content });

    const error = await fixture.run().then(
      () => null,
      (e: Error) => e,
    );
    expect(error?.message).toMatch(/A secret key or token would be published/);
    const lines = error!.message.split("\n").filter((l) => l.includes("about/index.html"));
    for (const kind of [
      "github GITHUB_TOKEN (split by markup or encoded)",
      "google-api-key",
      "slack SLACK_TOKEN",
      "privatekey PrivateKey",
    ])
      expect(lines, kind).toContainEqual(expect.stringContaining(`about/index.html: ${kind}`));
    expect(error!.message).not.toContain(GITHUB.slice(4, 20));
    expect(error!.message).not.toContain(GOOGLE.slice(4, 20));
    expect(existsSync(join(fixture.config.outDir, "about", "index.html"))).toBe(false);
  }, 120_000);
});
