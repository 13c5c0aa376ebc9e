/**
 * Live content for the CLI tests: the local Prismic stub serving the sample documents, with the
 * home page's heading changed (so a page built from fetched content can be told from the sample)
 * and image URLs on the stub repository's own Prismic CDN path (nzf-test), found in the project
 * folder's local images folder (cli-process.ts links it), so nothing is downloaded. Every request
 * must carry the access token.
 */
import type { PrismicDocument } from "@prismicio/client";
import { join } from "node:path";
import { readSnapshot } from "../../src/content/snapshot.js";
import { startStaticServer, type StaticServer } from "../../src/server/static-server.js";
import { startPrismicStub, type PrismicStub } from "../support/prismic-stub.js";
import { PROJECT_ROOT } from "../support/build-fixture.js";

export const STUB_TOKEN = "cli-test-token";
/** The sample home page's heading, and what the stub's copy says instead. */
export const SAMPLE_HEADING = "Your zakat, for Australians in need";
export const FETCHED_HEADING = "Fetched from the local Prismic stub";

let documents: PrismicDocument[] | undefined;
const stubs: PrismicStub[] = [];
const imageServers: StaticServer[] = [];

/** A stub of its own (its request log then tells which CLI process called it). */
export async function startContentStub(): Promise<PrismicStub> {
  if (!documents) {
    const sample = (await readSnapshot(join(PROJECT_ROOT, "content-cache/sample/snapshot.json"))).documents;
    const json = JSON.stringify(sample)
      .replace(/https:\/\/images\.prismic\.io\/nzf-sample\//g, "https://images.prismic.io/nzf-test/")
      .replaceAll(SAMPLE_HEADING, FETCHED_HEADING);
    documents = JSON.parse(json) as PrismicDocument[];
  }
  const stub = await startPrismicStub({ documents, repository: "nzf-test", accessToken: STUB_TOKEN });
  stubs.push(stub);
  return stub;
}

/**
 * The sample with its images on a local image server (a loopback address, so the build takes them
 * only when NZF_IMAGE_HOSTS lists it), for a repository without a local images folder: every image
 * is downloaded from `images`.
 */
export async function startImageServerStub(): Promise<{ stub: PrismicStub; images: StaticServer }> {
  const images = await startStaticServer({ root: join(PROJECT_ROOT, "content-cache/sample/images") });
  imageServers.push(images);
  const sample = (await readSnapshot(join(PROJECT_ROOT, "content-cache/sample/snapshot.json"))).documents;
  const json = JSON.stringify(sample).replace(/https:\/\/images\.prismic\.io\/nzf-sample\//g, `${images.url}/`);
  const stub = await startPrismicStub({
    documents: JSON.parse(json) as PrismicDocument[],
    repository: "nzf-hosts",
    accessToken: STUB_TOKEN,
  });
  stubs.push(stub);
  return { stub, images };
}

export async function stopContentStubs(): Promise<void> {
  await Promise.all(stubs.splice(0).map((s) => s.stop()));
  await Promise.all(imageServers.splice(0).map((s) => s.stop()));
}
