/**
 * Runs once before any test file: finds (or unpacks) Chromium and hands its path to every test
 * worker in CHROMIUM_PATH, and makes the migrated database dump the payments service's tests load
 * (NZF_TEST_PGLITE_DUMP; kept in the temporary folder, so only the first run pays for it).
 */
import { resolveChromium } from "./chromium-path.js";
import { makeMigratedDump } from "./api-db.js";

export default async function setup(): Promise<void> {
  const [chromium, dump] = await Promise.all([resolveChromium(), makeMigratedDump()]);
  process.env.CHROMIUM_PATH = chromium;
  process.env.NZF_TEST_PGLITE_DUMP = dump;
}
