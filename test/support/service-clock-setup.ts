/**
 * Every test file runs with the services' clock (src/core/clock.ts) replaced by
 * test/support/service-clock.ts, which reads the system clock until a test sets one. One mock
 * for the whole run instead of one per file: a file's own vi.mock made vitest load its whole module
 * graph again (the isolated project, vitest.config.ts), 1-4 s of import for each of 27 service files.
 * A file that moves the clock gets the real one back when it ends, so the next file in its worker
 * starts on today's date.
 */
import { afterAll, vi } from "vitest";
import { restoreRealClock } from "./service-clock.js";

vi.mock("../../src/core/clock.js", () => import("./service-clock.js"));

afterAll(() => {
  restoreRealClock();
});
