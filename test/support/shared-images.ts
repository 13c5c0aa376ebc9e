/**
 * The processed images one test run's builds share: a folder of the run (test/support/global-setup.ts,
 * NZF_TEST_SHARED_IMAGES), empty when the run starts and removed when it ends, which the run's first
 * builds of the sample fill (the image cache is written atomically and read by several builds at
 * once, src/images/cache.ts). So a run pays for the sample's images about once, and no test reads
 * the images in the developer's .nzf-cache/images, which the bench, watch and the webhook server
 * fill with other content (and a test that corrupts entries there would corrupt ones its build never
 * reads). A test that corrupts image entries copies this folder into a cache of its own.
 */
import { mkdirSync } from "node:fs";

export function sharedImageCache(): string {
  const dir = process.env.NZF_TEST_SHARED_IMAGES;
  if (!dir)
    throw new Error(
      "NZF_TEST_SHARED_IMAGES is not set: run the tests with vitest, whose global setup (test/support/global-setup.ts) makes the run's image cache",
    );
  mkdirSync(dir, { recursive: true });
  return dir;
}
