/**
 * Live content for the CLI tests: the local Prismic stub serving the sample documents, with the
 * home page's heading changed (so a page built from fetched content can be told from the sample)
 * and image URLs pointing at a local server. Every request must carry the access token.
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
let images: StaticServer | undefined;
const stubs: PrismicStub[] = [];

/** A stub of its own (its request log then tells which CLI process called it). */
export async function startContentStub(): Promise<PrismicStub> {
  if (!images) images = await startStaticServer({ root: join(PROJECT_ROOT, "content-cache/sample/images") });
  if (!documents) {
    const sample = (await readSnapshot(join(PROJECT_ROOT, "content-cache/sample/snapshot.json"))).documents;
    const json = JSON.stringify(sample)
      .replace(/https:\/\/images\.prismic\.io\/nzf-sample\//g, `${images.url}/`)
      .replaceAll(SAMPLE_HEADING, FETCHED_HEADING);
    documents = JSON.parse(json) as PrismicDocument[];
  }
  const stub = await startPrismicStub({ documents, repository: "nzf-test", accessToken: STUB_TOKEN });
  stubs.push(stub);
  return stub;
}

export async function stopContentStubs(): Promise<void> {
  await Promise.all(stubs.splice(0).map((s) => s.stop()));
  await images?.stop();
  images = undefined;
}
