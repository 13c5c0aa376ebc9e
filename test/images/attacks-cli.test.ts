/**
 * What an attacker who controls the Prismic content can make the build do with image URLs, tried
 * through the compiled CLI against the local Prismic stub, as CI runs it (`--fetch`): the answer is
 * always a coded warning naming the document and field, the picture left out, and nothing of the
 * build host published.
 */
import { readdir, readFile, writeFile } from "node:fs/promises";
import { join, relative } from "node:path";
import type { PrismicDocument } from "@prismicio/client";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readSnapshot } from "../../src/content/snapshot.js";
import { PROJECT_ROOT } from "../support/build-fixture.js";
import { startPrismicStub, type PrismicStub } from "../support/prismic-stub.js";
import { cli, projectRoot, removeTemporary, tempDir, type Env } from "../cli/cli-process.js";

const REPO = "nzf-test";
const TOKEN = "attack-test-token";
const ABOUT_ID = "rtcALtqZMPAR2xS2";
/** A size no image of the sample has, so a published copy of the secret is told by its size alone. */
const SECRET = { width: 123, height: 77 };

let sampleDocs: PrismicDocument[];
const stubs: PrismicStub[] = [];

beforeAll(async () => {
  const sample = await readSnapshot(join(PROJECT_ROOT, "content-cache/sample/snapshot.json"));
  // The sample's images as a fetched repository's: on its own Prismic image CDN path, found in the
  // project's local images folder (test/cli/cli-process.ts links it), so nothing is downloaded.
  sampleDocs = JSON.parse(
    JSON.stringify(sample.documents).replaceAll(
      "https://images.prismic.io/nzf-sample/",
      `https://images.prismic.io/${REPO}/`,
    ),
  ) as PrismicDocument[];
});

afterAll(async () => {
  await Promise.all(stubs.map((s) => s.stop()));
  await removeTemporary();
});

/** The sample with the about page's hero image at `url`. */
function withAboutHero(url: string): PrismicDocument[] {
  return sampleDocs.map((doc) =>
    doc.id === ABOUT_ID
      ? ({ ...doc, data: { ...doc.data, hero_image: { ...(doc.data.hero_image as object), url } } } as PrismicDocument)
      : doc,
  );
}

/** Fetches `documents` from a stub of their own and builds them with the compiled CLI. */
async function buildFetched(documents: PrismicDocument[], env: Env = {}) {
  const stub = await startPrismicStub({ documents, repository: REPO, accessToken: TOKEN });
  stubs.push(stub);
  const root = await projectRoot();
  const run = await cli(
    ["--fetch", "--root", root, "--repository", REPO, "--endpoint", stub.endpoint],
    { PRISMIC_ACCESS_TOKEN: TOKEN, ...env },
    120_000,
  );
  return { run, root, dist: join(root, "dist") };
}

async function publishedImageSizes(dist: string): Promise<string[]> {
  const folder = join(dist, "_images");
  const names = await readdir(folder);
  return Promise.all(
    names.map(async (name) => {
      const meta = await sharp(await readFile(join(folder, name))).metadata();
      return `${meta.width}x${meta.height}`;
    }),
  );
}

describe("image URLs from the content, through the compiled CLI", () => {
  it("a file name that leaves the images folder publishes nothing of the build host", async () => {
    const secretDir = await tempDir("nzf-secret-");
    const secret = join(secretDir, "secret.png");
    await writeFile(
      secret,
      await sharp({ create: { ...SECRET, channels: 3, background: { r: 201, g: 7, b: 99 } } })
        .png()
        .toBuffer(),
    );
    // The project folder's images folder is content-cache/<repository>/images: climb out of it.
    const probe = await projectRoot();
    const climb = relative(join(probe, "content-cache", REPO, "images"), secret);
    expect(climb.startsWith("..")).toBe(true);
    const url = `https://images.prismic.io/${REPO}/${climb.split("/").join("%2F")}?auto=format,compress`;

    const { run, dist } = await buildFetched(withAboutHero(url));
    expect(run.code, run.output).toBe(0);
    expect(await publishedImageSizes(dist)).not.toContain(`${SECRET.width}x${SECRET.height}`);
    expect(run.output).toMatch(
      new RegExp(
        `warn: .*\\[IMAGE_REFUSED\\] .*leaves the local images folder.*document ${ABOUT_ID}, field hero_image`,
      ),
    );
    const about = await readFile(join(dist, "about", "index.html"), "utf8");
    expect(about).not.toContain("secret.png");
    expect(about).not.toContain("Teal gradient with arches");
  }, 150_000);
});
