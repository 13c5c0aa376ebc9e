/**
 * An image file name from the content that climbs out of the local images folder, through the
 * compiled CLI against the local Prismic stub (issue 35): a coded warning naming the document and
 * field, the picture left out, and nothing of the build host published.
 */
import { readdir, readFile, writeFile } from "node:fs/promises";
import { join, relative } from "node:path";
import sharp from "sharp";
import { afterAll, describe, expect, it } from "vitest";
import { projectRoot, removeTemporary, tempDir } from "../cli/cli-process.js";
import { ABOUT_ID, buildFetched, REPO, stopStubs, withAbout } from "./attack-content.js";

/** A size no image of the sample has, so a published copy of the secret is told by its size alone. */
const SECRET = { width: 123, height: 77 };

afterAll(async () => {
  await stopStubs();
  await removeTemporary();
});

async function publishedImageSizes(dist: string): Promise<string[]> {
  const folder = join(dist, "_images");
  return Promise.all(
    (await readdir(folder)).map(async (name) => {
      const meta = await sharp(await readFile(join(folder, name))).metadata();
      return `${meta.width}x${meta.height}`;
    }),
  );
}

describe("image file names from the content, through the compiled CLI", () => {
  it("a file name that leaves the images folder publishes nothing of the build host", async () => {
    const secret = join(await tempDir("nzf-secret-"), "secret.png");
    await writeFile(
      secret,
      await sharp({ create: { ...SECRET, channels: 3, background: { r: 201, g: 7, b: 99 } } })
        .png()
        .toBuffer(),
    );
    // The project folder's images folder is content-cache/<repository>/images: climb out of it.
    const climb = relative(join(await projectRoot(), "content-cache", REPO, "images"), secret);
    expect(climb.startsWith("..")).toBe(true);
    const url = `https://images.prismic.io/${REPO}/${climb.split("/").join("%2F")}?auto=format,compress`;

    const run = await buildFetched(
      await withAbout((data) => ({ ...data, hero_image: { ...(data.hero_image as object), url } })),
    );
    expect(run.code, run.output).toBe(0);
    expect(await publishedImageSizes(run.dist)).not.toContain(`${SECRET.width}x${SECRET.height}`);
    expect(run.output).toMatch(
      new RegExp(
        `warn: .*\\[IMAGE_REFUSED\\] .*leaves the local images folder.*document ${ABOUT_ID}, field hero_image`,
      ),
    );
    const about = await readFile(join(run.dist, "about", "index.html"), "utf8");
    expect(about).not.toContain("secret.png");
    expect(about).not.toContain("Teal gradient with arches");
  }, 150_000);
});
