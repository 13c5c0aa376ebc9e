/**
 * Every test file runs with the payments service's database opener (src/api/db/open.ts) replaced
 * by test/support/api-db-open.ts, which answers a test database's name (`testDataDir`) with the
 * PGlite the test support holds and opens anything else for real. One mock for the whole run, as
 * for the clock (service-clock-setup.ts): a file's own vi.mock would make it load its module graph
 * again (the isolated project, vitest.config.ts).
 */
import { vi } from "vitest";

vi.mock("../../src/api/db/open.js", async (importOriginal) => {
  const real = await importOriginal<typeof import("../../src/api/db/open.js")>();
  const testing = await import("./api-db-open.js");
  testing.useRealOpen(real.openDatabase);
  return { ...real, openDatabase: testing.openDatabase };
});
