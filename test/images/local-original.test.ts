/** The local images folder lookup: a name from the content never reaches a file outside the folder. */
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { localOriginal } from "../../src/images/download.js";

let dir: string;
let images: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "nzf-local-original-"));
  images = join(dir, "content", "images");
  await mkdir(images, { recursive: true });
  await writeFile(join(images, "hero one.jpg"), "x");
  await writeFile(join(dir, "secret.png"), "x");
  await writeFile(join(dir, "content", "images-secret.png"), "x");
});

afterAll(() => rm(dir, { recursive: true, force: true }));

const cdn = (name: string) => `https://images.prismic.io/nzf-test/${name}?auto=format`;

describe("localOriginal", () => {
  it("finds a file of the folder by its decoded name, and answers null for one that is not there", async () => {
    expect(await localOriginal(cdn("hero%20one.jpg"), images)).toBe(join(images, "hero one.jpg"));
    expect(await localOriginal(cdn("missing.jpg"), images)).toBeNull();
  });

  it.each([
    ["an encoded climb", "..%2F..%2Fsecret.png"],
    ["an encoded absolute path", "%2Fetc%2Fpasswd"],
    ["a sibling folder sharing the prefix", "..%2Fimages-secret.png"],
    ["the parent itself", "%2E%2E"],
  ])("refuses %s with IMAGE_REFUSED", async (_, name) => {
    await expect(localOriginal(cdn(name), images)).rejects.toMatchObject({
      code: "IMAGE_REFUSED",
      message: expect.stringContaining("leaves the local images folder"),
    });
  });

  it("refuses a name that is not valid percent-encoding", async () => {
    await expect(localOriginal(cdn("bad%E0%A4%A.png"), images)).rejects.toMatchObject({ code: "IMAGE_REFUSED" });
  });
});
